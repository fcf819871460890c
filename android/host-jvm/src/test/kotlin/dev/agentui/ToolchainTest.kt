package dev.agentui

import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.test.runTest
import kotlin.test.Test
import kotlin.test.assertEquals

/** Proves the Maven pipeline: Kotlin 2.x, coroutines (+ test), JUnit on Surefire. */
class ToolchainTest {
    @Test
    fun coroutinesRunOnTheHostJvm() = runTest {
        val flow = MutableStateFlow(0)
        flow.value = 2
        assertEquals(2, flow.first { it > 1 })
    }
}

package dev.agentui

import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertNotEquals
import kotlin.test.assertNull
import kotlin.test.assertTrue
import kotlin.time.Duration.Companion.seconds

/**
 * `AgentOptions` can grow without breaking compiled apps (issue 44): no public constructor or
 * `copy`/`componentN` whose signature names every option, and what the builder and the DSL
 * make is the same value.
 */
class AgentOptionsTest {
    @Test
    fun `no public signature lists the options, so adding one keeps compiled code linking`() {
        val type = AgentOptions::class.java
        // The private constructor's synthetic accessor (for Builder.build) is public in bytecode
        // but no compiler links source against a synthetic member.
        val constructors = type.constructors.filterNot { it.isSynthetic }
        assertTrue(constructors.isEmpty(), "public constructors: $constructors")
        val positional = type.methods.filter { it.name.startsWith("copy") || it.name.matches(Regex("component\\d+")) }
        assertTrue(positional.isEmpty(), "data-class members: $positional")
    }

    @Test
    fun `the DSL, the Java-style builder and newBuilder agree`() {
        val dsl = AgentOptions {
            threadId = "t"
            idleTimeout = 5.seconds
            locale = "de-DE"
            chatMarkdown = false
        }
        val chained = AgentOptions.Builder().threadId("t").idleTimeout(5.seconds).locale("de-DE").chatMarkdown(false).build()
        assertEquals(dsl, chained)
        assertEquals(dsl.hashCode(), chained.hashCode())
        assertEquals(dsl, dsl.newBuilder().build())
        assertTrue(dsl.toString().contains("threadId=t"), dsl.toString())

        val other = dsl.newBuilder().threadId("u").build()
        assertEquals("u", other.threadId)
        assertEquals(5.seconds, other.idleTimeout, "newBuilder keeps the rest")
        assertEquals("t", dsl.threadId, "the original is unchanged")
        assertNotEquals(dsl, other)
    }

    @Test
    fun `defaults are the documented ones`() {
        val options = AgentOptions()
        assertNull(options.threadId)
        assertEquals(10.seconds, options.connectTimeout)
        assertEquals(60.seconds, options.idleTimeout)
        assertEquals(30.seconds, options.toolTimeout)
        assertEquals(5, options.maxFollowUpRuns)
        assertTrue(options.chatMarkdown)
        assertEquals(false, options.markdownImages)
        assertTrue(options.advertiseA2ui)
        assertEquals(AgentOptions.Builder().build(), options)
    }

    @Test
    fun `built options do not follow later changes to the builder or its collections`() {
        val pins = mutableListOf("sha256/AAAA")
        val builder = AgentOptions.Builder().certificatePins(pins)
        val options = builder.build()
        pins += "sha256/BBBB"
        builder.threadId = "later"
        assertEquals(listOf("sha256/AAAA"), options.certificatePins)
        assertNull(options.threadId)
    }
}

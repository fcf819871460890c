package dev.agentui.compose

import java.io.File

/**
 * tests/renderer-cases/cases.json, the cases both renderers' tests assert (the Swift side is
 * ios/Tests/AgentUITests/RendererCasesTests.swift), parsed into plain Kotlin values: Map (keys in
 * file order), List, String, Double, Boolean, and null for JSON null. A key that is absent is
 * not in its Map, which the echo cases use to tell "wrote nothing" from "wrote null".
 */
internal object RendererCases {
    val file: File by lazy {
        // Surefire runs in android/host-jvm; the pom passes the repository root too.
        val root = System.getProperty("agentui.repo.root")?.let(::File) ?: File(System.getProperty("user.dir"), "../..")
        File(root, "tests/renderer-cases/cases.json").canonicalFile
    }

    @Suppress("UNCHECKED_CAST")
    val all: Map<String, Any?> by lazy { JsonReader(file.readText()).document() as Map<String, Any?> }

    @Suppress("UNCHECKED_CAST")
    fun section(name: String): List<Map<String, Any?>> =
        ((all[name] as? Map<String, Any?>)?.get("cases") as? List<Map<String, Any?>>)
            ?: error("$file has no section \"$name\" with cases")
}

/** A strict reader of the JSON the cases file uses (RFC 8259); no dependency needed for it. */
internal class JsonReader(private val text: String) {
    private var at = 0

    fun document(): Any? {
        val value = value()
        skipSpace()
        check(at == text.length) { "trailing text at $at" }
        return value
    }

    private fun value(): Any? {
        skipSpace()
        check(at < text.length) { "unexpected end" }
        return when (text[at]) {
            '{' -> obj()
            '[' -> array()
            '"' -> string()
            't' -> literal("true", true)
            'f' -> literal("false", false)
            'n' -> literal("null", null)
            else -> number()
        }
    }

    private fun obj(): Map<String, Any?> {
        val members = LinkedHashMap<String, Any?>()
        at++
        skipSpace()
        if (peek() == '}') return members.also { at++ }
        while (true) {
            skipSpace()
            val key = string()
            check(key !in members) { "duplicate key \"$key\" at $at" }
            expect(':')
            members[key] = value()
            skipSpace()
            if (peek() == '}') return members.also { at++ }
            expect(',')
        }
    }

    private fun array(): List<Any?> {
        val items = mutableListOf<Any?>()
        at++
        skipSpace()
        if (peek() == ']') return items.also { at++ }
        while (true) {
            items += value()
            skipSpace()
            if (peek() == ']') return items.also { at++ }
            expect(',')
        }
    }

    private fun string(): String {
        expect('"')
        val out = StringBuilder()
        while (true) {
            val c = text[at++]
            when {
                c == '"' -> return out.toString()
                c == '\\' -> when (val escaped = text[at++]) {
                    '"', '\\', '/' -> out.append(escaped)
                    'b' -> out.append('\b')
                    'f' -> out.append('\u000C')
                    'n' -> out.append('\n')
                    'r' -> out.append('\r')
                    't' -> out.append('\t')
                    'u' -> out.append(text.substring(at, at + 4).toInt(16).toChar()).also { at += 4 }
                    else -> error("bad escape \\$escaped at $at")
                }
                c < ' ' -> error("control character in a string at $at")
                else -> out.append(c)
            }
        }
    }

    private fun number(): Double {
        val match = NUMBER.matchAt(text, at) ?: error("bad value at $at")
        at += match.value.length
        return match.value.toDouble()
    }

    private fun literal(word: String, value: Any?): Any? {
        check(text.startsWith(word, at)) { "bad literal at $at" }
        at += word.length
        return value
    }

    private fun peek(): Char = text.getOrElse(at) { error("unexpected end") }

    private fun expect(c: Char) {
        skipSpace()
        check(peek() == c) { "expected '$c' at $at, found '${peek()}'" }
        at++
    }

    private fun skipSpace() {
        while (at < text.length && text[at] in " \t\n\r") at++
    }

    private companion object {
        val NUMBER = Regex("""-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?""")
    }
}

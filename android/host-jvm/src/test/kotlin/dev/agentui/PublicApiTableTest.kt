package dev.agentui

import org.junit.jupiter.api.Test
import java.io.File
import java.lang.reflect.Modifier
import kotlin.test.assertEquals
import kotlin.test.assertTrue
import kotlin.test.fail

/**
 * The shared API table (api/public-api.tsv), Kotlin's half: every Kotlin cell names something
 * that exists in package `dev.agentui`, and every public type, case of an enum or sealed type,
 * and member of [AgentRuntime], [AgentConversation] and [AgentOptions] has a row. So an
 * operation added on one platform only fails here until the table says why the other lacks it.
 * The Swift tests check the Swift column the same way.
 *
 * Existence is checked by reflection on the compiled layer; completeness reads the checked-in
 * API dump (android/agentui/api/agentui.api), which the jvm stage compares with the classes.
 */
class PublicApiTableTest {
    private data class Row(val line: Int, val kind: String, val kotlin: String, val swift: String, val note: String)

    private val root = System.getProperty("agentui.repo.root")?.let(::File) ?: File(System.getProperty("user.dir"), "../..")

    private val rows: List<Row> = File(root, "api/public-api.tsv").canonicalFile.readLines()
        .mapIndexedNotNull { index, line ->
            if (line.isBlank() || line.startsWith("#")) return@mapIndexedNotNull null
            val cells = line.split('\t')
            if (cells.size !in 3..4) fail("api/public-api.tsv:${index + 1}: 3 or 4 tab-separated cells, got ${cells.size}: $line")
            Row(index + 1, cells[0], cells[1], cells[2], cells.getOrElse(3) { "" })
        }

    /**
     * The generated types the layer publishes under its own name (typealiases, which reflection
     * cannot see by name): naming them here makes the compiler check that each alias exists.
     */
    private val publishedAliases: Map<String, Class<*>> = mapOf(
        "NodeValue" to NodeValue::class.java,
        "PropEntry" to PropEntry::class.java,
        "Node" to Node::class.java,
        "Accessibility" to Accessibility::class.java,
        "CheckResult" to CheckResult::class.java,
        "Severity" to Severity::class.java,
        "ActionKind" to ActionKind::class.java,
        "Binding" to Binding::class.java,
        "MdBlock" to MdBlock::class.java,
        "MdInline" to MdInline::class.java,
        "MdListItem" to MdListItem::class.java,
        "MdCell" to MdCell::class.java,
        "MdAlignment" to MdAlignment::class.java,
        "PlainReason" to PlainReason::class.java,
        "MessageContent" to MessageContent::class.java,
        "ContentPart" to ContentPart::class.java,
        "TextPart" to TextPart::class.java,
        "MediaPart" to MediaPart::class.java,
        "PartSource" to PartSource::class.java,
        "ConversationException" to ConversationException::class.java,
        "AttachmentRefusal" to AttachmentRefusal::class.java,
        "CertificateRejection" to CertificateRejection::class.java,
        "SurfaceException" to SurfaceException::class.java,
        "StoreException" to StoreException::class.java,
        "RuntimeStartException" to RuntimeStartException::class.java,
    )

    /** Aliases of function and collection types: declared here, so the compiler checks them. */
    @Suppress("unused")
    private val publishedShapes: Map<String, Any?> = mapOf(
        "ClientTool" to (null as ClientTool?),
        "TypedClientTool" to (null as TypedClientTool?),
        "CatalogFunction" to (null as CatalogFunction?),
        "JsonObject" to (null as JsonObject?),
        "Props" to (null as Props?),
    )

    private fun type(name: String): Class<*>? = publishedAliases[name]
        ?: runCatching { Class.forName("dev.agentui." + name.replace('.', '$')) }.getOrNull()

    private fun typeExists(name: String): Boolean = type(name) != null || name in publishedShapes

    private fun caseExists(cell: String): Boolean {
        val owner = type(cell.substringBeforeLast('.')) ?: return false
        val case = cell.substringAfterLast('.')
        owner.enumConstants?.let { constants -> return constants.any { (it as Enum<*>).name == case } }
        return owner.declaredClasses.any { it.simpleName == case && owner.isAssignableFrom(it) }
    }

    /** A Kotlin name of a public method: a property for its getter, without the value-class mangling. */
    private fun kotlinName(jvmName: String): String {
        val name = jvmName.substringBefore('-')
        return when {
            name.startsWith("get") && name.length > 3 && name[3].isUpperCase() -> name[3].lowercase() + name.substring(4)
            else -> name
        }
    }

    private fun memberExists(cell: String): Boolean {
        val owner = type(cell.substringBeforeLast('.')) ?: return false
        val member = cell.substringAfterLast('.')
        val companion = owner.declaredClasses.firstOrNull { it.simpleName == "Companion" }
        return listOfNotNull(owner, companion).any { c ->
            c.methods.any { Modifier.isPublic(it.modifiers) && !it.isSynthetic && kotlinName(it.name) == member }
        }
    }

    @Test
    fun `every row is well formed and says why a platform lacks it`() {
        val problems = rows.mapNotNull { row ->
            when {
                row.kind !in setOf("type", "case", "member") -> "line ${row.line}: kind '${row.kind}'"
                row.kotlin.isEmpty() || row.swift.isEmpty() -> "line ${row.line}: an empty cell"
                row.kotlin == "-" && row.swift == "-" -> "line ${row.line}: absent on both platforms"
                (row.kotlin == "-" || row.swift == "-") && row.note.isBlank() -> "line ${row.line}: '-' without a note"
                else -> null
            }
        }
        assertEquals(emptyList(), problems)
        val repeated = rows.groupBy { Triple(it.kind, it.kotlin, it.swift) }.filterValues { it.size > 1 }.keys
        assertEquals(emptySet(), repeated, "rows given twice")
    }

    @Test
    fun `every Kotlin cell exists in the layer`() {
        val missing = rows.filter { it.kotlin != "-" }.filterNot { row ->
            when (row.kind) {
                "type" -> typeExists(row.kotlin)
                "case" -> caseExists(row.kotlin)
                else -> memberExists(row.kotlin)
            }
        }
        assertEquals(emptyList(), missing.map { "line ${it.line}: ${it.kind} ${it.kotlin}" })
    }

    /** The public classes of `dev.agentui` in the dump, by their Kotlin names, with their members. */
    private fun dumpedClasses(): Map<String, List<String>> {
        val classes = linkedMapOf<String, MutableList<String>>()
        var current: MutableList<String>? = null
        val header = Regex("""^public .*(?:class|interface) dev/agentui/([A-Za-z0-9_$]+) """)
        val method = Regex("""^\s+public .*fun ([^ (]+) \(""")
        for (line in File(root, "android/agentui/api/agentui.api").readLines()) {
            val name = header.find(line)?.groupValues?.get(1)
            when {
                name != null -> current = mutableListOf<String>().also { classes[name] = it }
                line == "}" -> current = null
                else -> method.find(line)?.groupValues?.get(1)?.let { current?.add(it) }
            }
        }
        return classes
    }

    /** What the layer's public surface requires a row for, as `kind kotlin-cell`. */
    private fun required(): Set<String> {
        val classes = dumpedClasses()
        val needed = sortedSetOf<String>()
        for (jvmName in classes.keys) {
            // File facades (top-level functions), and the compiler's helper classes: not types.
            if (jvmName.endsWith("Kt") || jvmName.substringAfterLast('$') in setOf("Companion", "DefaultImpls", "WhenMappings")) continue
            val cls = Class.forName("dev.agentui.$jvmName")
            val name = jvmName.replace('$', '.')
            val outer = cls.enclosingClass
            needed += if (outer != null && outer.isAssignableFrom(cls)) "case $name" else "type $name"
            cls.enumConstants?.forEach { needed += "case $name.${(it as Enum<*>).name}" }
        }
        val objectMethods = setOf("equals", "hashCode", "toString")
        fun members(owner: String, jvmClasses: List<String>, name: (String) -> String = ::kotlinName) {
            for (method in jvmClasses.flatMap { classes[it].orEmpty() }) {
                if ('$' in method || method.startsWith("<") || method in objectMethods || method == "build") continue
                needed += "member $owner.${name(method)}"
            }
        }
        members("AgentRuntime", listOf("AgentRuntime", "AgentRuntime\$Companion"))
        members("AgentConversation", listOf("AgentConversation", "AgentConversation\$Companion"))
        // An option is its property, and the builder's property and chained setter of that name.
        members("AgentOptions", listOf("AgentOptions", "AgentOptions\$Builder")) { method ->
            val name = method.substringBefore('-')
            if (name.startsWith("set") && name.length > 3 && name[3].isUpperCase()) name[3].lowercase() + name.substring(4) else kotlinName(name)
        }
        return needed
    }

    @Test
    fun `every public type, case and member of the layer has a row`() {
        val covered = rows.filter { it.kotlin != "-" }.map { "${it.kind} ${it.kotlin}" }.toSet()
        val missing = required() - covered
        assertTrue(missing.isEmpty(), "public API without a row in api/public-api.tsv:\n" + missing.joinToString("\n"))
    }
}

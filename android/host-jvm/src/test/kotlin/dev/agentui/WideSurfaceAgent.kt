package dev.agentui

import com.sun.net.httpserver.HttpServer
import java.net.InetAddress
import java.net.InetSocketAddress

/**
 * A minimal AG-UI agent on loopback (JDK HttpServer, no dependency) whose one run sends an
 * A2UI surface `wide` of [nodeCount] nodes: a Column root with `nodeCount - 1` Text children,
 * child `t<i>` bound to `/items/n<i>`. The scripted demo agent has no surface this large; the
 * benchmarks need one to measure diff delivery through the bindings.
 */
class WideSurfaceAgent(private val nodeCount: Int) : AutoCloseable {
    private val server = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0)

    init {
        server.createContext("/agent") { exchange ->
            val body = exchange.requestBody.readBytes().decodeToString()
            val threadId = field(body, "threadId") ?: "thread"
            val runId = field(body, "runId") ?: "run"
            val stream = events(threadId, runId).joinToString("") { "data: $it\n\n" }.encodeToByteArray()
            exchange.responseHeaders.add("Content-Type", "text/event-stream")
            exchange.sendResponseHeaders(200, stream.size.toLong())
            exchange.responseBody.use { it.write(stream) }
        }
        server.start()
    }

    val agentUrl: String get() = "http://127.0.0.1:${server.address.port}/agent"

    override fun close() = server.stop(0)

    private fun events(threadId: String, runId: String): List<String> {
        val children = (1 until nodeCount).joinToString(",") { "\"t$it\"" }
        val components = buildString {
            append("""{"id":"root","component":"Column","children":[$children]}""")
            for (i in 1 until nodeCount) append(""",{"id":"t$i","component":"Text","text":{"path":"/items/n$i"}}""")
        }
        val items = (1 until nodeCount).joinToString(",") { "\"n$it\":\"value $it\"" }
        val operations = """[
            {"version":"v0.9","createSurface":{"surfaceId":"wide","catalogId":"$CATALOG"}},
            {"version":"v0.9","updateComponents":{"surfaceId":"wide","components":[$components]}},
            {"version":"v0.9","updateDataModel":{"surfaceId":"wide","value":{"items":{$items}}}}
        ]""".replace("\n", "")
        return listOf(
            """{"type":"RUN_STARTED","threadId":"$threadId","runId":"$runId","protocolVersion":"1.1"}""",
            """{"type":"ACTIVITY_SNAPSHOT","messageId":"msg-$runId-1","activityType":"a2ui-surface","content":{"a2ui_operations":$operations}}""",
            """{"type":"RUN_FINISHED","threadId":"$threadId","runId":"$runId","outcome":{"type":"success"}}""",
        )
    }

    private fun field(json: String, name: String): String? =
        Regex("\"$name\"\\s*:\\s*\"([^\"]*)\"").find(json)?.groupValues?.get(1)

    companion object {
        const val CATALOG = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"
    }
}

package dev.agentui.compose

import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.width
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.CompositionLocalProvider
import androidx.compose.ui.layout.ContentScale
import androidx.compose.ui.Modifier
import androidx.compose.ui.semantics.SemanticsActions
import androidx.compose.ui.test.ExperimentalTestApi
import androidx.compose.ui.test.assert
import androidx.compose.ui.test.assertCountEquals
import androidx.compose.ui.test.assertIsNotEnabled
import androidx.compose.ui.test.captureToImage
import androidx.compose.ui.test.onNodeWithContentDescription
import androidx.compose.ui.test.onNodeWithTag
import androidx.compose.ui.test.onNodeWithText
import androidx.compose.ui.test.performClick
import androidx.compose.ui.test.performSemanticsAction
import androidx.compose.ui.test.performTextInput
import androidx.compose.ui.test.runDesktopComposeUiTest
import androidx.compose.ui.unit.dp
import dev.agentui.ActionResult
import dev.agentui.SurfaceDiff
import dev.agentui.Accessibility
import dev.agentui.core.a2ui.ActionKind
import dev.agentui.Binding
import dev.agentui.CheckResult
import dev.agentui.Severity
import dev.agentui.core.json.NodeValue
import dev.agentui.PropEntry
import dev.agentui.Node
import dev.agentui.core.SurfaceException
import dev.agentui.nodeValueOf
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Deferred
import org.junit.jupiter.api.Test
import kotlin.test.assertEquals
import kotlin.test.assertTrue

/**
 * Every basic-catalog component, a custom one and an unknown one, from resolved records shaped
 * as the core sends them (child in `children`, Modal/Tabs references as props), with a
 * recording [SurfaceActions] in place of a conversation.
 */
@OptIn(ExperimentalTestApi::class)
class GalleryRenderTest {
    private class RecordingActions : SurfaceActions {
        val writes = mutableListOf<Pair<String, NodeValue>>()
        val dispatched = mutableListOf<String>()
        var refuseWrites = false

        override fun setValue(path: String, value: NodeValue) {
            if (refuseWrites) throw SurfaceException.Rejected("TYPE_MISMATCH", "the value is not a boolean")
            writes += path to value
        }

        override fun dispatchAction(nodeId: String): Deferred<ActionResult> {
            dispatched += nodeId
            return CompletableDeferred(
                if (nodeId == "help") ActionResult.OpenUrl("https://example.com/help") else ActionResult.Handled,
            )
        }
    }

    private fun node(
        id: String,
        type: String,
        vararg props: Pair<String, Any?>,
        children: List<String> = emptyList(),
        bound: String? = null,
        action: ActionKind? = null,
        enabled: Boolean = true,
        validation: String? = null,
        label: String? = null,
    ) = Node(
        id = id,
        componentId = id.substringBefore('@'),
        componentType = type,
        props = props.map { (name, value) -> PropEntry(name, nodeValueOf(value)) },
        children = children,
        accessibility = label?.let { Accessibility(it, null) },
        checks = emptyList(),
        validationMessage = validation,
        enabled = enabled,
        action = action,
        bindings = listOfNotNull(bound?.let { Binding("value", it) }),
        weight = null,
        markdown = null,
    )

    private val gallery = listOf(
        node(
            "root", "Column",
            children = listOf(
                "title", "cat", "photo", "gear", "clip", "video", "audio", "row", "list", "card", "tabs", "divider",
                "modal", "help", "disabled", "email", "agree", "size", "volume", "when", "rating", "spark", "later",
            ),
        ),
        node("title", "Text", "text" to "Gallery", "variant" to "h1"),
        node("cat", "Image", "url" to null, "description" to "ignored", "variant" to "avatar", label = "A cat"),
        node("photo", "Image", "url" to "https://example.com/photo.jpg", "description" to "A photo", "fit" to "cover"),
        node("gear", "Icon", "name" to "settings"),
        node("clip", "Icon", "name" to "attachFile"),
        node("video", "Video", "url" to "https://example.com/clip.mp4"),
        node("audio", "AudioPlayer", "url" to "https://example.com/talk.mp3", "description" to "Podcast"),
        node("row", "Row", "justify" to "spaceBetween", children = listOf("left", "right")),
        node("left", "Text", "text" to "Left"),
        node("right", "Text", "text" to "Right"),
        node("list", "List", children = listOf("item@/items/0", "item@/items/1")),
        node("item@/items/0", "Text", "text" to "First item"),
        node("item@/items/1", "Text", "text" to "Second item"),
        node("card", "Card", children = listOf("card-text")),
        node("card-text", "Text", "text" to "Inside a card"),
        node(
            "tabs", "Tabs",
            "tabs" to listOf(mapOf("title" to "One", "child" to "tab-one"), mapOf("title" to "Two", "child" to "tab-two")),
            children = listOf("tab-one", "tab-two"),
        ),
        node("tab-one", "Text", "text" to "First tab body"),
        node("tab-two", "Text", "text" to "Second tab body"),
        node("divider", "Divider"),
        node("modal", "Modal", "trigger" to "open", "content" to "dialog-body", children = listOf("open", "dialog-body")),
        node("open", "Button", children = listOf("open-label"), action = ActionKind.Event("opened")),
        node("open-label", "Text", "text" to "Open dialog"),
        node("dialog-body", "Text", "text" to "Dialog body"),
        node(
            "help", "Button", "variant" to "borderless", children = listOf("help-label"),
            action = ActionKind.FunctionCall("openUrl"), label = "Opens the help page",
        ),
        node("help-label", "Text", "text" to "Help"),
        node("disabled", "Button", "variant" to "primary", children = listOf("disabled-label"), action = ActionKind.Event("submit"), enabled = false),
        node("disabled-label", "Text", "text" to "Submit"),
        node("email", "TextField", "label" to "Email", "value" to "", bound = "/form/email", validation = "Enter an email"),
        node("agree", "CheckBox", "label" to "I agree", "value" to false, bound = "/form/agree"),
        node(
            "size", "ChoicePicker", "label" to "Size", "variant" to "multipleSelection", "displayStyle" to "chips",
            "options" to listOf(mapOf("label" to "Small", "value" to "s"), mapOf("label" to "Medium", "value" to "m")),
            "value" to listOf("s"), bound = "/form/size",
        ),
        node("volume", "Slider", "label" to "Volume", "min" to 0, "max" to 10, "value" to 3, bound = "/form/volume"),
        node("when", "DateTimeInput", "label" to "When", "value" to "", "enableDate" to true, "enableTime" to true, bound = "/form/when"),
        node("rating", "Rating", "stars" to 4),
        node("spark", "Sparkline", children = listOf("spark-caption")),
        node("spark-caption", "Text", "text" to "Sparkline caption"),
        // "later" is listed by root but has not arrived: pending, renders nothing.
    )

    private fun state(nodes: List<Node>) = SurfaceDiff.Reset("root", nodes)

    private val withRating = ComponentRegistry.basic().with("Rating") { scope, modifier ->
        val stars = scope.number("stars")?.toInt() ?: 0
        Text("★".repeat(stars) + "☆".repeat(5 - stars), modifier)
    }

    @Test
    fun `accessibility live regions and hidden subtrees reach the semantics tree`() =
        runDesktopComposeUiTest(width = 400, height = 400) {
            fun withAccessibility(node: Node, live: String? = null, hidden: Boolean? = null) =
                node.copy(accessibility = Accessibility(label = null, description = null, live = live, hidden = hidden))
            val nodes = SurfaceNodes().apply {
                apply(
                    state(
                        listOf(
                            node("root", "Column", children = listOf("status", "alert", "quiet", "shown")),
                            withAccessibility(node("status", "Text", "text" to "3 new"), live = "polite"),
                            withAccessibility(node("alert", "Text", "text" to "Connection lost"), live = "assertive"),
                            withAccessibility(node("quiet", "Card", children = listOf("quiet-text")), hidden = true),
                            node("quiet-text", "Text", "text" to "Decoration"),
                            withAccessibility(node("shown", "Text", "text" to "Visible"), hidden = false),
                        ),
                    ),
                )
            }
            setContent { MaterialTheme { A2uiSurface("a11y", nodes, RecordingActions()) } }
            val liveRegion = androidx.compose.ui.semantics.SemanticsProperties.LiveRegion
            onNodeWithTag(a2uiNodeTag("status")).assert(
                androidx.compose.ui.test.SemanticsMatcher.expectValue(liveRegion, androidx.compose.ui.semantics.LiveRegionMode.Polite),
            )
            onNodeWithTag(a2uiNodeTag("alert")).assert(
                androidx.compose.ui.test.SemanticsMatcher.expectValue(liveRegion, androidx.compose.ui.semantics.LiveRegionMode.Assertive),
            )
            // Hidden: neither the node nor its children are in the tree; hidden = false changes nothing.
            onNodeWithText("Decoration").assertDoesNotExist()
            onNodeWithText("Visible").assertExists()
            onNodeWithTag(a2uiNodeTag("shown")).assert(androidx.compose.ui.test.SemanticsMatcher.keyNotDefined(liveRegion))
        }

    @Test
    fun `a v1 check result shows its message as an error only for error severity, and a video its poster`() =
        runDesktopComposeUiTest(width = 400, height = 600) {
            fun failing(message: String, severity: Severity, code: String? = null) =
                CheckResult(message = message, passed = false, code = code, severity = severity)
            val nodes = SurfaceNodes().apply {
                apply(
                    state(
                        listOf(
                            node("root", "Column", children = listOf("email", "work", "clip")),
                            node("email", "TextField", "label" to "Email", "value" to "nope", bound = "/email", validation = "Bad address")
                                .copy(checks = listOf(failing("Bad address", Severity.ERROR, "INVALID_EMAIL"))),
                            node("work", "TextField", "label" to "Work email", "value" to "a@gmail.com", bound = "/work", validation = "Consider a work address")
                                .copy(checks = listOf(failing("Consider a work address", Severity.WARNING))),
                            node("clip", "Video", "url" to "https://example.com/v.mp4", "posterUrl" to "https://example.com/p.png", label = "Intro"),
                        ),
                    ),
                )
            }
            val loaded = mutableListOf<String?>()
            val recordingLoader = object : A2uiImageLoader {
                @Composable
                override fun Image(url: String?, contentDescription: String?, contentScale: ContentScale, modifier: Modifier) {
                    loaded += url
                    Text("loaded $contentDescription", modifier)
                }
            }
            setContent {
                MaterialTheme {
                    CompositionLocalProvider(LocalA2uiImageLoader provides recordingLoader) {
                        A2uiSurface("checks", nodes, RecordingActions())
                    }
                }
            }
            onNodeWithText("Bad address").assertExists()
            onNodeWithText("Consider a work address").assertExists()
            // Only the error-severity field is in the error state.
            val error = androidx.compose.ui.test.SemanticsMatcher.keyIsDefined(androidx.compose.ui.semantics.SemanticsProperties.Error)
            onAllNodes(error).assertCountEquals(1)
            onAllNodes(error and androidx.compose.ui.test.hasText("nope")).assertCountEquals(1)
            onNodeWithText("loaded Intro poster").assertExists()
            assertEquals(listOf<String?>("https://example.com/p.png"), loaded)
        }

    @Test
    fun `markdown images the app turned on go to the host's image loader, alt text in the line`() =
        runDesktopComposeUiTest(width = 400, height = 600) {
            val loaded = mutableListOf<Pair<String?, String?>>()
            val recordingLoader = object : A2uiImageLoader {
                @Composable
                override fun Image(url: String?, contentDescription: String?, contentScale: ContentScale, modifier: Modifier) {
                    loaded += url to contentDescription
                    Text("loaded $contentDescription", modifier)
                }
            }
            // As the core sends it with images on: an Image inline only for an allowed address.
            val blocks = listOf(
                dev.agentui.core.markdown.MdBlock.Paragraph(
                    listOf(
                        dev.agentui.core.markdown.MdInline.Text("See "),
                        dev.agentui.core.markdown.MdInline.Image("https://example.com/cat.png", null, "a cat"),
                    ),
                ),
                dev.agentui.core.markdown.MdBlock.Paragraph(listOf(dev.agentui.core.markdown.MdInline.Text("no picture here"))),
            )
            setContent {
                MaterialTheme {
                    CompositionLocalProvider(LocalA2uiImageLoader provides recordingLoader) {
                        MarkdownContent(blocks, onOpenUrl = {})
                    }
                }
            }
            onNodeWithText("See a cat").assertExists()
            onNodeWithTag("markdown-image:https://example.com/cat.png").assertExists()
            assertEquals(listOf<Pair<String?, String?>>("https://example.com/cat.png" to "a cat"), loaded.distinct())
        }

    @Test
    fun `a v1 slider snaps to its steps and a text field shows its placeholder`() =
        runDesktopComposeUiTest(width = 400, height = 400) {
            val actions = RecordingActions()
            val nodes = SurfaceNodes().apply {
                apply(
                    state(
                        listOf(
                            node("root", "Column", children = listOf("level", "name")),
                            node("level", "Slider", "min" to 0, "max" to 10, "value" to 0, "steps" to 4, bound = "/level"),
                            node("name", "TextField", "label" to "Name", "value" to "", "placeholder" to "Ada Lovelace", bound = "/name"),
                        ),
                    ),
                )
            }
            setContent { MaterialTheme { A2uiSurface("v1", nodes, actions) } }
            // Four divisions of 0..10: 0, 2.5, 5, 7.5, 10; 3.1 lands on 2.5.
            onNode(hasSetProgress()).performSemanticsAction(SemanticsActions.SetProgress) { it(3.1f) }
            waitForIdle()
            assertEquals(NodeValue.Number(2.5), actions.writes.last { it.first == "/level" }.second)
            onNodeWithTag(a2uiNodeTag("name")).performClick()
            waitForIdle()
            onNodeWithText("Ada Lovelace").assertExists()
            assertEquals(7.5, snapToDivision(8.0, 0.0, 10.0, 4))
            assertEquals(8.0, snapToDivision(8.0, 0.0, 10.0, null))
        }

    @Test
    fun `every basic component renders, reads its props and writes back through its binding`() =
        runDesktopComposeUiTest(width = 900, height = 2600) {
            val actions = RecordingActions()
            val opened = mutableListOf<String>()
            val nodes = SurfaceNodes().apply { apply(state(gallery)) }
            val loaded = mutableListOf<Pair<String?, ContentScale>>()
            val recordingLoader = object : A2uiImageLoader {
                @Composable
                override fun Image(url: String?, contentDescription: String?, contentScale: ContentScale, modifier: Modifier) {
                    if (url != null) {
                        loaded += url to contentScale
                        Text("loaded $contentDescription", modifier)
                    } else {
                        PlaceholderImageLoader.Image(url, contentDescription, contentScale, modifier)
                    }
                }
            }
            setContent {
                MaterialTheme {
                    CompositionLocalProvider(LocalA2uiImageLoader provides recordingLoader) {
                        Column(Modifier.width(860.dp)) {
                            A2uiSurface("gallery", nodes, actions, components = withRating, onOpenUrl = { opened += it })
                        }
                    }
                }
            }

            onNodeWithText("Gallery").assertExists()
            onNodeWithContentDescription("A cat").assertExists()
            onNodeWithText("loaded A photo").assertExists()
            assertEquals("https://example.com/photo.jpg" to ContentScale.Crop, loaded.first(), "the app's loader got the URL and the fit")
            onNodeWithContentDescription("Opens the help page").assertExists()
            onNodeWithContentDescription("settings").assertExists()
            onNodeWithText("attachFile").assertExists()
            onNodeWithText("Left").assertExists()
            onNodeWithText("Second item").assertExists()
            onNodeWithText("Inside a card").assertExists()
            onNodeWithText("First tab body").assertExists()
            onNodeWithText("Second tab body").assertDoesNotExist()
            onNodeWithText("Enter an email").assertExists()
            onNodeWithText("Volume: 3").assertExists()
            onNodeWithText("★★★★☆").assertExists()
            onNodeWithText("Unsupported component: Sparkline").assertExists()
            onNodeWithText("Sparkline caption").assertExists()
            onNodeWithTag(a2uiNodeTag("disabled")).assertIsNotEnabled()
            val shot = Screenshots.save(onNodeWithTag("a2ui-surface:gallery").captureToImage(), "gallery")
            assertTrue(shot.distinctColours() > 50, "a rendered gallery, not a blank image")

            onNodeWithTag(a2uiNodeTag("email")).performTextInput("ada@example.com")
            onNodeWithText("I agree").performClick()
            onNodeWithText("Medium").performClick()
            onNodeWithTag(a2uiNodeTag("volume"), useUnmergedTree = true).assertExists()
            onNode(hasSetProgress()).performSemanticsAction(SemanticsActions.SetProgress) { it(7f) }
            onNodeWithTag(a2uiNodeTag("when")).performTextInput("tomorrow")
            waitForIdle()
            onNodeWithText("Use YYYY-MM-DDTHH:MM").assertExists()
            assertEquals(
                listOf(
                    "/form/email" to NodeValue.Text("ada@example.com"),
                    "/form/agree" to NodeValue.Bool(true),
                    "/form/size" to NodeValue.Array(listOf(NodeValue.Text("s"), NodeValue.Text("m"))),
                    "/form/volume" to NodeValue.Number(7.0),
                ),
                actions.writes,
                "each input wrote its catalog type to its bound path; the invalid date was not written",
            )

            onNodeWithText("Two").performClick()
            onNodeWithText("Second tab body").assertExists()
            onNodeWithText("First tab body").assertDoesNotExist()

            onNodeWithText("Open dialog").performClick()
            onNodeWithText("Dialog body").assertExists()
            onNodeWithText("Close").performClick()
            onNodeWithText("Dialog body").assertDoesNotExist()

            onNodeWithText("Help").performClick()
            onNodeWithText("Submit").performClick()
            onNodeWithContentDescription("Play Video").performClick()
            waitForIdle()
            assertEquals(listOf("open", "help"), actions.dispatched, "the disabled button dispatched nothing")
            assertEquals(listOf("https://example.com/help", "https://example.com/clip.mp4"), opened)

            // Progressive rendering: the pending child appears when its node arrives.
            onNodeWithText("Arrived late").assertDoesNotExist()
            runOnIdle { nodes.apply(SurfaceDiff.Patch(listOf(node("later", "Text", "text" to "Arrived late")), emptyList())) }
            onNodeWithText("Arrived late").assertExists()

            // A refused write is shown, not swallowed.
            actions.refuseWrites = true
            onNodeWithText("I agree").performClick()
            onNodeWithText("the value is not a boolean", substring = true).assertExists()
        }

    private fun hasSetProgress() = androidx.compose.ui.test.SemanticsMatcher.keyIsDefined(SemanticsActions.SetProgress)
}

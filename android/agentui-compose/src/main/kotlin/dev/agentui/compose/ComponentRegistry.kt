package dev.agentui.compose

import androidx.compose.runtime.Composable
import androidx.compose.runtime.Immutable
import androidx.compose.ui.Modifier

/**
 * Draws one resolved node. [modifier] carries the node's accessibility semantics and, inside a
 * Row or Column, its weight: apply it to the outermost widget.
 */
public typealias ComponentRenderer = @Composable (scope: NodeScope, modifier: Modifier) -> Unit

/**
 * Component renderers by catalog type name. [basic] maps the 18 components of the A2UI basic
 * catalog to Material 3; [with] replaces one of them or adds a type of a custom catalog.
 * Immutable: every [with] returns a new registry, so one can be shared between surfaces.
 */
@Immutable
public class ComponentRegistry private constructor(private val renderers: Map<String, ComponentRenderer>) {
    /** The renderer for [type], or null when none is registered. */
    public operator fun get(type: String): ComponentRenderer? = renderers[type]

    /** The component type names this registry renders. */
    public val types: Set<String> get() = renderers.keys

    /** A registry that renders [type] with [renderer] (replacing a registered one). */
    public fun with(type: String, renderer: ComponentRenderer): ComponentRegistry =
        ComponentRegistry(renderers + (type to renderer))

    /** A registry without [type]: its nodes render as unsupported. */
    public fun without(type: String): ComponentRegistry = ComponentRegistry(renderers - type)

    /** Wraps every renderer, e.g. to add a modifier or to observe compositions. */
    public fun wrapAll(wrap: (type: String, renderer: ComponentRenderer) -> ComponentRenderer): ComponentRegistry =
        ComponentRegistry(renderers.mapValues { (type, renderer) -> wrap(type, renderer) })

    public companion object {
        /** No components: every node renders as unsupported. */
        public val Empty: ComponentRegistry = ComponentRegistry(emptyMap())

        private val basicRegistry: ComponentRegistry by lazy {
            ComponentRegistry(
                mapOf<String, ComponentRenderer>(
                    "Text" to { scope, modifier -> TextComponent(scope, modifier) },
                    "Image" to { scope, modifier -> ImageComponent(scope, modifier) },
                    "Icon" to { scope, modifier -> IconComponent(scope, modifier) },
                    "Video" to { scope, modifier -> MediaComponent(scope, modifier, isVideo = true) },
                    "AudioPlayer" to { scope, modifier -> MediaComponent(scope, modifier, isVideo = false) },
                    "Row" to { scope, modifier -> RowComponent(scope, modifier) },
                    "Column" to { scope, modifier -> ColumnComponent(scope, modifier) },
                    "List" to { scope, modifier -> ListComponent(scope, modifier) },
                    "Card" to { scope, modifier -> CardComponent(scope, modifier) },
                    "Tabs" to { scope, modifier -> TabsComponent(scope, modifier) },
                    "Divider" to { scope, modifier -> DividerComponent(scope, modifier) },
                    "Modal" to { scope, modifier -> ModalComponent(scope, modifier) },
                    "Button" to { scope, modifier -> ButtonComponent(scope, modifier) },
                    "TextField" to { scope, modifier -> TextFieldComponent(scope, modifier) },
                    "CheckBox" to { scope, modifier -> CheckBoxComponent(scope, modifier) },
                    "ChoicePicker" to { scope, modifier -> ChoicePickerComponent(scope, modifier) },
                    "Slider" to { scope, modifier -> SliderComponent(scope, modifier) },
                    "DateTimeInput" to { scope, modifier -> DateTimeInputComponent(scope, modifier) },
                ),
            )
        }

        /** The A2UI basic catalog in Material 3. */
        public fun basic(): ComponentRegistry = basicRegistry
    }
}

package dev.agentui.compose

/** The basic catalog's renderers, by type; [ComponentRegistry.basic] maps names to these. */
internal object BasicComponents {
    val Text: ComponentRenderer = { scope, modifier -> TextComponent(scope, modifier) }
    val Image: ComponentRenderer = { scope, modifier -> ImageComponent(scope, modifier) }
    val Icon: ComponentRenderer = { scope, modifier -> IconComponent(scope, modifier) }
    val Video: ComponentRenderer = { scope, modifier -> MediaComponent(scope, modifier, isVideo = true) }
    val AudioPlayer: ComponentRenderer = { scope, modifier -> MediaComponent(scope, modifier, isVideo = false) }
    val Row: ComponentRenderer = { scope, modifier -> RowComponent(scope, modifier) }
    val Column: ComponentRenderer = { scope, modifier -> ColumnComponent(scope, modifier) }
    val List: ComponentRenderer = { scope, modifier -> ListComponent(scope, modifier) }
    val Card: ComponentRenderer = { scope, modifier -> CardComponent(scope, modifier) }
    val Tabs: ComponentRenderer = { scope, modifier -> TabsComponent(scope, modifier) }
    val Divider: ComponentRenderer = { scope, modifier -> DividerComponent(scope, modifier) }
    val Modal: ComponentRenderer = { scope, modifier -> ModalComponent(scope, modifier) }
    val Button: ComponentRenderer = { scope, modifier -> ButtonComponent(scope, modifier) }
    val TextField: ComponentRenderer = { scope, modifier -> TextFieldComponent(scope, modifier) }
    val CheckBox: ComponentRenderer = { scope, modifier -> CheckBoxComponent(scope, modifier) }
    val ChoicePicker: ComponentRenderer = { scope, modifier -> ChoicePickerComponent(scope, modifier) }
    val Slider: ComponentRenderer = { scope, modifier -> SliderComponent(scope, modifier) }
    val DateTimeInput: ComponentRenderer = { scope, modifier -> DateTimeInputComponent(scope, modifier) }
}

// Component renderers by catalog type name: the 18 basic-catalog components, replaceable, and
// extensible with the types of custom catalogs.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI

/// Draws one resolved node. Accessibility, weight and stretch are applied around the result.
public typealias ComponentRenderer = @MainActor (NodeContext) -> AnyView

/// Immutable: `with` and `without` return a new registry, so one can be shared by surfaces.
/// Pass the same registry on every render; nodes that did not change keep what they drew.
public struct ComponentRegistry {
    private let renderers: [String: ComponentRenderer]

    private init(renderers: [String: ComponentRenderer]) {
        self.renderers = renderers
    }

    /// No components: every node renders as unsupported.
    public static let empty = ComponentRegistry(renderers: [:])

    /// The A2UI basic catalog (v0.9) in SwiftUI, as docs/rendering.md maps it.
    public static let basic = ComponentRegistry(renderers: [
        "Text": { AnyView(TextComponent(context: $0)) },
        "Image": { AnyView(ImageComponent(context: $0)) },
        "Icon": { AnyView(IconComponent(context: $0)) },
        "Video": { AnyView(MediaComponent(context: $0, kind: .video)) },
        "AudioPlayer": { AnyView(MediaComponent(context: $0, kind: .audio)) },
        "Row": { AnyView(StackComponent(context: $0, axis: .horizontal)) },
        "Column": { AnyView(StackComponent(context: $0, axis: .vertical)) },
        "List": { AnyView(ListComponent(context: $0)) },
        "Card": { AnyView(CardComponent(context: $0)) },
        "Tabs": { AnyView(TabsComponent(context: $0)) },
        "Divider": { AnyView(DividerComponent(context: $0)) },
        "Modal": { AnyView(ModalComponent(context: $0)) },
        "Button": { AnyView(ButtonComponent(context: $0)) },
        "TextField": { AnyView(TextFieldComponent(context: $0)) },
        "CheckBox": { AnyView(CheckBoxComponent(context: $0)) },
        "ChoicePicker": { AnyView(ChoicePickerComponent(context: $0)) },
        "Slider": { AnyView(SliderComponent(context: $0)) },
        "DateTimeInput": { AnyView(DateTimeInputComponent(context: $0)) },
    ])

    /// The renderer for `type`, nil when none is registered (the node renders as unsupported).
    public func renderer(for type: String) -> ComponentRenderer? {
        renderers[type]
    }

    /// The type names this registry renders.
    public var types: Set<String> { Set(renderers.keys) }

    /// A registry that renders `type` with `render`, replacing a registered renderer: a basic
    /// component drawn the app's way, or a type of a custom catalog.
    public func with<Content: View>(
        _ type: String,
        @ViewBuilder render: @escaping @MainActor (NodeContext) -> Content
    ) -> ComponentRegistry {
        var copy = renderers
        copy[type] = { AnyView(render($0)) }
        return ComponentRegistry(renderers: copy)
    }

    /// A registry without `type`: its nodes render as unsupported.
    public func without(_ type: String) -> ComponentRegistry {
        var copy = renderers
        copy[type] = nil
        return ComponentRegistry(renderers: copy)
    }
}

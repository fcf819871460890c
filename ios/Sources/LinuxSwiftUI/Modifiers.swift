// The view modifiers, styles and accessibility the sources use: the stand-in's (View.swift
// says what it is). Each returns a `_ModifiedView` where SwiftUI returns `some View`.

public struct Edge {
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1)
        public static let leading = Set(rawValue: 2)
        public static let bottom = Set(rawValue: 4)
        public static let trailing = Set(rawValue: 8)
        public static let all: Set = [.top, .leading, .bottom, .trailing]
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
    }
}

public struct Animation: Sendable {
    public static let `default` = Animation()
    public static func easeOut(duration: Double) -> Animation { Animation() }
}

public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

extension View {
    public func padding(_ insets: Edge.Set = .all, _ length: CGFloat? = nil) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func padding(_ length: CGFloat) -> _ModifiedView<Self> { _ModifiedView(self) }

    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }

    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil,
        minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> _ModifiedView<Self> { _ModifiedView(self) }

    public func fixedSize() -> _ModifiedView<Self> { _ModifiedView(self) }
    public func fixedSize(horizontal: Bool, vertical: Bool) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func background<V: View>(_ background: V, alignment: Alignment = .center) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
    public func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
    public func clipped() -> _ModifiedView<Self> { _ModifiedView(self) }
    public func clipShape<S: Shape>(_ shape: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func contentShape<S: Shape>(_ shape: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func shadow(color: Color = .black, radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
    public func opacity(_ opacity: Double) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func aspectRatio(_ ratio: CGFloat? = nil, contentMode: ContentMode) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func font(_ font: Font?) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func fontWeight(_ weight: Font.Weight?) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func foregroundColor(_ color: Color?) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func tint(_ tint: Color?) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func disabled(_ disabled: Bool) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func id<ID: Hashable>(_ id: ID) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func tag<V: Hashable>(_ tag: V) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func lineLimit(_ number: Int?) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func multilineTextAlignment(_ alignment: TextAlignment) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func textSelection<S: TextSelectability>(_ selectability: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func gridColumnAlignment(_ guide: HorizontalAlignment) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func layoutValue<K: LayoutValueKey>(key: K.Type, value: K.Value) -> _ModifiedView<Self> { _ModifiedView(self) }

    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }

    // Events.
    public func onAppear(perform action: (() -> Void)? = nil) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func onDisappear(perform action: (() -> Void)? = nil) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> _ModifiedView<Self> { _ModifiedView(self) }
    /// iOS 14's form (deprecated in iOS 17, still the one that runs on iOS 15).
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
    public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void
    ) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
    public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func refreshable(action: @escaping @Sendable () async -> Void) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func focused(_ condition: FocusState<Bool>.Binding) -> _ModifiedView<Self> { _ModifiedView(self) }

    // Controls' styles.
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func textFieldStyle<S: TextFieldStyle>(_ style: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func pickerStyle<S: PickerStyle>(_ style: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func labelsHidden() -> _ModifiedView<Self> { _ModifiedView(self) }
    public func submitLabel(_ submitLabel: SubmitLabel) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func controlSize(_ controlSize: ControlSize) -> _ModifiedView<Self> { _ModifiedView(self) }

    // iOS-only text input.
    public func keyboardType(_ type: UIKeyboardType) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
    public func disableAutocorrection(_ disable: Bool?) -> _ModifiedView<Self> { _ModifiedView(self) }

    // Accessibility.
    public func accessibilityLabel(_ label: Text) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> _ModifiedView<Self> { _ModifiedView(self) }
    @_disfavoredOverload
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityHint(_ hint: Text) -> _ModifiedView<Self> { _ModifiedView(self) }
    @_disfavoredOverload
    public func accessibilityHint<S: StringProtocol>(_ hint: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityValue(_ value: Text) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityHidden(_ hidden: Bool) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilitySortPriority(_ sortPriority: Double) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityAction(_ actionKind: AccessibilityActionKind = .default, _ handler: @escaping () -> Void)
        -> _ModifiedView<Self> { _ModifiedView(self) }
    public func accessibilityAction(named name: Text, _ handler: @escaping () -> Void) -> _ModifiedView<Self> { _ModifiedView(self) }
    @_disfavoredOverload
    public func accessibilityAction<S: StringProtocol>(named name: S, _ handler: @escaping () -> Void) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
}

public enum TextAlignment: Hashable, Sendable { case leading, center, trailing }

public protocol TextSelectability {}
public struct EnabledTextSelectability: TextSelectability {}
extension TextSelectability where Self == EnabledTextSelectability {
    public static var enabled: EnabledTextSelectability { EnabledTextSelectability() }
}

public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let text = SubmitTriggers(rawValue: 1)
}

public struct SubmitLabel: Sendable {
    let id: Int
    public static let send = SubmitLabel(id: 0)
    public static let done = SubmitLabel(id: 1)
}

public enum ControlSize: Hashable, Sendable { case mini, small, regular, large }

public enum UIKeyboardType: Sendable { case `default`, decimalPad, URL }

public struct TextInputAutocapitalization: Sendable {
    let id: Int
    public static let never = TextInputAutocapitalization(id: 0)
    public static let sentences = TextInputAutocapitalization(id: 1)
}

public protocol PrimitiveButtonStyle {}
public struct BorderedButtonStyle: PrimitiveButtonStyle {}
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {}
public struct BorderlessButtonStyle: PrimitiveButtonStyle {}
public struct PlainButtonStyle: PrimitiveButtonStyle {}
extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    public static var bordered: BorderedButtonStyle { BorderedButtonStyle() }
}
extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    public static var borderedProminent: BorderedProminentButtonStyle { BorderedProminentButtonStyle() }
}
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle {
    public static var borderless: BorderlessButtonStyle { BorderlessButtonStyle() }
}
extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    public static var plain: PlainButtonStyle { PlainButtonStyle() }
}

public protocol TextFieldStyle {}
public struct RoundedBorderTextFieldStyle: TextFieldStyle {}
extension TextFieldStyle where Self == RoundedBorderTextFieldStyle {
    public static var roundedBorder: RoundedBorderTextFieldStyle { RoundedBorderTextFieldStyle() }
}

public protocol PickerStyle {}
public struct MenuPickerStyle: PickerStyle {}
public struct SegmentedPickerStyle: PickerStyle {}
extension PickerStyle where Self == MenuPickerStyle {
    public static var menu: MenuPickerStyle { MenuPickerStyle() }
}
extension PickerStyle where Self == SegmentedPickerStyle {
    public static var segmented: SegmentedPickerStyle { SegmentedPickerStyle() }
}

public struct AccessibilityTraits: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let isButton = AccessibilityTraits(rawValue: 1)
    public static let isHeader = AccessibilityTraits(rawValue: 2)
    public static let isImage = AccessibilityTraits(rawValue: 4)
    public static let isSelected = AccessibilityTraits(rawValue: 8)
    public static let isStaticText = AccessibilityTraits(rawValue: 16)
    public static let updatesFrequently = AccessibilityTraits(rawValue: 32)
}

public struct AccessibilityChildBehavior: Sendable {
    let id: Int
    public static let ignore = AccessibilityChildBehavior(id: 0)
    public static let contain = AccessibilityChildBehavior(id: 1)
    public static let combine = AccessibilityChildBehavior(id: 2)
}

public struct AccessibilityActionKind: Sendable {
    let id: Int
    public static let `default` = AccessibilityActionKind(id: 0)
    public static let escape = AccessibilityActionKind(id: 1)
}

// Text, images, colours, shapes and controls: the stand-in's (View.swift says what it is).

/// A literal a view localizes: string literals, with interpolation, become one.
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Equatable, Sendable {
    public init(_ value: String) {}
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: DefaultStringInterpolation) {}
}

public struct Text: _PrimitiveView, Equatable {
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) {}
    public init(verbatim content: String) {}
    public init(_ attributedContent: AttributedString) {}

    public func font(_ font: Font?) -> Text { self }
    public func fontWeight(_ weight: Font.Weight?) -> Text { self }
    public func foregroundColor(_ color: Color?) -> Text { self }
    public func bold() -> Text { self }
    public func italic() -> Text { self }

    /// How a line through or under text is drawn (`AttributedString.strikethroughStyle`).
    public struct LineStyle: Hashable, Sendable {
        public init() {}
        public static let single = LineStyle()
    }
}

public struct Font: Hashable, Sendable {
    let name: String
    public static let largeTitle = Font(name: "largeTitle")
    public static let title = Font(name: "title")
    public static let title2 = Font(name: "title2")
    public static let title3 = Font(name: "title3")
    public static let headline = Font(name: "headline")
    public static let subheadline = Font(name: "subheadline")
    public static let body = Font(name: "body")
    public static let callout = Font(name: "callout")
    public static let footnote = Font(name: "footnote")
    public static let caption = Font(name: "caption")
    public static let caption2 = Font(name: "caption2")
    public static func system(size: CGFloat, weight: Weight? = nil) -> Font { Font(name: "system") }
    public func monospaced() -> Font { self }
    public func monospacedDigit() -> Font { self }
    public func weight(_ weight: Weight) -> Font { self }

    public struct Weight: Hashable, Sendable {
        let value: Int
        public static let regular = Weight(value: 400)
        public static let medium = Weight(value: 500)
        public static let semibold = Weight(value: 600)
        public static let bold = Weight(value: 700)
    }
}

public protocol ShapeStyle {}

public struct Color: _PrimitiveView, ShapeStyle, Hashable, Sendable {
    let name: String
    public static let red = Color(name: "red")
    public static let orange = Color(name: "orange")
    public static let green = Color(name: "green")
    public static let blue = Color(name: "blue")
    public static let gray = Color(name: "gray")
    public static let black = Color(name: "black")
    public static let white = Color(name: "white")
    public static let clear = Color(name: "clear")
    public static let primary = Color(name: "primary")
    public static let secondary = Color(name: "secondary")
    public static let accentColor = Color(name: "accentColor")
    public func opacity(_ opacity: Double) -> Color { self }
}

extension ShapeStyle where Self == Color {
    public static var red: Color { Color.red }
    public static var secondary: Color { Color.secondary }
    public static var accentColor: Color { Color.accentColor }
}

public enum ColorScheme: Hashable, Sendable { case light, dark }

public enum ContentMode: Hashable, Sendable { case fit, fill }

public struct Image: _PrimitiveView, Equatable {
    public init(systemName: String) {}
    public init(_ name: String) {}
    public func resizable() -> Image { self }
}

public protocol Shape: View {}

extension Shape {
    public func fill<S: ShapeStyle>(_ content: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ModifiedView<Self> { _ModifiedView(self) }
}

public enum RoundedCornerStyle: Hashable, Sendable { case circular, continuous }

public struct RoundedRectangle: Shape, _PrimitiveView {
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .circular) {}
}

public struct Rectangle: Shape, _PrimitiveView {
    public init() {}
}

public struct Capsule: Shape, _PrimitiveView {
    public init() {}
}

public struct Circle: Shape, _PrimitiveView {
    public init() {}
}

public struct Label<Title: View, Icon: View>: _PrimitiveView {}

extension Label where Title == Text, Icon == Image {
    public init(_ title: LocalizedStringKey, systemImage name: String) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
}

public struct ProgressView<Label: View, CurrentValueLabel: View>: _PrimitiveView {}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    public init() {}
}

public enum AsyncImagePhase {
    case empty
    case success(Image)
    case failure(Error)
}

public struct AsyncImage<Content: View>: _PrimitiveView {
    public init(url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (AsyncImagePhase) -> Content) {}
}

// Controls.

public struct ButtonRole: Equatable, Sendable {
    let id: Int
    public static let destructive = ButtonRole(id: 0)
    public static let cancel = ButtonRole(id: 1)
}

public struct Button<Label: View>: _PrimitiveView {
    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {}
    public init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {}
}

extension Button where Label == Text {
    public init(_ titleKey: LocalizedStringKey, action: @escaping () -> Void) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {}
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping () -> Void) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping () -> Void) {}
}

public struct TextField<Label: View>: _PrimitiveView {}

extension TextField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>, axis: Axis) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>, axis: Axis) {}
}

public struct SecureField<Label: View>: _PrimitiveView {}

extension SecureField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
}

public struct TextEditor: _PrimitiveView {
    public init(text: Binding<String>) {}
}

public struct Toggle<Label: View>: _PrimitiveView {
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {}
}

extension Toggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: _PrimitiveView {}

extension Picker where Label == Text {
    public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
}

public struct Slider<Label: View, ValueLabel: View>: _PrimitiveView {}

extension Slider where Label == EmptyView, ValueLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(value: Binding<V>, in bounds: ClosedRange<V> = 0...1) where V.Stride: BinaryFloatingPoint {}
    public init<V: BinaryFloatingPoint>(value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1)
    where V.Stride: BinaryFloatingPoint {}
}

public struct DatePickerComponents: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let hourAndMinute = DatePickerComponents(rawValue: 1)
    public static let date = DatePickerComponents(rawValue: 2)
}

public struct DatePicker<Label: View>: _PrimitiveView {}

extension DatePicker where Label == Text {
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {}
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, in range: ClosedRange<Date>,
        displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {}
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, in range: PartialRangeFrom<Date>,
        displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {}
    public init<S: StringProtocol>(
        _ title: S, selection: Binding<Date>, in range: PartialRangeThrough<Date>,
        displayedComponents: DatePickerComponents = [.hourAndMinute, .date]
    ) {}
}

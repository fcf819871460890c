// Navigation, toolbars, the app and its scenes: the stand-in's (View.swift says what it is).

public struct NavigationStack<Data, Root: View>: _PrimitiveView {}

extension NavigationStack where Data == [AnyHashable] {
    public init(@ViewBuilder root: () -> Root) {}
}

extension NavigationStack {
    public init<Element: Hashable>(path: Binding<Data>, @ViewBuilder root: () -> Root) where Data == [Element] {}
}

public struct NavigationView<Content: View>: _PrimitiveView {
    public init(@ViewBuilder content: () -> Content) {}
}

public struct NavigationLink<Label: View, Destination: View>: _PrimitiveView {
    public init(isActive: Binding<Bool>, @ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {}
    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {}
}

public protocol NavigationViewStyle {}
public struct StackNavigationViewStyle: NavigationViewStyle {}
extension NavigationViewStyle where Self == StackNavigationViewStyle {
    public static var stack: StackNavigationViewStyle { StackNavigationViewStyle() }
}

public struct ToolbarItemPlacement: Sendable {
    let id: Int
    public static let automatic = ToolbarItemPlacement(id: 0)
    public static let primaryAction = ToolbarItemPlacement(id: 1)
}

public protocol ToolbarContent {}

@resultBuilder
public enum ToolbarContentBuilder {
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }
}

public struct ToolbarItemGroup<Content: View>: ToolbarContent {
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {}
}

extension View {
    public func navigationTitle(_ titleKey: LocalizedStringKey) -> _ModifiedView<Self> { _ModifiedView(self) }
    @_disfavoredOverload
    public func navigationTitle<S: StringProtocol>(_ title: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func navigationDestination<D: Hashable, C: View>(for data: D.Type, @ViewBuilder destination: @escaping (D) -> C)
        -> _ModifiedView<Self> { _ModifiedView(self) }
    public func navigationViewStyle<S: NavigationViewStyle>(_ style: S) -> _ModifiedView<Self> { _ModifiedView(self) }
    public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> _ModifiedView<Self> {
        _ModifiedView(self)
    }
}

@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
}

extension Never: Scene {}

@resultBuilder
public enum SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("a stand-in scene has no body") }
}

@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder var body: Body { get }
    init()
}

extension App {
    /// The entry point `@main` calls: the stand-in builds the app and its scene, and shows nothing.
    public static func main() {
        _ = Self().body
    }
}

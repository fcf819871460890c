// The AttributedString attributes the sources set: SwiftUI's strikethrough, and Foundation's
// `inlinePresentationIntent`, which Foundation on Linux does not have. The stand-in's (View.swift
// says what it is).

public struct InlinePresentationIntent: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let emphasized = InlinePresentationIntent(rawValue: 1)
    public static let stronglyEmphasized = InlinePresentationIntent(rawValue: 2)
    public static let code = InlinePresentationIntent(rawValue: 4)
    public static let strikethrough = InlinePresentationIntent(rawValue: 32)
}

public enum InlinePresentationIntentAttribute: AttributedStringKey {
    public typealias Value = InlinePresentationIntent
    public static let name = "NSInlinePresentationIntent"
}

public enum StrikethroughStyleAttribute: AttributedStringKey {
    public typealias Value = Text.LineStyle
    public static let name = "SwiftUI.StrikethroughStyle"
}

/// The attributes reachable as `attributedString.name` through the stand-in.
public struct StandInAttributes {
    public let inlinePresentationIntent: InlinePresentationIntentAttribute
    public let strikethroughStyle: StrikethroughStyleAttribute
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<StandInAttributes, T>) -> T {
        self[T.self]
    }
}

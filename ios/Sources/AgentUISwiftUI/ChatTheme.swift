// The conversation screen's look, from the SwiftUI environment: semantic colours (they follow
// light and dark mode and the app's accent colour) and Dynamic Type fonts, replaceable as a
// whole or in part with `.agentChatTheme(_:)`.

import SwiftUI

/// Colours, fonts and spacing of `AgentChatView`'s default rows and composer.
public struct AgentChatTheme {
    public var userBubble: Color = Color.accentColor.opacity(0.18)
    public var agentBubble: Color = Color.secondary.opacity(0.12)
    public var cardBackground: Color = PlatformColors.cardBackground
    public var cardBorder: Color = Color.secondary.opacity(0.35)
    public var error: Color = .red
    public var secondaryText: Color = .secondary
    public var bodyFont: Font = .body
    public var detailFont: Font = .caption
    public var bubbleCornerRadius: CGFloat = 12
    /// Space between two rows of the timeline.
    public var rowSpacing: CGFloat = 12

    public init() {}
}

private struct AgentChatThemeKey: EnvironmentKey {
    static var defaultValue: AgentChatTheme { AgentChatTheme() }
}

extension EnvironmentValues {
    /// The theme `AgentChatView` draws with (default: `AgentChatTheme()`).
    public var agentChatTheme: AgentChatTheme {
        get { self[AgentChatThemeKey.self] }
        set { self[AgentChatThemeKey.self] = newValue }
    }
}

extension View {
    /// Draws the `AgentChatView`s below this view with `theme`.
    public func agentChatTheme(_ theme: AgentChatTheme) -> some View {
        environment(\.agentChatTheme, theme)
    }
}

// A stand-in for Apple's Accessibility framework on Linux (as LinuxSwiftUI stands in for
// SwiftUI): the announcement the renderer and the chat post, declarations only.

import Foundation

public enum AccessibilityNotification {
    public struct Announcement {
        public init(_ announcement: String) {}
        public init(_ announcement: AttributedString) {}
        @MainActor public func post() {}
    }
}

public enum AccessibilitySpeechAnnouncementPriority: Hashable, Sendable { case high, `default`, low }

public enum AccessibilitySpeechAnnouncementPriorityAttribute: AttributedStringKey {
    public typealias Value = AccessibilitySpeechAnnouncementPriority
    public static let name = "AXSpeechAnnouncementPriority"
}

public struct AccessibilityAttributes {
    public let accessibilitySpeechAnnouncementPriority: AccessibilitySpeechAnnouncementPriorityAttribute
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<AccessibilityAttributes, T>) -> T {
        self[T.self]
    }
}

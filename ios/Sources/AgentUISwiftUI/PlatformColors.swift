// System colors that differ between UIKit and AppKit.
//
// NOT COMPILED HERE: SwiftUI is Apple-only; scripts/swift-linux.sh builds the rest of ios/.

import SwiftUI
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

enum PlatformColors {
    /// A Card's background: lifted from the page in light and dark mode.
    static var cardBackground: Color {
        #if canImport(UIKit)
        return Color(UIColor.secondarySystemBackground)
        #elseif canImport(AppKit)
        return Color(NSColor.controlBackgroundColor)
        #else
        return Color.gray.opacity(0.1)
        #endif
    }
}

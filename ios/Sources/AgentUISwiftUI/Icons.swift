// The basic catalog's icon names as SF Symbols (all 59 names of catalog.json). Every symbol
// named here exists in SF Symbols 3 (iOS 15, macOS 12).
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// An SF Symbol, optionally turned (Material's vertical "more" is the horizontal ellipsis
/// turned by 90 degrees).
public struct SFSymbol: Equatable {
    public let name: String
    public let rotation: Double

    public init(_ name: String, rotation: Double = 0) {
        self.name = name
        self.rotation = rotation
    }

    @MainActor @ViewBuilder
    public var image: some View {
        if rotation == 0 {
            Image(systemName: name)
        } else {
            Image(systemName: name).rotationEffect(.degrees(rotation))
        }
    }
}

public enum SFSymbols {
    /// Catalog icon name → SF Symbol.
    public static let catalog: [String: SFSymbol] = [
        "accountCircle": SFSymbol("person.crop.circle"),
        "add": SFSymbol("plus"),
        "arrowBack": SFSymbol("arrow.left"),
        "arrowForward": SFSymbol("arrow.right"),
        "attachFile": SFSymbol("paperclip"),
        "calendarToday": SFSymbol("calendar"),
        "call": SFSymbol("phone.fill"),
        "camera": SFSymbol("camera"),
        "check": SFSymbol("checkmark"),
        "close": SFSymbol("xmark"),
        "delete": SFSymbol("trash"),
        "download": SFSymbol("arrow.down.circle"),
        "edit": SFSymbol("pencil"),
        "event": SFSymbol("calendar.badge.clock"),
        "error": SFSymbol("exclamationmark.circle"),
        "fastForward": SFSymbol("forward.fill"),
        "favorite": SFSymbol("heart.fill"),
        "favoriteOff": SFSymbol("heart.slash"),
        "folder": SFSymbol("folder"),
        "help": SFSymbol("questionmark.circle"),
        "home": SFSymbol("house"),
        "info": SFSymbol("info.circle"),
        "locationOn": SFSymbol("mappin.and.ellipse"),
        "lock": SFSymbol("lock"),
        "lockOpen": SFSymbol("lock.open"),
        "mail": SFSymbol("envelope"),
        "menu": SFSymbol("line.3.horizontal"),
        "moreVert": SFSymbol("ellipsis", rotation: 90),
        "moreHoriz": SFSymbol("ellipsis"),
        "notificationsOff": SFSymbol("bell.slash"),
        "notifications": SFSymbol("bell"),
        "pause": SFSymbol("pause.fill"),
        "payment": SFSymbol("creditcard"),
        "person": SFSymbol("person"),
        "phone": SFSymbol("phone"),
        "photo": SFSymbol("photo"),
        "play": SFSymbol("play.fill"),
        "print": SFSymbol("printer"),
        "refresh": SFSymbol("arrow.clockwise"),
        "rewind": SFSymbol("backward.fill"),
        "search": SFSymbol("magnifyingglass"),
        "send": SFSymbol("paperplane"),
        "settings": SFSymbol("gearshape"),
        "share": SFSymbol("square.and.arrow.up"),
        "shoppingCart": SFSymbol("cart"),
        "skipNext": SFSymbol("forward.end.fill"),
        "skipPrevious": SFSymbol("backward.end.fill"),
        "star": SFSymbol("star.fill"),
        "starHalf": SFSymbol("star.leadinghalf.filled"),
        "starOff": SFSymbol("star.slash"),
        "stop": SFSymbol("stop.fill"),
        "upload": SFSymbol("arrow.up.circle"),
        "visibility": SFSymbol("eye"),
        "visibilityOff": SFSymbol("eye.slash"),
        "volumeDown": SFSymbol("speaker.wave.1.fill"),
        "volumeMute": SFSymbol("speaker.fill"),
        "volumeOff": SFSymbol("speaker.slash.fill"),
        "volumeUp": SFSymbol("speaker.wave.3.fill"),
        "warning": SFSymbol("exclamationmark.triangle"),
    ]

    /// The symbol for a catalog icon name, nil when there is none or the system lacks it
    /// (`Image(systemName:)` would draw nothing at all).
    public static func symbol(forCatalogName name: String) -> SFSymbol? {
        guard let symbol = catalog[name], systemHasSymbol(symbol.name) else { return nil }
        return symbol
    }

    static func systemHasSymbol(_ name: String) -> Bool {
        #if canImport(UIKit)
        return UIImage(systemName: name) != nil
        #elseif canImport(AppKit)
        return NSImage(systemSymbolName: name, accessibilityDescription: nil) != nil
        #else
        return true
        #endif
    }
}

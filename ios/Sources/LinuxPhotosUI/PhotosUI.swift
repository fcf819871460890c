// A stand-in for PhotosUI on Linux (as LinuxSwiftUI stands in for SwiftUI): the system photo
// picker the iOS sample attaches photos with, declarations only. `UTType` belongs to
// UniformTypeIdentifiers on Apple platforms; the sample reaches it only through a picked item.

import SwiftUI

public struct UTType: Hashable, Sendable {
    public var preferredMIMEType: String? { nil }
    public var preferredFilenameExtension: String? { nil }
}

public struct PHPickerFilter: Sendable {
    public static let images = PHPickerFilter()
}

public struct PhotosPickerItem: Equatable, Hashable {
    public var supportedContentTypes: [UTType] { [] }
    public func loadTransferable<T>(type: T.Type) async throws -> T? { nil }
}

public struct PhotosPicker<Label: View>: _PrimitiveView {
    public init(selection: Binding<PhotosPickerItem?>, matching filter: PHPickerFilter? = nil, @ViewBuilder label: () -> Label) {}
}

extension View {
    public func photosPicker(
        isPresented: Binding<Bool>, selection: Binding<PhotosPickerItem?>, matching filter: PHPickerFilter? = nil
    ) -> _ModifiedView<Self> { _ModifiedView(self) }
}

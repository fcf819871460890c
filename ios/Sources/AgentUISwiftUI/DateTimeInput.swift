// DateTimeInput: a DatePicker with the enabled components; writes ISO 8601 text. A value the
// core sent that is not a valid date is shown as such and never overwritten silently.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI
import AgentUIRendering

@MainActor
struct DateTimeInputComponent: View {
    let context: NodeContext
    @State private var value: BoundValue<String>

    init(context: NodeContext) {
        self.context = context
        let resolved = context.prop("value") ?? .null
        _value = State(initialValue: BoundValue(shown: resolved.displayText ?? "", resolved: resolved))
    }

    var body: some View {
        let resolved = context.prop("value") ?? .null
        let format = IsoFormat(
            enableDate: context.bool("enableDate") == true,
            enableTime: context.bool("enableTime") == true
        )
        let label = context.text("label") ?? ""
        VStack(alignment: .leading, spacing: 4) {
            if let current = format.parse(value.shown) {
                picker(format: format, label: label, selection: date(format: format, fallback: current))
            } else {
                // Empty (not chosen yet) or not a date: the picker needs a date, so choosing
                // starts from now; nothing is written before the user asks.
                HStack {
                    Text(label)
                    Spacer()
                    Button(format == .time ? "Choose time" : "Choose date") {
                        write(format.format(Date()))
                    }
                }
                if !value.shown.isEmpty {
                    Text("Not a valid date: \(value.shown)")
                        .font(.caption)
                        .foregroundColor(.secondary)
                }
            }
            // A v1.0 warning or info is shown as advice, as under the other inputs.
            ValidationMessage(check: context.checkShown)
        }
        .disabled(!context.enabled)
        .onChange(of: resolved) { new in
            value.resolved(new, shown: new.displayText ?? "")
        }
    }

    @ViewBuilder
    private func picker(format: IsoFormat, label: String, selection: Binding<Date>) -> some View {
        let lower = context.text("min").flatMap(format.parse)
        let upper = context.text("max").flatMap(format.parse)
        switch (lower, upper) {
        case let (lower?, upper?) where lower <= upper:
            DatePicker(label, selection: selection, in: lower...upper, displayedComponents: format.components)
        case let (lower?, nil):
            DatePicker(label, selection: selection, in: lower..., displayedComponents: format.components)
        case let (nil, upper?):
            DatePicker(label, selection: selection, in: ...upper, displayedComponents: format.components)
        default:
            DatePicker(label, selection: selection, displayedComponents: format.components)
        }
    }

    private func date(format: IsoFormat, fallback: Date) -> Binding<Date> {
        Binding(
            get: { format.parse(value.shown) ?? fallback },
            set: { write(format.format($0)) }
        )
    }

    private func write(_ text: String) {
        guard text != value.shown else { return }
        let wrote = context.write(text)
        value.edited(text, wrote: wrote ? text.nodeValue : nil)
    }
}

extension IsoFormat {
    /// The DatePicker parts this format shows.
    var components: DatePickerComponents {
        switch self {
        case .date: return [.date]
        case .time: return [.hourAndMinute]
        case .dateTime: return [.date, .hourAndMinute]
        }
    }
}

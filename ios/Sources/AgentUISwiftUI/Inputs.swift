// Button, TextField, CheckBox, ChoicePicker and Slider. Inputs write through the node's
// binding for `value` with setValue, in the JSON type the catalog expects; without a binding
// they keep their value locally. The first failing check shows under the input.
//
// Type-checked on Linux against the SwiftUI stand-in (Sources/LinuxSwiftUI); drawn on Apple platforms only.

import SwiftUI
import AgentUI
import AgentUIRendering

@MainActor
struct ButtonComponent: View {
    let context: NodeContext

    var body: some View {
        Button {
            context.activate()
        } label: {
            if let child = context.singleChild {
                context.child(child)
            } else {
                Text(context.actionName ?? "")
            }
        }
        .modifier(ButtonVariantStyle(variant: context.text("variant")))
        // The core refuses the action of a disabled node anyway.
        .disabled(!context.enabled)
    }
}

private struct ButtonVariantStyle: ViewModifier {
    let variant: String?

    func body(content: Content) -> some View {
        switch variant {
        case "primary": content.buttonStyle(.borderedProminent)
        case "borderless": content.buttonStyle(.borderless)
        default: content.buttonStyle(.bordered)
        }
    }
}

/// The first failing check, under an input: in red as an error, or plainly for a v1.0
/// warning or info, read by VoiceOver as `CheckShown.spoken` ("Error: …" for an error only).
/// The rule is CheckShown's (AgentUIRendering; the cases are tests/renderer-cases/cases.json).
@MainActor
struct ValidationMessage: View {
    let check: CheckShown?

    var body: some View {
        if let check, let message = check.message {
            Text(message)
                .font(.caption)
                .foregroundColor(check.isError ? .red : .secondary)
                .fixedSize(horizontal: false, vertical: true)
                .accessibilityLabel(Text(check.spoken ?? message))
        }
    }
}

/// The input's label, above it.
@MainActor
struct InputLabel: View {
    let text: String?

    var body: some View {
        if let text, !text.isEmpty {
            Text(text).font(.caption).foregroundColor(.secondary)
        }
    }
}

@MainActor
struct TextFieldComponent: View {
    let context: NodeContext
    @State private var value: BoundValue<String>

    init(context: NodeContext) {
        self.context = context
        let resolved = context.prop("value") ?? .null
        _value = State(initialValue: BoundValue(shown: resolved.displayText ?? "", resolved: resolved))
    }

    var body: some View {
        let resolved = context.prop("value") ?? .null
        let label = context.text("label")
        VStack(alignment: .leading, spacing: 4) {
            InputLabel(text: label)
            // A2UI v1.0 basic catalog: `placeholder` is the hint shown while the field is empty.
            field(variant: context.text("variant"), placeholder: context.text("placeholder") ?? label ?? "")
            ValidationMessage(check: context.checkShown)
        }
        .disabled(!context.enabled)
        .onChange(of: resolved) { new in
            value.resolved(new, shown: new.displayText ?? "")
        }
    }

    @ViewBuilder
    private func field(variant: String?, placeholder: String) -> some View {
        switch variant {
        case "obscured":
            SecureField(placeholder, text: text(number: false))
                .textFieldStyle(.roundedBorder)
        case "longText":
            TextEditor(text: text(number: false))
                .frame(minHeight: 88)
                .overlay(RoundedRectangle(cornerRadius: 6).stroke(Color.secondary.opacity(0.4)))
        case "number":
            TextField(placeholder, text: text(number: true))
                .textFieldStyle(.roundedBorder)
                .modifier(NumberKeyboard())
        default:
            TextField(placeholder, text: text(number: false))
                .textFieldStyle(.roundedBorder)
        }
    }

    /// Text for TextField; for the `number` variant what `numberInputValue` makes of it (a
    /// number, null when blank, else the text). Its echo is recognised by value: "1,5" stays
    /// when 1.5 comes back.
    private func text(number: Bool) -> Binding<String> {
        Binding(
            get: { value.shown },
            set: { edited in
                guard edited != value.shown else { return }
                let wire = number ? numberInputValue(edited) : NodeValue.text(value: edited)
                let wrote = context.write(wire)
                value.edited(edited, wrote: wrote ? wire : nil)
            }
        )
    }
}

private struct NumberKeyboard: ViewModifier {
    func body(content: Content) -> some View {
        #if os(iOS)
        content.keyboardType(.decimalPad)
        #else
        content
        #endif
    }
}

@MainActor
struct CheckBoxComponent: View {
    let context: NodeContext
    @State private var value: BoundValue<Bool>

    init(context: NodeContext) {
        self.context = context
        let resolved = context.prop("value") ?? .null
        _value = State(initialValue: BoundValue(shown: resolved.boolValue ?? false, resolved: resolved))
    }

    var body: some View {
        let resolved = context.prop("value") ?? .null
        VStack(alignment: .leading, spacing: 4) {
            // The whole row toggles: Toggle's label is part of the control.
            Toggle(isOn: isOn) {
                Text(context.text("label") ?? "")
            }
            .modifier(CheckboxStyle())
            ValidationMessage(check: context.checkShown)
        }
        .disabled(!context.enabled)
        .onChange(of: resolved) { new in
            value.resolved(new, shown: new.boolValue ?? false)
        }
    }

    private var isOn: Binding<Bool> {
        Binding(
            get: { value.shown },
            set: { edited in
                let wrote = context.write(edited)
                value.edited(edited, wrote: wrote ? edited.nodeValue : nil)
            }
        )
    }
}

/// A checkbox on macOS; iOS has only the switch.
struct CheckboxStyle: ViewModifier {
    func body(content: Content) -> some View {
        #if os(macOS)
        content.toggleStyle(.checkbox)
        #else
        content
        #endif
    }
}

@MainActor
struct ChoicePickerComponent: View {
    let context: NodeContext
    @State private var selection: BoundValue<[String]>
    @State private var filter = ""

    struct Option: Identifiable {
        let label: String
        let value: String
        var id: String { value }
    }

    init(context: NodeContext) {
        self.context = context
        let resolved = context.prop("value") ?? .null
        _selection = State(initialValue: BoundValue(shown: Self.selected(resolved), resolved: resolved))
    }

    var body: some View {
        let resolved = context.prop("value") ?? .null
        let options = context.list("options").compactMap { option -> Option? in
            guard let value = option[member: "value"]?.displayText else { return nil }
            return Option(label: option[member: "label"]?.displayText ?? value, value: value)
        }
        let multiple = context.text("variant") == "multipleSelection"
        let visible = filter.isEmpty ? options : options.filter { $0.label.localizedCaseInsensitiveContains(filter) }
        VStack(alignment: .leading, spacing: 6) {
            InputLabel(text: context.text("label"))
            if context.bool("filterable") == true {
                TextField("Filter", text: $filter)
                    .textFieldStyle(.roundedBorder)
            }
            if context.text("displayStyle") == "chips" {
                chips(visible, all: options, multiple: multiple)
            } else if multiple {
                ForEach(visible) { option in
                    Toggle(option.label, isOn: member(option.value, of: options))
                        .modifier(CheckboxStyle())
                }
            } else {
                Picker(context.text("label") ?? "", selection: single) {
                    if selection.shown.isEmpty {
                        Text("None").tag("")
                    }
                    ForEach(visible) { option in
                        Text(option.label).tag(option.value)
                    }
                }
                .pickerStyle(.menu)
                .labelsHidden()
            }
            ValidationMessage(check: context.checkShown)
        }
        .disabled(!context.enabled)
        .onChange(of: resolved) { new in
            selection.resolved(new, shown: Self.selected(new))
        }
    }

    private func chips(_ visible: [Option], all options: [Option], multiple: Bool) -> some View {
        ScrollView(.horizontal, showsIndicators: false) {
            HStack(spacing: 8) {
                ForEach(visible) { option in
                    let on = selection.shown.contains(option.value)
                    Button {
                        if multiple {
                            member(option.value, of: options).wrappedValue = !on
                        } else {
                            write(on ? [] : [option.value])
                        }
                    } label: {
                        Text(option.label)
                            .font(.callout)
                            .padding(.horizontal, 12)
                            .padding(.vertical, 6)
                            .background(Capsule().fill(on ? Color.accentColor.opacity(0.2) : Color.clear))
                            .overlay(Capsule().stroke(on ? Color.accentColor : Color.secondary.opacity(0.5)))
                    }
                    .buttonStyle(.plain)
                    .accessibilityAddTraits(on ? .isSelected : [])
                }
            }
        }
    }

    /// The mutually exclusive selection ("" for none).
    private var single: Binding<String> {
        Binding(
            get: { selection.shown.first ?? "" },
            set: { write($0.isEmpty ? [] : [$0]) }
        )
    }

    /// Whether `value` is selected; setting it keeps the options' order.
    private func member(_ value: String, of options: [Option]) -> Binding<Bool> {
        Binding(
            get: { selection.shown.contains(value) },
            set: { on in
                var chosen = Set(selection.shown)
                if on { chosen.insert(value) } else { chosen.remove(value) }
                let ordered = options.map(\.value).filter { chosen.contains($0) }
                // Keep selected values the options no longer list.
                write(ordered + selection.shown.filter { v in !options.contains { $0.value == v } && chosen.contains(v) })
            }
        )
    }

    /// An array of option values, as the catalog's `value` (a string list).
    private func write(_ values: [String]) {
        guard values != selection.shown else { return }
        let wrote = context.write(values)
        selection.edited(values, wrote: wrote ? values.nodeValue : nil)
    }

    static func selected(_ value: NodeValue) -> [String] {
        switch value {
        case .array(let items): return items.compactMap(\.displayText)
        case .text(let single): return single.isEmpty ? [] : [single]
        default: return []
        }
    }
}

@MainActor
struct SliderComponent: View {
    let context: NodeContext
    @State private var value: BoundValue<Double>

    init(context: NodeContext) {
        self.context = context
        let resolved = context.prop("value") ?? .null
        _value = State(initialValue: BoundValue(shown: resolved.numberValue ?? 0, resolved: resolved))
    }

    var body: some View {
        let resolved = context.prop("value") ?? .null
        let lower = context.number("min") ?? 0
        let upper = context.number("max") ?? lower
        // An empty range cannot be dragged: show it disabled rather than trap.
        let valid = upper > lower
        let range = lower...(valid ? upper : lower + 1)
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Text(context.text("label") ?? "")
                Spacer()
                Text(formatNumber(clamped(value.shown, to: range)))
                    .font(.body.monospacedDigit())
                    .foregroundColor(.secondary)
            }
            // A2UI v1.0 `steps`: the range in that many equal divisions; the thumb snaps to them.
            if let steps = context.number("steps"), steps >= 1, valid {
                Slider(value: number(in: range), in: range, step: (range.upperBound - range.lowerBound) / steps.rounded(.down))
            } else {
                Slider(value: number(in: range), in: range)
            }
            ValidationMessage(check: context.checkShown)
        }
        .disabled(!valid || !context.enabled)
        .onChange(of: resolved) { new in
            value.resolved(new, shown: new.numberValue ?? 0)
        }
    }

    private func number(in range: ClosedRange<Double>) -> Binding<Double> {
        Binding(
            get: { clamped(value.shown, to: range) },
            set: { edited in
                guard edited != value.shown else { return }
                let wrote = context.write(edited)
                value.edited(edited, wrote: wrote ? edited.nodeValue : nil)
            }
        )
    }

    private func clamped(_ number: Double, to range: ClosedRange<Double>) -> Double {
        min(max(number, range.lowerBound), range.upperBound)
    }
}

package dev.agentui.compose

import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.FlowRow
import androidx.compose.foundation.layout.ExperimentalLayoutApi
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.selection.selectable
import androidx.compose.foundation.selection.toggleable
import androidx.compose.foundation.text.KeyboardOptions
import androidx.compose.material3.Button
import androidx.compose.material3.Checkbox
import androidx.compose.material3.FilterChip
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedButton
import androidx.compose.material3.OutlinedTextField
import androidx.compose.material3.RadioButton
import androidx.compose.material3.Slider
import androidx.compose.material3.Text
import androidx.compose.material3.TextButton
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.semantics.Role
import androidx.compose.ui.text.input.KeyboardType
import androidx.compose.ui.text.input.PasswordVisualTransformation
import androidx.compose.ui.text.input.VisualTransformation
import androidx.compose.ui.unit.dp
import dev.agentui.core.json.NodeValue
import dev.agentui.nodeValueOf

@Composable
internal fun ButtonComponent(scope: NodeScope, modifier: Modifier) {
    val openModal = LocalModalOpener.current
    val onClick = {
        openModal?.invoke()
        scope.activate()
    }
    val content: @Composable () -> Unit = { scope.childId()?.let { scope.Child(it) } }
    when (scope.text("variant")) {
        "primary" -> Button(onClick, modifier, enabled = scope.enabled) { content() }
        "borderless" -> TextButton(onClick, modifier, enabled = scope.enabled) { content() }
        else -> OutlinedButton(onClick, modifier, enabled = scope.enabled) { content() }
    }
}

/** A check's message under an input: in the error colour for an error, plainly for advice. */
internal fun supportingCheck(shown: CheckShown?): (@Composable () -> Unit)? =
    shown?.message?.let { text ->
        { Text(text, color = if (shown.isError) MaterialTheme.colorScheme.error else MaterialTheme.colorScheme.onSurfaceVariant) }
    }

@Composable
internal fun TextFieldComponent(scope: NodeScope, modifier: Modifier) {
    val variant = scope.text("variant")
    val bound = rememberBoundValue(scope) { it.displayText().orEmpty() }
    val check = scope.checkShown
    OutlinedTextField(
        value = bound.value,
        onValueChange = { edited ->
            // The number variant writes a number once the text spells one; its echo ("1." comes
            // back as 1, shown "1") is recognised by value, so the typing stays.
            val wire = if (variant == "number") numberInputValue(edited) else NodeValue.Text(edited)
            bound.edited(edited, wire.takeIf { scope.write(it) })
        },
        modifier = modifier.fillMaxWidth(),
        label = scope.text("label")?.let { { Text(it) } },
        // A2UI v1.0 basic catalog: a hint shown while the field is empty.
        placeholder = scope.text("placeholder")?.let { { Text(it) } },
        isError = check?.isError == true,
        supportingText = supportingCheck(check),
        singleLine = variant != "longText",
        minLines = if (variant == "longText") 3 else 1,
        visualTransformation = if (variant == "obscured") PasswordVisualTransformation() else VisualTransformation.None,
        keyboardOptions = when (variant) {
            "number" -> KeyboardOptions(keyboardType = KeyboardType.Decimal)
            "obscured" -> KeyboardOptions(keyboardType = KeyboardType.Password)
            else -> KeyboardOptions.Default
        },
    )
}

@Composable
internal fun CheckBoxComponent(scope: NodeScope, modifier: Modifier) {
    val bound = rememberBoundValue(scope) { it.asBool() ?: false }
    Column(modifier) {
        Row(
            Modifier.toggleable(value = bound.value, role = Role.Checkbox, onValueChange = { checked ->
                bound.edited(checked, NodeValue.Bool(checked).takeIf { scope.write(it) })
            }),
            verticalAlignment = Alignment.CenterVertically,
        ) {
            // The row handles the toggle, so the whole line is one touch target.
            Checkbox(checked = bound.value, onCheckedChange = null)
            scope.text("label")?.let { Text(it, Modifier.padding(start = 8.dp)) }
        }
        supportingCheck(scope.checkShown)?.invoke()
    }
}

private data class ChoiceOption(val label: String, val value: String)

@OptIn(ExperimentalLayoutApi::class)
@Composable
internal fun ChoicePickerComponent(scope: NodeScope, modifier: Modifier) {
    val options = scope.list("options").mapNotNull { option ->
        val entries = (option as? NodeValue.Object)?.entries ?: return@mapNotNull null
        val value = entries.firstOrNull { it.name == "value" }?.value?.displayText() ?: return@mapNotNull null
        val label = entries.firstOrNull { it.name == "label" }?.value?.displayText() ?: value
        ChoiceOption(label, value)
    }
    val bound = rememberBoundValue(scope) { wire -> (wire as? NodeValue.Array)?.items.orEmpty().mapNotNull { it.displayText() } }
    val single = scope.text("variant") != "multipleSelection"
    var filter by remember(scope.node.id) { mutableStateOf("") }
    val shown = if (filter.isBlank()) options else options.filter { it.label.contains(filter.trim(), ignoreCase = true) }
    val choose = { option: ChoiceOption ->
        val next = when {
            single -> listOf(option.value)
            option.value in bound.value -> bound.value - option.value
            else -> bound.value + option.value
        }
        bound.edited(next, nodeValueOf(next).takeIf { scope.write(it) })
    }
    Column(modifier, verticalArrangement = Arrangement.spacedBy(4.dp)) {
        scope.text("label")?.let { Text(it, style = MaterialTheme.typography.titleSmall) }
        if (scope.bool("filterable") == true) {
            OutlinedTextField(filter, { filter = it }, Modifier.fillMaxWidth(), label = { Text("Filter") }, singleLine = true)
        }
        if (scope.text("displayStyle") == "chips") {
            FlowRow(horizontalArrangement = Arrangement.spacedBy(8.dp)) {
                for (option in shown) {
                    FilterChip(
                        selected = option.value in bound.value,
                        onClick = { choose(option) },
                        label = { Text(option.label) },
                    )
                }
            }
        } else {
            for (option in shown) {
                val selected = option.value in bound.value
                Row(
                    Modifier.fillMaxWidth().selectable(
                        selected = selected,
                        role = if (single) Role.RadioButton else Role.Checkbox,
                        onClick = { choose(option) },
                    ),
                    verticalAlignment = Alignment.CenterVertically,
                ) {
                    if (single) RadioButton(selected, onClick = null) else Checkbox(selected, onCheckedChange = null)
                    Text(option.label, Modifier.padding(start = 8.dp))
                }
            }
        }
        supportingCheck(scope.checkShown)?.invoke()
    }
}

@Composable
internal fun SliderComponent(scope: NodeScope, modifier: Modifier) {
    val min = scope.number("min") ?: 0.0
    val max = (scope.number("max") ?: 100.0).coerceAtLeast(min)
    val bound = rememberBoundValue(scope) { (it.asNumber() ?: min).coerceIn(min, max) }
    // A2UI v1.0 `steps`: the range in that many equal divisions; the handle snaps to them.
    val divisions = scope.number("steps")?.toInt()?.takeIf { it >= 1 }
    Column(modifier) {
        val label = scope.text("label")
        Text(listOfNotNull(label, formatNumber(bound.value)).joinToString(": "), style = MaterialTheme.typography.bodyMedium)
        Slider(
            value = bound.value.toFloat(),
            onValueChange = { moved ->
                val number = snapToDivision(moved.toDouble(), min, max, divisions)
                bound.edited(number, NodeValue.Number(number).takeIf { scope.write(it) })
            },
            valueRange = min.toFloat()..max.toFloat(),
            // Compose counts the stops between the ends: divisions - 1.
            steps = divisions?.let { it - 1 } ?: 0,
            enabled = max > min,
        )
        supportingCheck(scope.checkShown)?.invoke()
    }
}

/** [value] on the nearest of [divisions] equal divisions of [min]..[max]; as it is without them. */
internal fun snapToDivision(value: Double, min: Double, max: Double, divisions: Int?): Double {
    if (divisions == null || max <= min) return value
    val step = (max - min) / divisions
    return (min + Math.round((value - min) / step) * step).coerceIn(min, max)
}

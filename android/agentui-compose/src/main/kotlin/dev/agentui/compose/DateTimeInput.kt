package dev.agentui.compose

import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.filled.DateRange
import androidx.compose.material3.DatePicker
import androidx.compose.material3.DatePickerDialog
import androidx.compose.material3.ExperimentalMaterial3Api
import androidx.compose.material3.Icon
import androidx.compose.material3.IconButton
import androidx.compose.material3.OutlinedTextField
import androidx.compose.material3.SelectableDates
import androidx.compose.material3.Text
import androidx.compose.material3.TextButton
import androidx.compose.material3.rememberDatePickerState
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue
import androidx.compose.ui.Modifier
import dev.agentui.core.json.NodeValue
import java.util.TimeZone

/**
 * An ISO 8601 text field; with `enableDate` its button opens the Material date picker.
 * Text that is not a valid value of the enabled kind (or is outside `min`..`max`) stays local
 * with a hint and is not written.
 */
@OptIn(ExperimentalMaterial3Api::class)
@Composable
internal fun DateTimeInputComponent(scope: NodeScope, modifier: Modifier) {
    val format = IsoFormat.of(enableDate = scope.bool("enableDate") == true, enableTime = scope.bool("enableTime") == true)
    val zone = TimeZone.getDefault()
    // Shown on the device's wall clock (IsoDates.localText): an instant moves into the zone, a
    // date alone never does; what the core sent stays visible when it is not an ISO value.
    val min = scope.text("min")?.let { IsoDates.localText(it, format, zone) }
    val max = scope.text("max")?.let { IsoDates.localText(it, format, zone) }
    val bound = rememberBoundValue(scope) { wire ->
        wire.displayText()?.let { IsoDates.localText(it, format, zone) ?: it }.orEmpty()
    }
    val hint = when {
        bound.value.isEmpty() || format.accepts(bound.value) && inRange(bound.value, min, max) -> null
        !format.accepts(bound.value) -> "Use ${format.pattern}"
        else -> "Between ${min ?: "…"} and ${max ?: "…"}"
    }
    val check = hint?.let { CheckShown(it, isError = true) } ?: scope.checkShown
    var picking by remember(scope.node.id) { mutableStateOf(false) }
    OutlinedTextField(
        value = bound.value,
        onValueChange = { edited ->
            val valid = edited.isEmpty() || format.accepts(edited) && inRange(edited, min, max)
            bound.edited(edited, NodeValue.Text(edited).takeIf { valid && scope.write(it) })
        },
        modifier = modifier.fillMaxWidth(),
        label = scope.text("label")?.let { { Text(it) } },
        placeholder = { Text(format.pattern) },
        singleLine = true,
        isError = check?.isError == true,
        supportingText = supportingCheck(check),
        trailingIcon = if (format.hasDate) {
            { IconButton(onClick = { picking = true }) { Icon(Icons.Filled.DateRange, contentDescription = "Pick a date") } }
        } else {
            null
        },
    )
    if (picking) {
        val state = rememberDatePickerState(
            initialSelectedDateMillis = IsoDates.dateMillis(bound.value),
            selectableDates = object : SelectableDates {
                override fun isSelectableDate(utcTimeMillis: Long): Boolean =
                    inRange(IsoDates.date(utcTimeMillis), min?.take(10), max?.take(10))
            },
        )
        DatePickerDialog(
            onDismissRequest = { picking = false },
            confirmButton = {
                TextButton(onClick = {
                    picking = false
                    val millis = state.selectedDateMillis ?: return@TextButton
                    val picked = format.withDate(bound.value, IsoDates.date(millis))
                    bound.edited(picked, NodeValue.Text(picked).takeIf { scope.write(it) })
                }) { Text("OK") }
            },
            dismissButton = { TextButton(onClick = { picking = false }) { Text("Cancel") } },
        ) {
            DatePicker(state)
        }
    }
}

/** ISO strings of one kind compare in time order as text. */
private fun inRange(value: String, min: String?, max: String?): Boolean =
    (min == null || value >= min) && (max == null || value <= max)

package dev.agentui.compose

import androidx.compose.foundation.clickable
import androidx.compose.foundation.horizontalScroll
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.BoxWithConstraints
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.lazy.LazyColumn
import androidx.compose.foundation.lazy.LazyRow
import androidx.compose.foundation.lazy.items
import androidx.compose.foundation.rememberScrollState
import androidx.compose.material3.AlertDialog
import androidx.compose.material3.ElevatedCard
import androidx.compose.material3.HorizontalDivider
import androidx.compose.material3.Tab
import androidx.compose.material3.TabRow
import androidx.compose.material3.Text
import androidx.compose.material3.TextButton
import androidx.compose.material3.VerticalDivider
import androidx.compose.runtime.Composable
import androidx.compose.runtime.CompositionLocalProvider
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableIntStateOf
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.remember
import androidx.compose.runtime.setValue
import androidx.compose.runtime.staticCompositionLocalOf
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.unit.dp
import dev.agentui.core.json.NodeValue
import dev.agentui.textOrNull

private const val SPACING_DP = 8

private fun horizontalArrangement(justify: String?): Arrangement.Horizontal = when (justify) {
    "center" -> Arrangement.spacedBy(SPACING_DP.dp, Alignment.CenterHorizontally)
    "end" -> Arrangement.spacedBy(SPACING_DP.dp, Alignment.End)
    "spaceBetween" -> Arrangement.SpaceBetween
    "spaceAround" -> Arrangement.SpaceAround
    "spaceEvenly" -> Arrangement.SpaceEvenly
    else -> Arrangement.spacedBy(SPACING_DP.dp)
}

private fun verticalArrangement(justify: String?): Arrangement.Vertical = when (justify) {
    "center" -> Arrangement.spacedBy(SPACING_DP.dp, Alignment.CenterVertically)
    "end" -> Arrangement.spacedBy(SPACING_DP.dp, Alignment.Bottom)
    "spaceBetween" -> Arrangement.SpaceBetween
    "spaceAround" -> Arrangement.SpaceAround
    "spaceEvenly" -> Arrangement.SpaceEvenly
    else -> Arrangement.spacedBy(SPACING_DP.dp)
}

@Composable
internal fun RowComponent(scope: NodeScope, modifier: Modifier) {
    val justify = scope.text("justify")
    val align = when (scope.text("align")) {
        "center" -> Alignment.CenterVertically
        "end" -> Alignment.Bottom
        else -> Alignment.Top
    }
    // Distributing space needs the width to distribute: fill it unless packed at the start.
    val width = if (justify == null || justify == "start") modifier else modifier.fillMaxWidth()
    Row(width, horizontalArrangement = horizontalArrangement(justify), verticalAlignment = align) {
        val weight: (Float) -> Modifier = { Modifier.weight(it) }
        CompositionLocalProvider(LocalChildWeight provides weight) {
            for (child in scope.children) {
                scope.Child(child, if (justify == "stretch") Modifier.weight(1f) else Modifier)
            }
        }
    }
}

@Composable
internal fun ColumnComponent(scope: NodeScope, modifier: Modifier) {
    val justify = scope.text("justify")
    val alignName = scope.text("align")
    val align = when (alignName) {
        "center" -> Alignment.CenterHorizontally
        "end" -> Alignment.End
        else -> Alignment.Start
    }
    Column(modifier, verticalArrangement = verticalArrangement(justify), horizontalAlignment = align) {
        val weight: (Float) -> Modifier = { Modifier.weight(it) }
        val childModifier = if (alignName == "stretch") Modifier.fillMaxWidth() else Modifier
        CompositionLocalProvider(LocalChildWeight provides weight) {
            for (child in scope.children) scope.Child(child, childModifier)
        }
    }
}

/**
 * Lazy when it has a bounded height to scroll in; a plain column inside a parent that scrolls
 * already (a chat list), where a nested lazy list of unbounded height cannot be measured.
 */
@Composable
internal fun ListComponent(scope: NodeScope, modifier: Modifier) {
    val children = scope.children
    val horizontal = scope.text("direction") == "horizontal"
    BoxWithConstraints(modifier) {
        when {
            horizontal && constraints.hasBoundedWidth ->
                LazyRow(horizontalArrangement = Arrangement.spacedBy(SPACING_DP.dp)) {
                    items(children, key = { it }) { scope.Child(it) }
                }
            horizontal -> Row(Modifier.horizontalScroll(rememberScrollState()), Arrangement.spacedBy(SPACING_DP.dp)) {
                for (child in children) scope.Child(child)
            }
            constraints.hasBoundedHeight ->
                LazyColumn(verticalArrangement = Arrangement.spacedBy(SPACING_DP.dp)) {
                    items(children, key = { it }) { scope.Child(it) }
                }
            else -> Column(verticalArrangement = Arrangement.spacedBy(SPACING_DP.dp)) {
                for (child in children) scope.Child(child)
            }
        }
    }
}

@Composable
internal fun CardComponent(scope: NodeScope, modifier: Modifier) {
    ElevatedCard(modifier) {
        Box(Modifier.padding(16.dp)) {
            scope.childId()?.let { scope.Child(it) }
        }
    }
}

@Composable
internal fun TabsComponent(scope: NodeScope, modifier: Modifier) {
    val tabs = scope.list("tabs").mapNotNull { tab ->
        val entries = (tab as? NodeValue.Object)?.entries ?: return@mapNotNull null
        val title = entries.firstOrNull { it.name == "title" }?.value?.displayText().orEmpty()
        val child = entries.firstOrNull { it.name == "child" }?.value?.textOrNull ?: return@mapNotNull null
        title to child
    }
    if (tabs.isEmpty()) return
    var selected by remember(scope.node.id) { mutableIntStateOf(0) }
    val index = selected.coerceIn(0, tabs.lastIndex)
    Column(modifier) {
        TabRow(selectedTabIndex = index) {
            tabs.forEachIndexed { i, (title, _) ->
                Tab(selected = i == index, onClick = { selected = i }, text = { Text(title) })
            }
        }
        Box(Modifier.padding(top = SPACING_DP.dp)) { scope.Child(tabs[index].second) }
    }
}

@Composable
internal fun DividerComponent(scope: NodeScope, modifier: Modifier) {
    if (scope.text("axis") == "vertical") VerticalDivider(modifier.height(24.dp)) else HorizontalDivider(modifier)
}

/** Opens the enclosing Modal; set only around a Modal's trigger. */
internal val LocalModalOpener = staticCompositionLocalOf<(() -> Unit)?> { null }

@Composable
internal fun ModalComponent(scope: NodeScope, modifier: Modifier) {
    val trigger = scope.childId("trigger") ?: return
    val content = scope.childId("content")
    var open by remember(scope.node.id) { mutableStateOf(false) }
    val context = LocalSurfaceContext.current
    // A Button trigger opens the dialog from its own click (and still runs its action);
    // anything else is made clickable here.
    val triggerIsButton = context?.nodes?.state(trigger)?.value?.componentType == "Button"
    Box(if (triggerIsButton) modifier else modifier.clickable { open = true }) {
        CompositionLocalProvider(LocalModalOpener provides { open = true }) { scope.Child(trigger) }
    }
    if (open && content != null) {
        AlertDialog(
            onDismissRequest = { open = false },
            confirmButton = { TextButton(onClick = { open = false }) { Text("Close") } },
            text = { scope.Child(content) },
        )
    }
}

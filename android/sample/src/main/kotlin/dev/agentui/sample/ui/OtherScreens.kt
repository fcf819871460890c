package dev.agentui.sample.ui

import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.safeDrawingPadding
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import androidx.compose.material3.TextButton
import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.unit.dp

@Composable
fun SettingsScreen(onBack: () -> Unit) = SimpleScreen(Screen.Settings, "Agent URL, theme and logging would live here.", onBack)

@Composable
fun ProfileScreen(onBack: () -> Unit) = SimpleScreen(Screen.Profile, "Signed in as Ada.", onBack)

@Composable
private fun SimpleScreen(screen: Screen, body: String, onBack: () -> Unit) {
    Column(
        Modifier.fillMaxSize().safeDrawingPadding().padding(16.dp).testTag("screen:${screen.name.lowercase()}"),
        verticalArrangement = Arrangement.spacedBy(12.dp),
    ) {
        TextButton(onClick = onBack) { Text("← Back to chat") }
        Text(screen.title, style = MaterialTheme.typography.headlineMedium)
        Text(body)
    }
}

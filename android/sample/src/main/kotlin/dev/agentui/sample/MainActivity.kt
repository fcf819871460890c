package dev.agentui.sample

import android.os.Build
import android.os.Bundle
import androidx.activity.ComponentActivity
import androidx.activity.compose.BackHandler
import androidx.activity.compose.setContent
import androidx.activity.enableEdgeToEdge
import androidx.activity.viewModels
import androidx.compose.foundation.isSystemInDarkTheme
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.darkColorScheme
import androidx.compose.material3.dynamicDarkColorScheme
import androidx.compose.material3.dynamicLightColorScheme
import androidx.compose.material3.lightColorScheme
import androidx.compose.runtime.Composable
import androidx.compose.ui.platform.LocalContext
import dev.agentui.sample.ui.SampleApp
import dev.agentui.sample.ui.Screen

class MainActivity : ComponentActivity() {
    // Survives rotation; owns the runtime and the conversation (see SampleViewModel).
    private val viewModel: SampleViewModel by viewModels()

    override fun onCreate(savedInstanceState: Bundle?) {
        // Draw behind the system bars; the screens pad for insets themselves.
        enableEdgeToEdge()
        super.onCreate(savedInstanceState)
        setContent {
            SampleTheme {
                val navigator = viewModel.navigator
                // The system back gesture leaves Settings/Profile (the screens are platform-neutral
                // and know nothing of it); on the chat it finishes the activity as usual.
                BackHandler(enabled = navigator.current != Screen.Chat) { navigator.back() }
                SampleApp(viewModel.conversation, navigator, imageLoader = AndroidImageLoader)
            }
        }
    }
}

/** Material 3 with the wallpaper's colours on Android 12+, the baseline scheme before. */
@Composable
private fun SampleTheme(content: @Composable () -> Unit) {
    val dark = isSystemInDarkTheme()
    val colorScheme = when {
        Build.VERSION.SDK_INT >= Build.VERSION_CODES.S -> {
            val context = LocalContext.current
            if (dark) dynamicDarkColorScheme(context) else dynamicLightColorScheme(context)
        }
        dark -> darkColorScheme()
        else -> lightColorScheme()
    }
    MaterialTheme(colorScheme = colorScheme, content = content)
}

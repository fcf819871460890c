package dev.agentui.sample

import android.os.Build
import android.os.Bundle
import androidx.activity.ComponentActivity
import androidx.activity.compose.BackHandler
import androidx.activity.compose.setContent
import androidx.activity.enableEdgeToEdge
import androidx.activity.result.PickVisualMediaRequest
import androidx.activity.result.contract.ActivityResultContracts
import androidx.activity.viewModels
import androidx.compose.foundation.isSystemInDarkTheme
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.darkColorScheme
import androidx.compose.material3.dynamicDarkColorScheme
import androidx.compose.material3.dynamicLightColorScheme
import androidx.compose.material3.lightColorScheme
import androidx.compose.runtime.Composable
import androidx.compose.ui.platform.LocalContext
import kotlinx.coroutines.CompletableDeferred
import dev.agentui.Attachment
import dev.agentui.fromUri
import dev.agentui.sample.ui.PhotoPicker
import dev.agentui.sample.ui.SampleApp
import dev.agentui.sample.ui.Screen

class MainActivity : ComponentActivity() {
    // Survives rotation; owns the runtime and the conversation (see SampleViewModel).
    private val viewModel: SampleViewModel by viewModels()

    // The system photo picker (no storage permission needed): registered before the activity
    // starts, as the result API requires; one pick at a time.
    private var picking: CompletableDeferred<android.net.Uri?>? = null
    private val pickPhoto = registerForActivityResult(ActivityResultContracts.PickVisualMedia()) { uri ->
        picking?.complete(uri)
        picking = null
    }

    /** A photo the user picked, read through the ContentResolver off the main thread. */
    private val photoPicker = PhotoPicker {
        val result = CompletableDeferred<android.net.Uri?>().also { picking = it }
        pickPhoto.launch(PickVisualMediaRequest(ActivityResultContracts.PickVisualMedia.ImageOnly))
        result.await()?.let { uri -> Attachment.fromUri(applicationContext, uri) }
    }

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
                SampleApp(viewModel.conversation, navigator, imageLoader = AndroidImageLoader, photoPicker = photoPicker)
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

package dev.agentui.compose

import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.padding
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.runtime.ProvidableCompositionLocal
import androidx.compose.runtime.staticCompositionLocalOf
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.layout.ContentScale
import androidx.compose.ui.semantics.contentDescription
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.text.style.TextOverflow
import androidx.compose.ui.unit.dp

/**
 * Loads and draws the images of A2UI surfaces. The library does no networking for images;
 * provide one backed by the app's image stack (Coil, Glide...) through [LocalA2uiImageLoader].
 * [url] already passed the core's media URL policy; null means the agent sent none or the
 * policy blocked it.
 */
public interface A2uiImageLoader {
    @Composable
    public fun Image(url: String?, contentDescription: String?, contentScale: ContentScale, modifier: Modifier)
}

/** Draws a labelled placeholder box instead of loading anything: the default. */
public object PlaceholderImageLoader : A2uiImageLoader {
    @Composable
    override fun Image(url: String?, contentDescription: String?, contentScale: ContentScale, modifier: Modifier) {
        Box(
            modifier
                .background(MaterialTheme.colorScheme.surfaceVariant)
                .semantics { if (contentDescription != null) this.contentDescription = contentDescription },
            contentAlignment = Alignment.Center,
        ) {
            Text(
                contentDescription ?: "image",
                modifier = Modifier.padding(4.dp),
                style = MaterialTheme.typography.labelSmall,
                color = MaterialTheme.colorScheme.onSurfaceVariant,
                maxLines = 2,
                overflow = TextOverflow.Ellipsis,
            )
        }
    }
}

/** The image loader surfaces use; provide your own with `CompositionLocalProvider`. */
public val LocalA2uiImageLoader: ProvidableCompositionLocal<A2uiImageLoader> = staticCompositionLocalOf<A2uiImageLoader> { PlaceholderImageLoader }

package dev.agentui.sample

import android.graphics.Bitmap
import android.graphics.BitmapFactory
import android.util.Log
import android.util.LruCache
import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Box
import androidx.compose.material3.MaterialTheme
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.produceState
import androidx.compose.ui.Modifier
import androidx.compose.ui.graphics.ImageBitmap
import androidx.compose.ui.graphics.asImageBitmap
import androidx.compose.ui.layout.ContentScale
import androidx.compose.ui.platform.LocalContext
import androidx.compose.ui.semantics.contentDescription
import androidx.compose.ui.semantics.semantics
import dev.agentui.compose.A2uiImageLoader
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.withContext
import java.io.ByteArrayOutputStream
import java.io.IOException
import java.net.HttpURLConnection
import java.net.URI
import java.net.URL
import kotlin.coroutines.cancellation.CancellationException
import androidx.compose.foundation.Image as BitmapImage

/**
 * The sample's image loader for A2UI `Image` components, on the platform alone
 * (HttpURLConnection + BitmapFactory). A real app would plug in Coil or Glide instead.
 *
 * - https only; plain http only to 10.0.2.2, the development host seen from the emulator.
 *   Redirects are followed by hand (at most 3) and every hop is checked again.
 * - Bounded: 15 s connect and read timeouts, at most 10 MiB downloaded, decoded with
 *   inSampleSize so the larger side stays within the screen's (at most 2048 px).
 * - Loads on Dispatchers.IO; leaving the composition cancels the load between reads.
 * - Shows a placeholder (carrying the content description) while loading and on failure.
 * - Keeps decoded bitmaps in a small LRU cache (1/16 of the heap) so lists do not reload them.
 *
 * The core has already applied its media URL policy: a blocked URL arrives as null.
 */
object AndroidImageLoader : A2uiImageLoader {
    private const val TAG = "AndroidImageLoader"
    private const val MAX_BYTES = 10 * 1024 * 1024
    private const val TIMEOUT_MS = 15_000
    private const val MAX_REDIRECTS = 3
    private const val MAX_DECODED_SIDE = 2048
    private const val DEV_HOST = "10.0.2.2"

    private val cache = object : LruCache<String, Bitmap>(
        (Runtime.getRuntime().maxMemory() / 16).coerceAtMost(Int.MAX_VALUE.toLong()).toInt(),
    ) {
        override fun sizeOf(key: String, value: Bitmap): Int = value.allocationByteCount
    }

    @Composable
    override fun Image(url: String?, contentDescription: String?, contentScale: ContentScale, modifier: Modifier) {
        val metrics = LocalContext.current.resources.displayMetrics
        val maxSide = maxOf(metrics.widthPixels, metrics.heightPixels).coerceIn(1, MAX_DECODED_SIDE)
        val image by produceState<ImageBitmap?>(cached(url, maxSide), url, maxSide) {
            // A new URL must not keep showing the previous image while it loads.
            value = cached(url, maxSide)
            if (value != null || url == null) return@produceState
            value = try {
                load(url, maxSide).asImageBitmap()
            } catch (e: CancellationException) {
                throw e
            } catch (e: Exception) {
                // The host only: query strings may carry tokens.
                Log.w(TAG, "image from ${runCatching { URI(url).host }.getOrNull()} not shown: $e")
                null
            }
        }
        val bitmap = image
        if (bitmap != null) {
            BitmapImage(bitmap = bitmap, contentDescription = contentDescription, modifier = modifier, contentScale = contentScale)
        } else {
            Placeholder(contentDescription, modifier)
        }
    }

    @Composable
    private fun Placeholder(contentDescription: String?, modifier: Modifier) {
        Box(
            modifier
                .background(MaterialTheme.colorScheme.surfaceVariant)
                .semantics { if (contentDescription != null) this.contentDescription = contentDescription },
        )
    }

    private fun cacheKey(url: String, maxSide: Int) = "$maxSide|$url"

    private fun cached(url: String?, maxSide: Int): ImageBitmap? =
        url?.let { cache.get(cacheKey(it, maxSide)) }?.asImageBitmap()

    private suspend fun load(url: String, maxSide: Int): Bitmap = withContext(Dispatchers.IO) {
        val bytes = download(url)
        val bitmap = decode(bytes, maxSide) ?: throw IOException("not a decodable image")
        cache.put(cacheKey(url, maxSide), bitmap)
        bitmap
    }

    private suspend fun download(url: String): ByteArray {
        var current = URI(url).toURL()
        for (hop in 0..MAX_REDIRECTS) {
            checkAllowed(current)
            val connection = current.openConnection() as HttpURLConnection
            try {
                connection.instanceFollowRedirects = false
                connection.connectTimeout = TIMEOUT_MS
                connection.readTimeout = TIMEOUT_MS
                connection.setRequestProperty("Accept", "image/*")
                when (val status = connection.responseCode) {
                    in 200..299 -> return readBounded(connection)
                    301, 302, 303, 307, 308 -> {
                        val location = connection.getHeaderField("Location")
                            ?: throw IOException("HTTP $status without Location")
                        current = URL(current, location)
                    }
                    else -> throw IOException("HTTP $status")
                }
            } finally {
                connection.disconnect()
            }
        }
        throw IOException("more than $MAX_REDIRECTS redirects")
    }

    private fun checkAllowed(url: URL) {
        val scheme = url.protocol.lowercase()
        val allowed = scheme == "https" || (scheme == "http" && url.host == DEV_HOST)
        if (!allowed) throw IOException("blocked: $scheme://${url.host} (https only; http only to $DEV_HOST)")
    }

    private suspend fun readBounded(connection: HttpURLConnection): ByteArray {
        val declared = connection.contentLengthLong
        if (declared > MAX_BYTES) throw IOException("image of $declared bytes exceeds $MAX_BYTES")
        connection.inputStream.use { input ->
            val out = ByteArrayOutputStream(if (declared in 1..MAX_BYTES) declared.toInt() else 64 * 1024)
            val buffer = ByteArray(64 * 1024)
            while (true) {
                currentCoroutineContext().ensureActive()
                val read = input.read(buffer)
                if (read < 0) break
                if (out.size() + read > MAX_BYTES) throw IOException("image exceeds $MAX_BYTES bytes")
                out.write(buffer, 0, read)
            }
            return out.toByteArray()
        }
    }

    /** Decodes with the largest power-of-two subsampling that keeps the larger side within [maxSide]. */
    private fun decode(bytes: ByteArray, maxSide: Int): Bitmap? {
        val bounds = BitmapFactory.Options().apply { inJustDecodeBounds = true }
        BitmapFactory.decodeByteArray(bytes, 0, bytes.size, bounds)
        if (bounds.outWidth <= 0 || bounds.outHeight <= 0) return null
        var sampleSize = 1
        while (maxOf(bounds.outWidth, bounds.outHeight) / sampleSize > maxSide) sampleSize *= 2
        val options = BitmapFactory.Options().apply { inSampleSize = sampleSize }
        return BitmapFactory.decodeByteArray(bytes, 0, bytes.size, options)
    }
}

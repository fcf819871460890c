package dev.agentui

import android.content.Context
import android.net.Uri
import android.provider.OpenableColumns
import dev.agentui.core.AttachmentRefusal
import dev.agentui.core.ConversationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import java.io.ByteArrayOutputStream
import java.io.IOException

/**
 * An [Attachment] from a `content://` URI (what the photo picker, the files app or a share
 * sheet hands an app), read through the [android.content.ContentResolver] on
 * [Dispatchers.IO], never the main thread. The MIME type is the provider's
 * ([android.content.ContentResolver.getType]) unless [mimeType] is given; the name is the
 * provider's display name, else the URI's last segment.
 *
 * Reads at most [maxBytes] (the default budget's `maxAttachmentBytes`) and stops there: a
 * larger item, or one that cannot be opened, is refused with the same typed error the core
 * gives, `ConversationException.AttachmentRefused` naming it (`TOO_LARGE`, `UNREADABLE`), before
 * anything is sent.
 *
 * Android-only source set.
 */
public suspend fun Attachment.Companion.fromUri(
    context: Context,
    uri: Uri,
    mimeType: String? = null,
    maxBytes: Long = MemoryBudget().maxAttachmentBytes,
): Attachment = withContext(Dispatchers.IO) {
    val resolver = context.contentResolver
    var name = uri.lastPathSegment ?: "attachment"
    var declaredSize: Long? = null
    try {
        resolver.query(uri, arrayOf(OpenableColumns.DISPLAY_NAME, OpenableColumns.SIZE), null, null, null)?.use { row ->
            if (row.moveToFirst()) {
                row.getColumnIndex(OpenableColumns.DISPLAY_NAME).takeIf { it >= 0 && !row.isNull(it) }
                    ?.let { name = row.getString(it) }
                row.getColumnIndex(OpenableColumns.SIZE).takeIf { it >= 0 && !row.isNull(it) }
                    ?.let { declaredSize = row.getLong(it) }
            }
        }
    } catch (e: SecurityException) {
        throw ConversationException.AttachmentRefused(name, AttachmentRefusal.UNREADABLE, "no permission to read $uri: ${e.message}")
    }
    val tooLarge = { size: String ->
        ConversationException.AttachmentRefused(name, AttachmentRefusal.TOO_LARGE, "$size bytes, over the limit of $maxBytes")
    }
    declaredSize?.let { if (it > maxBytes) throw tooLarge(it.toString()) }
    val type = mimeType ?: resolver.getType(uri) ?: "application/octet-stream"
    val bytes = try {
        val input = resolver.openInputStream(uri)
            ?: throw ConversationException.AttachmentRefused(name, AttachmentRefusal.UNREADABLE, "the provider gave no stream for $uri")
        input.use {
            // The provider's size may be missing or wrong: the read itself stops past the limit.
            val out = ByteArrayOutputStream()
            val chunk = ByteArray(64 * 1024)
            while (true) {
                val n = it.read(chunk)
                if (n < 0) break
                out.write(chunk, 0, n)
                if (out.size() > maxBytes) throw tooLarge("more than $maxBytes")
            }
            out.toByteArray()
        }
    } catch (e: IOException) {
        throw ConversationException.AttachmentRefused(name, AttachmentRefusal.UNREADABLE, "reading $uri: ${e.message}")
    } catch (e: SecurityException) {
        throw ConversationException.AttachmentRefused(name, AttachmentRefusal.UNREADABLE, "no permission to read $uri: ${e.message}")
    }
    Attachment.bytes(name, type, bytes)
}

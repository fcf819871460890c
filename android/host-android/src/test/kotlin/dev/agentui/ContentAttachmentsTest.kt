package dev.agentui

import android.content.ContentProvider
import android.content.ContentValues
import android.content.Context
import android.database.Cursor
import android.database.MatrixCursor
import android.net.Uri
import android.os.ParcelFileDescriptor
import android.provider.OpenableColumns
import dev.agentui.core.AttachmentRefusal
import dev.agentui.core.ConversationException
import kotlinx.coroutines.runBlocking
import org.junit.Assert.assertArrayEquals
import org.junit.Assert.assertEquals
import org.junit.Assert.assertThrows
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows
import java.io.ByteArrayInputStream
import java.io.File
import java.io.FileNotFoundException

/**
 * `Attachment.fromUri` on Robolectric's Android 14: a `content://` item (what the photo picker
 * returns) read through the ContentResolver, with the provider's MIME type and display name;
 * an item over the limit or one that cannot be opened refused with the core's typed error.
 */
@RunWith(RobolectricTestRunner::class)
class ContentAttachmentsTest {
    private val context: Context get() = RuntimeEnvironment.getApplication()

    /** Serves `content://test.photos/<name>` from files in the app's cache folder. */
    class Photos : ContentProvider() {
        private fun file(uri: Uri) = File(context!!.cacheDir, uri.lastPathSegment!!)
        override fun onCreate() = true
        override fun getType(uri: Uri) = "image/jpeg"
        override fun query(uri: Uri, projection: Array<out String>?, s: String?, a: Array<out String>?, o: String?): Cursor {
            val f = file(uri)
            return MatrixCursor(arrayOf(OpenableColumns.DISPLAY_NAME, OpenableColumns.SIZE)).apply {
                addRow(arrayOf<Any?>("IMG_${uri.lastPathSegment}", if (f.exists()) f.length() else null))
            }
        }
        override fun openFile(uri: Uri, mode: String): ParcelFileDescriptor {
            val f = file(uri)
            if (!f.exists()) throw FileNotFoundException(uri.toString())
            return ParcelFileDescriptor.open(f, ParcelFileDescriptor.MODE_READ_ONLY)
        }
        override fun insert(uri: Uri, values: ContentValues?): Uri? = null
        override fun delete(uri: Uri, s: String?, a: Array<out String>?) = 0
        override fun update(uri: Uri, v: ContentValues?, s: String?, a: Array<out String>?) = 0
    }

    private fun photo(name: String, size: Int): ByteArray {
        Robolectric.setupContentProvider(Photos::class.java, "test.photos")
        val bytes = ByteArray(size) { (it * 31 % 256).toByte() }
        File(context.cacheDir, name).writeBytes(bytes)
        // The item's stream as the provider would open it (Robolectric's ParcelFileDescriptor
        // needs java.io opened to it on this JDK); type and name still come from the provider.
        Shadows.shadowOf(context.contentResolver)
            .registerInputStream(Uri.parse("content://test.photos/$name"), ByteArrayInputStream(bytes))
        return bytes
    }

    @Test
    fun `a picked photo is read with the provider's type and name`(): Unit = runBlocking {
        val bytes = photo("1.jpg", 300_001)
        val attachment = Attachment.fromUri(context, Uri.parse("content://test.photos/1.jpg"))
        assertEquals("IMG_1.jpg", attachment.name)
        assertEquals("image/jpeg", attachment.mimeType)
        val data = attachment.native.data as dev.agentui.core.runtime.AttachmentData.Bytes
        assertArrayEquals(bytes, data.bytes)
    }

    @Test
    fun `a photo over the limit or missing is refused, named`(): Unit = runBlocking {
        photo("2.jpg", 2_000)
        val tooLarge = assertThrows(ConversationException.AttachmentRefused::class.java) {
            runBlocking { Attachment.fromUri(context, Uri.parse("content://test.photos/2.jpg"), maxBytes = 1_999) }
        }
        assertEquals(AttachmentRefusal.TOO_LARGE, tooLarge.reason)
        assertEquals("IMG_2.jpg", tooLarge.name)
        val missing = assertThrows(ConversationException.AttachmentRefused::class.java) {
            runBlocking { Attachment.fromUri(context, Uri.parse("content://test.photos/gone.jpg")) }
        }
        assertEquals(AttachmentRefusal.UNREADABLE, missing.reason)
    }
}

package dev.agentui.compose

import androidx.compose.ui.graphics.ImageBitmap
import androidx.compose.ui.graphics.toAwtImage
import java.awt.image.BufferedImage
import java.io.File
import javax.imageio.ImageIO
import kotlin.test.assertTrue

/** Screenshots of rendered surfaces, saved under target/screenshots for people to look at. */
object Screenshots {
    private val dir = File(System.getProperty("agentui.screenshot.dir") ?: "target/screenshots")

    fun save(image: ImageBitmap, name: String): BufferedImage {
        val awt = image.toAwtImage()
        dir.mkdirs()
        val file = File(dir, "$name.png")
        ImageIO.write(awt, "png", file)
        assertTrue(file.length() > 0, "wrote $file")
        return awt
    }
}

/** How many pixels are within [tolerance] (per channel) of [argb]. */
fun BufferedImage.countNear(argb: Int, tolerance: Int = 24): Int {
    var count = 0
    for (y in 0 until height) for (x in 0 until width) {
        val p = getRGB(x, y)
        if (channelsNear(p, argb, tolerance)) count++
    }
    return count
}

private fun channelsNear(a: Int, b: Int, tolerance: Int): Boolean =
    (0..16 step 8).all { shift -> kotlin.math.abs((a shr shift and 0xFF) - (b shr shift and 0xFF)) <= tolerance }

/** Distinct colours, to tell a rendered surface from a blank image. */
fun BufferedImage.distinctColours(): Int {
    val seen = HashSet<Int>()
    for (y in 0 until height) for (x in 0 until width) seen += getRGB(x, y)
    return seen.size
}

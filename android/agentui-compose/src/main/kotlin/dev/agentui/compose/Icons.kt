package dev.agentui.compose

import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.automirrored.filled.ArrowBack
import androidx.compose.material.icons.automirrored.filled.ArrowForward
import androidx.compose.material.icons.automirrored.filled.Send
import androidx.compose.material.icons.filled.AccountCircle
import androidx.compose.material.icons.filled.Add
import androidx.compose.material.icons.filled.Call
import androidx.compose.material.icons.filled.Check
import androidx.compose.material.icons.filled.Close
import androidx.compose.material.icons.filled.DateRange
import androidx.compose.material.icons.filled.Delete
import androidx.compose.material.icons.filled.Edit
import androidx.compose.material.icons.filled.Email
import androidx.compose.material.icons.filled.Favorite
import androidx.compose.material.icons.filled.FavoriteBorder
import androidx.compose.material.icons.filled.Home
import androidx.compose.material.icons.filled.Info
import androidx.compose.material.icons.filled.LocationOn
import androidx.compose.material.icons.filled.Lock
import androidx.compose.material.icons.filled.Menu
import androidx.compose.material.icons.filled.MoreVert
import androidx.compose.material.icons.filled.Notifications
import androidx.compose.material.icons.filled.Person
import androidx.compose.material.icons.filled.Phone
import androidx.compose.material.icons.filled.PlayArrow
import androidx.compose.material.icons.filled.Refresh
import androidx.compose.material.icons.filled.Search
import androidx.compose.material.icons.filled.Settings
import androidx.compose.material.icons.filled.Share
import androidx.compose.material.icons.filled.ShoppingCart
import androidx.compose.material.icons.filled.Star
import androidx.compose.material.icons.filled.Warning
import androidx.compose.ui.graphics.vector.ImageVector

/**
 * Catalog icon names with a faithful match in the Material core icon set. Names without one
 * (attachFile, pause, visibility...) render as a labelled chip; register an Icon renderer
 * backed by material-icons-extended for the full set.
 */
private val coreIcons: Map<String, ImageVector> by lazy {
    mapOf(
        "accountCircle" to Icons.Filled.AccountCircle,
        "add" to Icons.Filled.Add,
        "arrowBack" to Icons.AutoMirrored.Filled.ArrowBack,
        "arrowForward" to Icons.AutoMirrored.Filled.ArrowForward,
        "calendarToday" to Icons.Filled.DateRange,
        "event" to Icons.Filled.DateRange,
        "call" to Icons.Filled.Call,
        "phone" to Icons.Filled.Phone,
        "check" to Icons.Filled.Check,
        "close" to Icons.Filled.Close,
        "delete" to Icons.Filled.Delete,
        "edit" to Icons.Filled.Edit,
        "mail" to Icons.Filled.Email,
        "favorite" to Icons.Filled.Favorite,
        "favoriteOff" to Icons.Filled.FavoriteBorder,
        "home" to Icons.Filled.Home,
        "info" to Icons.Filled.Info,
        "locationOn" to Icons.Filled.LocationOn,
        "lock" to Icons.Filled.Lock,
        "menu" to Icons.Filled.Menu,
        "moreVert" to Icons.Filled.MoreVert,
        "notifications" to Icons.Filled.Notifications,
        "person" to Icons.Filled.Person,
        "play" to Icons.Filled.PlayArrow,
        "refresh" to Icons.Filled.Refresh,
        "search" to Icons.Filled.Search,
        "send" to Icons.AutoMirrored.Filled.Send,
        "settings" to Icons.Filled.Settings,
        "share" to Icons.Filled.Share,
        "shoppingCart" to Icons.Filled.ShoppingCart,
        "star" to Icons.Filled.Star,
        "warning" to Icons.Filled.Warning,
    )
}

internal fun materialIcon(name: String): ImageVector? = coreIcons[name]

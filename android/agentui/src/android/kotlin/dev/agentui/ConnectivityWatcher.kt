package dev.agentui

import android.content.Context
import android.net.ConnectivityManager
import android.net.Network

/**
 * Tells the core whether the device has a network, from Android's ConnectivityManager: the
 * default network's callbacks report online when one is available and offline when it is lost
 * (a Wi-Fi to cellular switch is a new default network, so it stays online). While offline,
 * messages waiting for the agent and a dropped stream's resumption hold their attempts instead
 * of spending them in a tunnel; when a network comes back they go at once.
 *
 * Android-only source set. Needs `ACCESS_NETWORK_STATE`, which the library's manifest declares.
 * Callbacks arrive on ConnectivityManager's thread; [report] only sets a flag in the core.
 */
internal class ConnectivityWatcher(context: Context, private val report: (Boolean) -> Unit) : AutoCloseable {
    private val manager: ConnectivityManager? = context.getSystemService(ConnectivityManager::class.java)

    private val callback = object : ConnectivityManager.NetworkCallback() {
        override fun onAvailable(network: Network) = report(true)

        override fun onLost(network: Network) = report(false)
    }

    init {
        manager?.let {
            report(it.activeNetwork != null)
            it.registerDefaultNetworkCallback(callback)
        }
    }

    override fun close() {
        manager?.unregisterNetworkCallback(callback)
    }
}

package org.jwarp.engine.cm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MTU of the interface that holds a local address, remembered for a while: looking it up
 * enumerates the host's interfaces, which a client opening thousands of connections would do for
 * each one. Setup path only.
 */
public final class InterfaceMtu {

    /** How long a looked-up MTU is used before it is looked up again (an interface's MTU may change). */
    static final long FRESH_NANOS = 10_000_000_000L;
    static final int UNKNOWN = 1500;

    private record Entry(int mtu, long at) {
    }

    private static final ConcurrentHashMap<InetAddress, Entry> CACHE = new ConcurrentHashMap<>();

    private InterfaceMtu() {
    }

    /** The MTU of {@code local}'s interface, or {@link #UNKNOWN} if it has none that says. */
    public static int of(InetAddress local, long now) throws IOException {
        Entry e = CACHE.get(local);
        if (e != null && now - e.at() < FRESH_NANOS) {
            return e.mtu();
        }
        NetworkInterface ni = NetworkInterface.getByInetAddress(local);
        int mtu = ni != null && ni.getMTU() > 0 ? ni.getMTU() : UNKNOWN;
        if (CACHE.size() > 1024) {
            CACHE.clear();                     // many addresses come and go: start again rather than grow
        }
        CACHE.put(local, new Entry(mtu, now));
        return mtu;
    }
}

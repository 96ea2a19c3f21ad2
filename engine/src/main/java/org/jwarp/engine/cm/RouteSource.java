package org.jwarp.engine.cm;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The source address the kernel's route to a remote address uses, remembered for a while: telling
 * it takes a socket of its own (a connected UDP socket; no packet is sent), which a client opening
 * thousands of connections to one server would open and close for each. Setup path only.
 */
final class RouteSource {

    /** How long a looked-up source is used before the route is asked again (routes may change). */
    static final long FRESH_NANOS = 1_000_000_000L;

    private record Entry(InetAddress source, long at) {
    }

    private static final ConcurrentHashMap<InetAddress, Entry> CACHE = new ConcurrentHashMap<>();

    private RouteSource() {
    }

    /** The source address for {@code remote} (resolved), or null if the route cannot be told. */
    static InetAddress of(InetSocketAddress remote, long now) {
        Entry e = CACHE.get(remote.getAddress());
        if (e != null && now - e.at() < FRESH_NANOS) {
            return e.source();
        }
        InetAddress source;
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.connect(remote);
            source = ((InetSocketAddress) probe.getLocalAddress()).getAddress();
        } catch (java.io.IOException | RuntimeException ex) {
            return null;
        }
        if (CACHE.size() > 1024) {
            CACHE.clear();                     // many peers come and go: start again rather than grow
        }
        CACHE.put(remote.getAddress(), new Entry(source, now));
        return source;
    }
}

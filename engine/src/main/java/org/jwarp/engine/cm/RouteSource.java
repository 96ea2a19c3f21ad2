package org.jwarp.engine.cm;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The source address the kernel's route to a remote address uses, remembered for a while: telling
 * it takes a socket of its own (a connected UDP socket; no packet is sent), which a client opening
 * thousands of connections to one server would open and close for each. Where the socket's bound
 * address cannot be read during its connect ({@link org.jwarp.engine.io.BoundAddress}: the
 * descriptors are hidden), a connect binds to it first, so that its 4-tuple is known. Setup path only.
 */
final class RouteSource {

    /** How long a looked-up source is used before the route is asked again (routes may change). */
    static final long FRESH_NANOS = 1_000_000_000L;

    private record Entry(InetAddress source, long at) {
    }

    private static final ConcurrentHashMap<InetAddress, Entry> CACHE = new ConcurrentHashMap<>();

    private RouteSource() {
    }

    /**
     * Binds {@code ch} to the source address for {@code remote} and an ephemeral port, and returns
     * the local address; null if the route cannot be told (the connect then says why).
     */
    static InetSocketAddress bind(java.nio.channels.SocketChannel ch, InetSocketAddress remote)
            throws java.io.IOException {
        InetAddress source = remote.isUnresolved() ? null : of(remote, System.nanoTime());
        if (source == null) {
            return null;
        }
        ch.bind(new InetSocketAddress(source, 0));
        return (InetSocketAddress) ch.getLocalAddress();
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

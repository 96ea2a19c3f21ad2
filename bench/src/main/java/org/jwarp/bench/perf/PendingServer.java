package org.jwarp.bench.perf;

import java.net.InetSocketAddress;
import java.time.Duration;

/** A server listening for one client run (perftest's server: one client, then exit). */
public interface PendingServer extends AutoCloseable {

    /** Where it listens (with the actual port if port 0 was asked for). */
    InetSocketAddress localAddress();

    /**
     * Waits for a client, checks it runs the same test over the same transport, and connects.
     *
     * @throws PerfException with one line if no client came in time, or the client is not a jwarp
     *                       benchmark client, or it runs another test or transport (the client is
     *                       told why before the connection closes)
     */
    Session accept(Duration timeout);

    /** Stops listening (a session already accepted is not affected). */
    @Override
    void close();
}

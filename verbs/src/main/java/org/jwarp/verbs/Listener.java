package org.jwarp.verbs;

import java.net.InetSocketAddress;

/**
 * A listening endpoint ({@code rdma_listen}); connection requests arrive as
 * {@link CmEvent.ConnectRequest} on its handler. Thread-safe.
 */
public interface Listener extends AutoCloseable {

    /** {@return the bound address (with the actual port if port 0 was asked for)} */
    InetSocketAddress localAddress();

    /**
     * Stops listening. Requests not yet answered are rejected; established connections are not
     * affected. Idempotent.
     */
    @Override
    void close();
}

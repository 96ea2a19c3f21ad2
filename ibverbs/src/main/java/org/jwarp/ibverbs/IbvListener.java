package org.jwarp.ibverbs;

import java.net.InetSocketAddress;
import org.jwarp.verbs.Listener;

/** A listening {@code rdma_cm_id} ({@code rdma_bind_addr}, {@code rdma_listen}). */
final class IbvListener implements Listener {

    private final IbvConnectionManager cm;
    final CmConnection conn;
    private final InetSocketAddress bound;

    IbvListener(IbvConnectionManager cm, CmConnection conn) {
        this.cm = cm;
        this.conn = conn;
        this.bound = conn.localAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return bound;
    }

    @Override
    public void close() {
        cm.destroy(conn);
    }
}

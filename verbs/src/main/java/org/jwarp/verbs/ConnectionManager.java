package org.jwarp.verbs;

import java.net.InetSocketAddress;

/**
 * The connection manager ({@code rdma_cm} for iWARP): TCP connections with MPA connection setup
 * (RFC 5044 §7.1, RFC 6581), as configured in the {@link DeviceConfig}: MPA revision, CRC and
 * marker policy, peer-to-peer mode with its RTR, timeouts.
 *
 * <p>All methods are setup calls, may be called from any thread (including a
 * {@link CmEventHandler}) and do not block on the network: results arrive as {@link CmEvent}s.
 * The TCP port on the wire is the given port (no port mapper), as with siw.
 */
public interface ConnectionManager {

    /**
     * Listens on {@code address} (port 0: any free port).
     *
     * @param backlog how many connection setups may be pending at once (at least 1), as
     *                {@code rdma_listen}'s backlog: the TCP accept backlog, and the bound on clients
     *                between TCP accept and the end of MPA setup (silent or slow clients beyond it are
     *                refused at once, each with a line on standard error)
     * @param handler receives a {@link CmEvent.ConnectRequest} per incoming request, and the later
     *                events of connections accepted from it
     * @throws java.io.UncheckedIOException if the address cannot be bound
     * @param address the local address
     * @return the listener; closing it stops listening
     */
    Listener listen(InetSocketAddress address, int backlog, CmEventHandler handler);

    /**
     * Starts connecting {@code qp} (in {@link QpState#INIT}) to {@code remote} as MPA initiator.
     * Events: {@link CmEvent.Established}, {@link CmEvent.Rejected}, {@link CmEvent.Unreachable} or
     * {@link CmEvent.ConnectError}, then eventually {@link CmEvent.Disconnected}.
     *
     * @throws IllegalStateException    if {@code qp} is not in INIT or already bound to a connection
     * @throws IllegalArgumentException if the private data is too long for the device's MPA
     *                                  revision, or ORD/IRD exceed the device limits
     * @param remote  the responder's address
     * @param qp      the queue pair the connection runs on
     * @param params  the Request's private data, the setup timeout and the RDMA Read depths
     * @param handler receives this connection's events
     */
    void connect(InetSocketAddress remote, QueuePair qp, ConnectParams params, CmEventHandler handler);

    /**
     * Closes the connection of {@code qp} gracefully ({@code rdma_disconnect}): the queue pair goes
     * to ERROR, outstanding work is flushed, TCP is closed; {@link CmEvent.Disconnected} with
     * {@link CmEvent.Disconnected.Cause#LOCAL} follows. No effect if not connected.
     *
     * @param qp the connection's queue pair
     */
    void disconnect(QueuePair qp);
}

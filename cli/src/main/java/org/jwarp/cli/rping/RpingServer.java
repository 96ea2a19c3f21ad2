package org.jwarp.cli.rping;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WrOpcode;

/**
 * rping's server ({@code rping -s}): for each ping it waits for the client's source advertisement,
 * RDMA READs the source into its buffer, sends a go-ahead, waits for the sink advertisement, RDMA
 * WRITEs the data back and sends the second go-ahead, until the client disconnects. With
 * {@code -P} every connection runs on a thread of its own and the server keeps listening.
 *
 * <p>Beyond rping: with {@code -V} the server also checks what it read against rping's data
 * pattern ({@link RpingPattern}), so both directions of an interop run are validated.
 */
final class RpingServer {

    /** rping's {@code rdma_listen} backlog. */
    private static final int BACKLOG = 3;
    /**
     * A persistent server serves at most this many clients at once (a thread each). When all are
     * taken, the oldest client that has not sent its first ping gives way to the newcomer: a silent
     * client costs its attacker nothing and must not lock the next one out. Only when every client
     * is pinging is a newcomer rejected.
     */
    static final int MAX_CLIENTS = 64;
    private final java.util.concurrent.Semaphore serving = new java.util.concurrent.Semaphore(MAX_CLIENTS);
    /** Clients served that have not sent their first ping yet, oldest first. */
    private final java.util.concurrent.ConcurrentLinkedDeque<QueuePair> beforeFirstPing =
            new java.util.concurrent.ConcurrentLinkedDeque<>();

    private final RdmaDevice device;
    private final RpingOptions o;
    private final PrintWriter out;
    private final LinkedBlockingQueue<ConnectionRequest> requests = new LinkedBlockingQueue<>();
    private final Map<QueuePair, CmEventHandler> routes = new ConcurrentHashMap<>();
    private final AtomicInteger failures = new AtomicInteger();
    private volatile String lastFailure;

    private RpingServer(RdmaDevice device, RpingOptions o, PrintWriter out) {
        this.device = device;
        this.o = o;
        this.out = out;
    }

    /**
     * Runs the server: one connection, or with {@code -P} connections until the thread is
     * interrupted.
     *
     * @throws RpingException if the (single) connection failed, or on interruption
     */
    static void run(RdmaDevice device, RpingOptions o, PrintWriter out) throws RpingException {
        new RpingServer(device, o, out).serve();
    }

    private void serve() throws RpingException {
        CmEventHandler handler = e -> {
            if (e instanceof CmEvent.ConnectRequest r) {
                requests.add(r.request());
            } else if (e.qp() != null) {
                // (a listener's ConnectError about a client that never got a QP has none: nothing to route)
                CmEventHandler route = routes.get(e.qp());
                if (route != null) {
                    route.onCmEvent(e);
                }
            }
        };
        Listener listener;
        try {
            listener = device.connectionManager().listen(o.address(), BACKLOG, handler);
        } catch (java.io.UncheckedIOException | IllegalArgumentException e) {
            throw new RpingException("rdma_bind_addr: " + e.getMessage());
        }
        try (listener) {
            if (o.debug()) {
                out.printf("listening on %s%n", listener.localAddress());
                out.flush();
            }
            do {
                ConnectionRequest req;
                try {
                    req = requests.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RpingException("interrupted");
                }
                if (o.persistent()) {
                    if (!serving.tryAcquire() && !makeRoomFor(req)) {
                        // silent clients each hold a thread until their timeout: bound how many at once
                        req.reject(new byte[0]);
                        failures.incrementAndGet();
                        lastFailure = MAX_CLIENTS + " clients at once";
                        out.println("rping server: refused " + req.remoteAddress() + ": already serving " + MAX_CLIENTS
                                + " clients, the most at once");
                        out.flush();
                        continue;
                    }
                    Thread t = new Thread(() -> {
                        try {
                            serve(req);
                        } catch (RpingException e) {
                            failures.incrementAndGet();
                            lastFailure = e.getMessage();
                            out.println("rping server: connection from " + req.remoteAddress() + " failed: " + e.getMessage());
                            out.flush();
                        } catch (RuntimeException e) {
                            // a defect, not the client's doing: said in one line, and the server carries on
                            failures.incrementAndGet();
                            lastFailure = e.toString();
                            out.println("rping server: connection from " + req.remoteAddress() + " failed: " + e);
                            out.flush();
                        } finally {
                            serving.release();
                        }
                    }, "rping-server-" + req.remoteAddress());
                    t.setDaemon(true);
                    t.start();
                } else {
                    serve(req);
                }
            } while (o.persistent());
        }
    }

    /**
     * Every client is being served: drops the oldest that has not pinged yet, and waits for its
     * thread to give its place back. False if every client is pinging (or the place did not come).
     */
    private boolean makeRoomFor(ConnectionRequest req) throws RpingException {
        QueuePair idle = beforeFirstPing.pollFirst();
        if (idle == null) {
            return false;
        }
        out.println("rping server: dropped the oldest of " + MAX_CLIENTS + " clients that had not pinged yet, for "
                + req.remoteAddress());
        out.flush();
        device.connectionManager().disconnect(idle);
        try {
            return serving.tryAcquire(o.timeout().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpingException("interrupted");
        }
    }

    /** Why a client may leave at once when our Reply turned CRC on. */
    private static final String CRC_REFUSED_HINT = " (our MPA Reply turned CRC on, which the client had not asked for: a"
            + " peer that refuses CRC, such as siw with mpa_crc_strict, drops the connection; try --crc off)";

    private void serve(ConnectionRequest req) throws RpingException {
        int size = o.size();
        try (RpingConnection c = new RpingConnection(device, size, false, o.timeout(), o.debug() ? out : null, "server");
             Arena scratchArena = Arena.ofConfined()) {
            MemorySegment scratch = o.validate() ? scratchArena.allocate(size) : null;
            routes.put(c.qp, c.events);
            beforeFirstPing.addLast(c.qp);
            try {
                c.debug("connect request from %s (MPA rev %d, CRC %s, peer IRD %d ORD %d, RTR offered %s)",
                        req.remoteAddress(), req.mpaRevision(), req.peerRequestsCrc() ? "asked" : "not asked",
                        req.peerIrd(), req.peerOrd(), req.peerRtrKinds());
                c.postRecv();
                req.accept(c.qp, new AcceptParams(new byte[0], ConnectParams.DEFAULT_DEPTH, ConnectParams.DEFAULT_DEPTH));
                CmEvent.Established est;
                try {
                    est = c.expectEvent(CmEvent.Established.class, "connection from " + req.remoteAddress(),
                            req.remoteAddress());
                } catch (RpingException e) {
                    // a peer that refuses CRC may close before the connection is established (it
                    // had sent its RTR, or we were still waiting for it) or after
                    boolean crcOnOurSay = !req.peerRequestsCrc()
                            && device.config().crcPolicy() != DeviceConfig.CrcPolicy.OFF;
                    throw crcOnOurSay ? new RpingException(e.getMessage() + CRC_REFUSED_HINT) : e;
                }
                c.debug("connection established: %s", RpingClient.describe(est.attr()));
                loop(c, scratch, est.attr().crc() && !req.peerRequestsCrc());
            } finally {
                beforeFirstPing.remove(c.qp);
                routes.remove(c.qp);
            }
        }
    }

    /**
     * @param crcOnOurSay CRC is on because our Reply asked for it, not the client's Request
     */
    private void loop(RpingConnection c, MemorySegment scratch, boolean crcOnOurSay) throws RpingException {
        int size = o.size();
        long t0 = System.nanoTime();
        int ping = 0;
        int length = 0;
        try {
            for (;; ping++) {
                c.await(WcOpcode.RECV, "the client's source buffer (ping " + ping + ")");
                RpingInfo source = c.received();
                if (ping == 0) {
                    beforeFirstPing.remove(c.qp);      // a client that pings is never dropped for a newcomer
                }
                c.postRecv();
                c.debug("Received %s from peer", source);
                if (source.sizeUnsigned() > size) {
                    throw new RpingException("the client's buffer of " + source.sizeUnsigned()
                            + " bytes is larger than this server's -S " + size);
                }
                if (source.sizeUnsigned() < RpingPattern.MIN_SIZE) {
                    // rping refuses buffers too small for its ping text (RPING_MIN_BUFSIZE); so do we
                    throw new RpingException("the client's buffer of " + source.sizeUnsigned()
                            + " bytes is smaller than rping's minimum of " + RpingPattern.MIN_SIZE);
                }
                length = source.size();
                c.postRdma(WrOpcode.RDMA_READ, source, length);
                c.await(WcOpcode.RDMA_READ, "the RDMA READ of the client's source (ping " + ping + ")");
                if (o.verbose()) {
                    out.println("server ping data: " + RpingPattern.cString(c.rdmaMr.segment(), length));
                    out.flush();
                }
                if (scratch != null) {
                    long at = RpingPattern.firstMismatch(c.rdmaMr.segment(), length, ping, scratch);
                    if (at >= 0) {
                        throw new RpingException("data mismatch! (ping " + ping + ": byte " + at + " of " + length
                                + " read from the client differs from rping's pattern)");
                    }
                }
                c.postSend(RpingInfo.GO_AHEAD);
                c.await(WcOpcode.RECV, "the client's sink buffer (ping " + ping + ")");
                RpingInfo sink = c.received();
                c.postRecv();
                c.debug("Received %s from peer", sink);
                if (sink.sizeUnsigned() < length) {
                    throw new RpingException("the client's sink of " + sink.sizeUnsigned() + " bytes cannot take the "
                            + length + " bytes read");
                }
                c.postRdma(WrOpcode.RDMA_WRITE, sink, length);
                c.await(WcOpcode.RDMA_WRITE, "the RDMA WRITE to the client's sink (ping " + ping + ")");
                c.postSend(RpingInfo.GO_AHEAD);
            }
        } catch (RpingException.Disconnected d) {
            out.println(d.getMessage());
            out.flush();
            if (ping == 0) {
                device.connectionManager().disconnect(c.qp);
                throw new RpingException("the client disconnected before its first ping"
                        + (crcOnOurSay ? CRC_REFUSED_HINT : ""));
            }
        }
        RpingClient.rate(c, "server", ping, length, System.nanoTime() - t0);
        device.connectionManager().disconnect(c.qp);
    }

    int failures() {
        return failures.get();
    }

    String lastFailure() {
        return lastFailure;
    }
}

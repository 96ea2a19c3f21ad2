package org.jwarp.bench.transport.jwarp;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * Connection setup through the connection manager, one way for every benchmark that runs over
 * jwarp: the perf tests' sessions ({@link JwarpSession}, {@link PerftestPeer}) and the
 * experiments' side processes. It opens a device knowing which engine threads are its own,
 * listens, waits for the next event in every threading mode, connects or accepts a QP with private
 * data (the MPA Request and Reply carry the peers' region keys, RFC 5044 §7.1: {@link RemoteBuffer},
 * {@link Rendezvous}) and disconnects. A failure the user can act on is one line
 * ({@link PerfException}).
 */
public final class CmSetup {

    private static final Object OPENING = new Object();
    /** The ORD and IRD the experiments' sides ask for: READs in flight each way. */
    private static final int SIDE_DEPTH = 16;

    /** A device and the engine threads it started (its own, for CPU accounting). */
    public record OpenDevice(RdmaDevice device, List<Thread> engineThreads) {
    }

    /** What a failed connect says: the one line for the event that came instead of Established. */
    @FunctionalInterface
    public interface Refusal {
        PerfException of(CmEvent event, String where);
    }

    private CmSetup() {
    }

    /** Opens a device with {@code config}; the engine threads named jwarp-engine-* that appear are its own. */
    public static OpenDevice open(DeviceConfig config) {
        synchronized (OPENING) {
            Set<Thread> before = CpuMeter.engineThreadsNow();
            RdmaDevice device = RdmaDevice.open(config);
            Set<Thread> after = CpuMeter.engineThreadsNow();
            after.removeAll(before);
            return new OpenDevice(device, List.copyOf(after));
        }
    }

    /** {@code host:port}, as the lines name a peer. */
    public static String where(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /**
     * Listens on {@code bind} for up to {@code backlog} connections setting up at once.
     *
     * @throws PerfException with one line if the port is in use or cannot be bound
     */
    public static Listener listen(RdmaDevice device, InetSocketAddress bind, int backlog, CmEventQueue events) {
        try {
            return device.connectionManager().listen(bind, backlog, events);
        } catch (UncheckedIOException e) {
            Throwable c = e;
            while (c != null && !(c instanceof BindException)) {
                c = c.getCause();
            }
            if (c != null && String.valueOf(c.getMessage()).contains("in use")) {
                throw new PerfException("port " + bind.getPort() + " is in use: stop what uses it, or give another"
                        + " port with -p");
            }
            throw new PerfException("cannot listen on " + where(bind) + ": " + (c != null ? c.getMessage()
                    : e.getMessage()));
        }
    }

    /**
     * Waits for the next CM event; in invoker mode this thread runs the engine meanwhile.
     *
     * @throws PerfException if none comes within {@code timeout} (naming {@code where})
     */
    public static CmEvent await(CmEventQueue events, RdmaDevice device, Duration timeout, String where) {
        CmEvent e;
        try {
            e = events.poll(timeout, device);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new PerfException("interrupted during setup");
        }
        if (e == null) {
            throw new PerfException("no answer from " + where + " for " + timeout.toSeconds() + " s during setup");
        }
        return e;
    }

    /** Waits for a client's connect request. */
    public static ConnectionRequest awaitRequest(CmEventQueue events, RdmaDevice device, Duration timeout, String who) {
        CmEvent e = await(events, device, timeout, who);
        if (e instanceof CmEvent.ConnectRequest r) {
            return r.request();
        }
        throw new PerfException(who + " failed during setup: " + e);
    }

    /**
     * Connects {@code qp} to {@code server} with {@code params} (the private data of the MPA Request)
     * and waits until it is established.
     *
     * @return the Established event: the peer's private data, the negotiated attributes
     * @throws PerfException {@code refusal}'s line if anything else came
     */
    public static CmEvent.Established connect(RdmaDevice device, InetSocketAddress server, QueuePair qp,
                                              ConnectParams params, CmEventQueue events, Duration timeout,
                                              Refusal refusal) {
        String where = where(server);
        device.connectionManager().connect(server, qp, params, events);
        CmEvent e = await(events, device, timeout, where);
        if (e instanceof CmEvent.Established est) {
            return est;
        }
        throw refusal.of(e, where);
    }

    /** As {@link #connect(RdmaDevice, InetSocketAddress, QueuePair, ConnectParams, CmEventQueue, Duration, Refusal)}, refused as {@link #refused}. */
    public static CmEvent.Established connect(RdmaDevice device, InetSocketAddress server, QueuePair qp,
                                              ConnectParams params, CmEventQueue events, Duration timeout) {
        return connect(device, server, qp, params, events, timeout, CmSetup::refused);
    }

    /** The one line for a connect that got {@code e} instead of Established, naming no protocol of its own. */
    public static PerfException refused(CmEvent e, String where) {
        return new PerfException(switch (e) {
            case CmEvent.Rejected r -> "the peer at " + where + " rejected the connection (" + r.reason() + ")";
            case CmEvent.Unreachable u -> "cannot reach " + where + ": " + u.reason();
            case CmEvent.ConnectError ce -> "connection setup with " + where + " failed: " + ce.reason();
            case CmEvent.Disconnected d -> "the peer at " + where + " closed the connection during setup ("
                    + d.cause() + ")";
            default -> "connection setup with " + where + " failed: " + e;
        });
    }

    /**
     * Accepts {@code request} on {@code qp} with {@code params} (the private data of the MPA Reply)
     * and waits until the connection is established.
     */
    public static CmEvent.Established accept(ConnectionRequest request, QueuePair qp, AcceptParams params,
                                             CmEventQueue events, RdmaDevice device, Duration timeout) {
        String who = "the client at " + where(request.remoteAddress());
        request.accept(qp, params);
        CmEvent e = await(events, device, timeout, who);
        if (e instanceof CmEvent.Established est) {
            return est;
        }
        throw new PerfException(who + " failed during setup: " + e);
    }

    /** Disconnects {@code qp} and waits for its Disconnected event (other events on the way are passed over). */
    public static void disconnect(RdmaDevice device, QueuePair qp, CmEventQueue events, Duration timeout) {
        device.connectionManager().disconnect(qp);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!(await(events, device, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())), "the peer")
                instanceof CmEvent.Disconnected)) {
            // e.g. a late event of the setup: only the end of this connection is awaited
        }
    }

    /** The accept parameters that answer a request with {@code privateData} and the sides' usual depths. */
    public static AcceptParams accepting(byte[] privateData) {
        return new AcceptParams(privateData, SIDE_DEPTH, SIDE_DEPTH);
    }

    /** The connect parameters with {@code privateData} and the sides' usual depths. */
    public static ConnectParams connecting(byte[] privateData) {
        return ConnectParams.of(privateData).withDepths(SIDE_DEPTH, SIDE_DEPTH);
    }
}

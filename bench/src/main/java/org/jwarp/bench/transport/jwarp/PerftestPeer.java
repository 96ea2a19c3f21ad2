package org.jwarp.bench.transport.jwarp;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.Listener;

/**
 * jwarp speaking perftest's own protocol ({@code ib_write_bw -R} and its siblings: rdma_cm for
 * every connection, setup over an exchange channel), so that the peer is perftest rather than
 * jwarp. The order of exchanges is perftest's (see {@code interop/PERFTEST.md}); X(n) is an
 * exchange of n bytes, H one of addresses and keys ({@link PerftestDest}):
 *
 * <pre>
 * exchange channel connected; X(16) version; X(4) cycle buffer; X(4) cache line; X(2) MTU
 * H; the data QPs connect to the same port; H
 * before the run:  write/read bw: H×N, H×N, H    send bw: H×N, H×N, H, H (receives posted)
 *                  latency tests: H, H, H, H
 * after the run:   write/read bw: H, X(8)×5 (the client's report), H
 *                  send bw, read lat, send lat: H        write lat: nothing
 * </pre>
 *
 * One size per run, as perftest's {@code -s}; the size, {@code -n}, {@code -t}, {@code -r} and
 * {@code -q} must match the perftest side's, as between two perftest programs.
 */
public final class PerftestPeer implements AutoCloseable {

    /** The version perftest checks (at least 5.70), and below 6.28's parameter negotiation. */
    static final String VERSION = "6.06";
    static final int CYCLE_BUFFER = 4096;
    /**
     * The largest cycle buffer of a perftest peer this side can serve (a page: 4 KiB on x86, 64
     * KiB on some arm64 and ppc64 kernels). perftest moves a bandwidth test's remote address through
     * the cycle buffer in steps of the size rounded up to a cache line, so what a side advertises
     * must hold the cycle buffer plus one message.
     */
    static final int MAX_CYCLE_BUFFER = 64 << 10;
    static final int CACHE_LINE = 64;
    /** IBV_MTU_1024, as an ASCII digit and a NUL, the way perftest sends it. */
    static final byte[] MTU = {'3', 0};

    private static final Duration SETUP = Duration.ofSeconds(30);
    /** How long a side waits for the peer's end-of-run exchange: the run's length is the peer's. */
    private static final Duration RUN = Duration.ofHours(1);
    /** How long this side lets the peer close first at the end of a run. */
    private static final Duration PEER_CLOSE = Duration.ofSeconds(3);
    /** perftest's client retries its data connections until the server listens again. */
    private static final int CONNECT_TRIES = 10;

    private final JwarpSide side;
    private final boolean client;
    private final PerftestExchange exchange;
    private final List<String> describe = new ArrayList<>();
    private PerftestDest[] mine;
    private String peerVersion;

    private PerftestPeer(JwarpSide side, boolean client) {
        this.side = side;
        this.client = client;
        this.exchange = new PerftestExchange(side, client);
    }

    /** The tests perftest offers that this peer speaks, by jwarp's name. */
    public static boolean speaks(TestKind t) {
        return switch (t) {
            case WRITE_BW, READ_BW, SEND_BW, WRITE_LAT, READ_LAT, SEND_LAT -> true;
            default -> false;
        };
    }

    /** Client: connects to a perftest server ({@code ib_... -R}) at {@code server}. */
    public static PerftestPeer connect(JwarpOptions options, Settings s, InetSocketAddress server) {
        JwarpSide side = new JwarpSide(options);
        try {
            side.setup(s, (long) s.size() + MAX_CYCLE_BUFFER);
            PerftestPeer p = new PerftestPeer(side, true);
            String where = CmSetup.where(server);
            CmSetup.connect(side.device, server, side.ctlQp, new ConnectParams(new byte[0], SETUP, 1, 1), side.cmEvents,
                    SETUP, PerftestPeer::refused);
            p.handshake();
            for (int i = 0; i < s.qps(); i++) {
                p.connectData(server, i, where);
            }
            p.exchange.exchange(PerftestDest.NONE, SETUP);
            p.describe.add("connected to perftest " + p.peerVersion + " at " + where);
            return p;
        } catch (RuntimeException e) {
            side.close();
            throw e;
        }
    }

    /**
     * Server: waits on {@code bind} for a perftest client ({@code ib_... -R HOST}); {@code listening}
     * is told the address once connections are taken.
     */
    public static PerftestPeer accept(JwarpOptions options, Settings s, InetSocketAddress bind,
                                      Consumer<InetSocketAddress> listening) {
        JwarpSide side = new JwarpSide(options);
        try {
            side.setup(s, (long) s.size() + MAX_CYCLE_BUFFER);
            PerftestPeer p = new PerftestPeer(side, false);
            try (Listener listener = CmSetup.listen(side.device, bind, s.qps() + 1, side.cmEvents)) {
                listening.accept(listener.localAddress());
                String who = "the perftest client";
                // the exchange channel first; no deadline: a server waits for its client
                ConnectionRequest first = CmSetup.awaitRequest(side.cmEvents, side.device, Duration.ofDays(1), who);
                who = "perftest at " + first.remoteAddress().getHostString();
                CmSetup.accept(first, side.ctlQp, new AcceptParams(new byte[0], 1, 1), side.cmEvents, side.device,
                        SETUP);
                p.handshake();
                for (int i = 0; i < s.qps(); i++) {
                    ConnectionRequest r = CmSetup.awaitRequest(side.cmEvents, side.device, SETUP, who);
                    int limitOrd = side.device.config().limits().maxOrd();
                    int limitIrd = side.device.config().limits().maxIrd();
                    CmSetup.accept(r, side.qps[i], new AcceptParams(new byte[0], Math.min(limitOrd, Math.max(1,
                            r.peerIrd())), Math.min(limitIrd, Math.max(ConnectParams.DEFAULT_DEPTH, r.peerOrd()))),
                            side.cmEvents, side.device, SETUP);
                }
                p.exchange.exchange(PerftestDest.NONE, SETUP);
                p.describe.add("perftest " + p.peerVersion + " connected from " + first.remoteAddress().getHostString()
                        + ":" + first.remoteAddress().getPort());
            }
            return p;
        } catch (RuntimeException e) {
            side.close();
            throw e;
        }
    }

    /** Version, cycle buffer, cache line, MTU, and the first (empty) address exchange. */
    private void handshake() {
        byte[] v = new byte[16];
        byte[] ours = VERSION.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ours, 0, v, 0, ours.length);
        byte[] theirs = exchange.exchange(v, SETUP);
        int end = 0;
        while (end < theirs.length && theirs[end] != 0) {
            end++;
        }
        peerVersion = new String(theirs, 0, end, StandardCharsets.US_ASCII);
        int cycle = ByteBuffer.wrap(exchange.exchange(ByteBuffer.allocate(4).putInt(CYCLE_BUFFER).array(), SETUP))
                .getInt();
        if (cycle > MAX_CYCLE_BUFFER) {
            throw new PerfException("the perftest peer's cycle buffer is " + cycle + " bytes; jwarp serves at most "
                    + MAX_CYCLE_BUFFER);
        }
        exchange.exchange(ByteBuffer.allocate(4).putInt(CACHE_LINE).array(), SETUP);
        exchange.exchange(MTU.clone(), SETUP);
        exchange.exchange(PerftestDest.NONE, SETUP);
    }

    /**
     * Client: data QP {@code i}, retried while the server has not yet listened again (refused, or
     * with siw closed during MPA setup: its TCP listener outlives the rdma_cm one).
     */
    private void connectData(InetSocketAddress server, int i, String where) {
        boolean reads = side.settings.test().verb().isRequestResponse();
        int ord = reads ? Math.min(side.settings.outstanding(), side.device.config().limits().maxOrd()) : 1;
        for (int attempt = 1; ; attempt++) {
            side.device.connectionManager().connect(server, side.qps[i], new ConnectParams(new byte[0], SETUP, ord,
                    ConnectParams.DEFAULT_DEPTH), side.cmEvents);
            CmEvent e = CmSetup.await(side.cmEvents, side.device, SETUP, where);
            if (e instanceof CmEvent.Established) {
                return;
            }
            boolean again = e instanceof CmEvent.Rejected || e instanceof CmEvent.Unreachable
                    || e instanceof CmEvent.ConnectError ce && ce.kind() == CmEvent.ConnectError.Kind.PROTOCOL;
            if (!again || attempt == CONNECT_TRIES) {
                throw refused(e, where);
            }
            side.replaceDataQp(i);
            try {
                Thread.sleep(100);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                throw new PerfException("interrupted during setup");
            }
        }
    }

    /** The one line for a connect to perftest that got {@code e} instead of Established. */
    private static PerfException refused(CmEvent e, String where) {
        return switch (e) {
            case CmEvent.Rejected r -> new PerfException("the peer at " + where + " rejected the connection ("
                    + r.reason() + "): is perftest running there with -R on this port?");
            case CmEvent.Unreachable u -> new PerfException("cannot reach perftest at " + where + ": "
                    + u.reason() + " (start it there first, e.g. ib_write_bw -R -p PORT)");
            default -> new PerfException("connection setup with " + where + " failed: " + e);
        };
    }

    /** Header lines: who the peer is. */
    public List<String> describe() {
        return List.copyOf(describe);
    }

    /** Runs the test as perftest would, and returns this side's result. */
    public PerftestResult run() {
        PerftestResult r = runTest();
        awaitPeerClose();
        return r;
    }

    /**
     * perftest disconnects first after its last exchange and then waits for the events of its own
     * disconnects; closing from this side at once races its last SEND's completion, which perftest
     * then reports as failed. So wait (a few seconds at most) for the peer to close the exchange
     * channel.
     */
    private void awaitPeerClose() {
        long deadline = System.nanoTime() + PEER_CLOSE.toNanos();
        try {
            for (long left; (left = deadline - System.nanoTime()) > 0; ) {
                CmEvent e = side.cmEvents.poll(Duration.ofNanos(left), side.device);
                if (e == null || e instanceof CmEvent.Disconnected d && d.qp() == side.ctlQp) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private PerftestResult runTest() {
        TestKind t = side.settings.test();
        int n = side.settings.qps();
        mine = new PerftestDest[n];
        PerftestDest[] peer = new PerftestDest[n];
        for (int i = 0; i < n; i++) {
            mine[i] = dest(t, i);
        }
        PerftestRuns runs = new PerftestRuns(side, client);
        PerftestResult result;
        if (t.isLatency()) {
            for (int k = 0; k < 4; k++) {
                if (k == 3 && t == TestKind.SEND_LAT) {
                    runs.postReceives();
                }
                peer[0] = exchange.exchange(mine[0], SETUP);
            }
            result = switch (t) {
                case WRITE_LAT -> runs.writeLatency(peer[0]);
                case READ_LAT -> client ? runs.readLatency(peer[0]) : PerftestResult.passive(side.settings);
                default -> runs.sendLatency();
            };
            if (t != TestKind.WRITE_LAT) {
                exchange.exchange(mine[0], RUN);
            }
            return result;
        }
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) {
                peer[i] = exchange.exchange(mine[i], SETUP);
            }
        }
        exchange.exchange(mine[0], SETUP);
        if (t == TestKind.SEND_BW) {
            if (!client) {
                runs.postReceives();
            }
            exchange.exchange(mine[0], SETUP);
            result = client ? runs.sendBandwidth() : runs.receiveBandwidth(peer);
            exchange.exchange(mine[0], RUN);
            return result;
        }
        result = client ? runs.bandwidth(peer) : PerftestResult.passive(side.settings);
        exchange.exchange(mine[0], RUN);
        PerftestResult theirs = exchangeReports(result);
        exchange.exchange(mine[0], SETUP);
        return client ? result : theirs;
    }

    /** The five X(8) after a WRITE or READ bandwidth run: size, iterations, peak, average, message rate. */
    private PerftestResult exchangeReports(PerftestResult r) {
        long[] theirs = new long[5];
        long[] ours = {r.size(), r.iterations(), Double.doubleToLongBits(r.peakMBps()),
                Double.doubleToLongBits(r.averageMBps()), Double.doubleToLongBits(r.messageRateMpps())};
        for (int k = 0; k < 5; k++) {
            theirs[k] = ByteBuffer.wrap(exchange.exchange(ByteBuffer.allocate(8).putLong(ours[k]).array(), SETUP))
                    .getLong();
        }
        return PerftestResult.bandwidth(side.settings, (int) theirs[0], theirs[1], Double.longBitsToDouble(theirs[2]),
                Double.longBitsToDouble(theirs[3]), Double.longBitsToDouble(theirs[4]));
    }

    /**
     * What this side advertises for QP {@code i}: the buffer the peer WRITEs into or READs from,
     * or for SEND bandwidth the credit word the receiver WRITEs its receive count into.
     */
    private PerftestDest dest(TestKind t, int i) {
        int qpn = side.qps[i].qpNum();
        int reads = t.verb().isRequestResponse() ? side.settings.outstanding() : 0;
        return switch (t) {
            case READ_BW, READ_LAT -> new PerftestDest(reads, qpn, 0, side.out[i].rkey(), side.out[i].iova());
            case SEND_BW -> new PerftestDest(0, qpn, 0, side.in[i].rkey(), side.in[i].iova() + side.creditOffset());
            default -> new PerftestDest(reads, qpn, 0, side.in[i].rkey(), side.in[i].iova());
        };
    }

    /** Disconnects and releases everything. Never throws. */
    @Override
    public void close() {
        side.close();
    }
}

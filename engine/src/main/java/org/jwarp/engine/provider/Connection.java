package org.jwarp.engine.provider;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import org.jwarp.stack.MpaHandshake;
import org.jwarp.stack.RdmapStream;
import org.jwarp.stack.StreamParameters;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.QpAttr;
import org.jwarp.wire.fpdu.Mulpdu;
import org.jwarp.wire.mpa.MpaParameters;
import org.jwarp.wire.mpa.RtrType;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * One TCP connection and the QP it carries, owned by one engine thread. Its setup — TCP connect
 * and the MPA exchange — is the role's ({@link InitiatorSetup}, {@link ResponderSetup}); from the
 * RTR start of RFC 6581 on, this class drives the running stream: socket bytes into the QP's
 * {@link RdmapStream}, its FPDUs back to the socket, and the end, with the right
 * {@link CmEvent.Disconnected} cause. Every end of a setup gives exactly one event
 * ({@link #setupFailed}). Everything here runs on the owning engine thread.
 */
final class Connection {

    private static final int CONNECTING = 0;
    private static final int HANDSHAKE = 1;
    private static final int RUNNING = 2;
    private static final int CLOSED = 3;
    /**
     * Initiator: how long a peer may stay silent after our first FPDUs before we send one
     * zero-length RDMA Write (see {@link RdmapStream#queueNudge()}): Linux siw 6.1 sends its MPA
     * Reply before it moves the socket under its QP, and an FPDU that arrives in between lies unread
     * until more bytes come. Setup path only; once per connection.
     */
    static final long SILENT_PEER_NUDGE_NANOS = 200_000_000L;

    final JwarpDevice device;
    final SocketChannel channel;
    private final CmEventHandler handler;
    private final SocketReceiver receiver = new SocketReceiver();
    private final ByteBuffer rx = receiver.staging();
    private final MemorySegment rxSegment = receiver.stagingSegment();
    private final GatherFpduSink sink = new GatherFpduSink();
    private ConnectionSetup setup;

    private int phase;
    private JwarpQp qp;
    private boolean established;
    private SelectionKey key;
    private int interest;
    private long rtrDeadline;
    private long runningSince;
    private boolean nudged;

    private Connection(JwarpDevice device, SocketChannel channel, CmEventHandler handler) {
        this.device = device;
        this.channel = channel;
        this.handler = handler;
    }

    /** The active side: TCP connect under way; the MPA Request goes out once it completes. */
    static Connection connecting(JwarpDevice device, SocketChannel channel, InetSocketAddress remote, JwarpQp qp,
                                 byte[] privateData, int ord, int ird, long deadline, CmEventHandler handler) {
        Connection c = new Connection(device, channel, handler);
        c.qp = qp;
        c.setup = new InitiatorSetup(c, remote, privateData, ord, ird, deadline);
        c.phase = CONNECTING;
        return c;
    }

    /** The passive side: TCP accepted; waiting for the MPA Request. */
    static Connection accepted(JwarpDevice device, SocketChannel channel, JwarpListener listener, long now) {
        Connection c = new Connection(device, channel, listener.handler());
        c.setup = new ResponderSetup(c, listener, now);
        c.phase = HANDSHAKE;
        return c;
    }

    JwarpQp qp() {
        return qp;
    }

    /** Passive side: the application accepted with {@code acceptor}, which this connection carries from now on. */
    void carry(JwarpQp acceptor) {
        qp = acceptor;
        acceptor.connection = this;
    }

    MpaHandshake handshake() {
        return setup.handshake;
    }

    /** The listener that accepted this connection; null on the active side. */
    JwarpListener listener() {
        return setup instanceof ResponderSetup r ? r.listener() : null;
    }

    ResponderSetup responder() {
        return (ResponderSetup) setup;
    }

    /** Engine thread: joins the engine's selector, so readiness wakes an idle engine. */
    void register(Selector selector) {
        if (phase == CLOSED) {
            return;
        }
        try {
            key = channel.register(selector, phase == CONNECTING ? SelectionKey.OP_CONNECT : SelectionKey.OP_READ);
            interest = key.interestOps();
        } catch (IOException e) {
            device.report(new IOException("cannot watch " + channel + " for readiness", e));
            lost();
        }
    }

    /** Engine thread: leaves the selector it joined (the connection moves to another engine thread). */
    void unregister() {
        if (key != null) {
            key.cancel();
            key = null;
        }
    }

    /** Changes what readiness wakes the engine for, only when it changes. */
    void interest(int ops) {
        if (key != null && key.isValid() && ops != interest) {
            key.interestOps(ops);
            interest = ops;
        }
    }

    InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** The peer's address; before (or without) a TCP connection, the address we dial; null if neither. */
    InetSocketAddress remoteAddress() {
        InetSocketAddress target = setup instanceof InitiatorSetup i ? i.target() : null;
        try {
            InetSocketAddress a = (InetSocketAddress) channel.getRemoteAddress();
            return a != null ? a : target;
        } catch (IOException e) {
            return target;
        }
    }

    /** The remote address as host:port, for messages (read before the channel closes). */
    String peerName() {
        InetSocketAddress a = remoteAddress();
        return a == null ? "(address unknown)" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    ByteBuffer rxBuffer() {
        return rx;
    }

    MemorySegment rxSegment() {
        return rxSegment;
    }

    /** Initiator: TCP is connected; the MPA exchange begins. */
    void handshaking() {
        phase = HANDSHAKE;
        interest(SelectionKey.OP_READ);
    }

    /** One step of this connection's work; returns how much was done (0 = idle). */
    int doWork(long now) {
        try {
            return switch (phase) {
                case CONNECTING -> setup.connectWork(now);
                case HANDSHAKE -> setup.handshakeWork(now);
                case RUNNING -> runningWork(now);
                default -> qp == null ? 0 : qp.stream.flush();
            };
        } catch (IOException e) {
            if (inSetup()) {
                // reset or TCP error before the connection ran: exactly one setup event
                setupFailed(new SetupFailure(SetupFailure.Kind.PROTOCOL, "the peer " + peerName()
                        + " reset the connection during MPA setup ("
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")"
                        + setup.hint()));
            } else {
                lost();
            }
            return 1;
        }
    }

    /**
     * The setup ended without a connection: the socket closes, the QP (if one was given) goes to
     * ERROR and flushes, and the role announces it with its one event.
     */
    void setupFailed(SetupFailure f) {
        if (phase == CLOSED) {
            return;
        }
        String peer = peerName();
        closeChannel();
        phase = CLOSED;
        if (qp != null) {
            failQp();
        }
        setup.announce(f, peer, qp);
    }

    /** Passive side: the application's reject went out; the connection ends with no event. */
    void closeRejected() {
        closeChannel();
        phase = CLOSED;
    }

    /**
     * Something this connection's work threw that is not an I/O error (a bug, or memory that was
     * freed under a region while the engine was using it): the connection ends as a lost one, is
     * reported with its cause, and the engine thread carries on with the others.
     */
    void failed(Throwable e) {
        device.report(new IllegalStateException("connection " + peerName() + " failed on the engine thread and was"
                + " closed; other connections carry on: " + e, e));
        endAfter(e);
    }

    /** Ends this connection as a lost one because of {@code e} (an event, and a flush of every request). */
    void endAfter(Throwable e) {
        if (inSetup()) {
            setupFailed(new SetupFailure(SetupFailure.Kind.PROTOCOL, "the connection setup with " + peerName()
                    + " failed: " + e));
        } else if (phase == RUNNING) {
            try {
                lost();
            } catch (RuntimeException again) {
                e.addSuppressed(again);
                phase = CLOSED;
                closeChannel();
            }
        }
    }

    /** In TCP connect or MPA setup (not running, not closed). */
    boolean inSetup() {
        return phase == CONNECTING || phase == HANDSHAKE;
    }

    /** Closed with nothing left to do on the engine: no QP that may still need its posts flushed. */
    boolean finished() {
        return phase == CLOSED && qp == null;
    }

    boolean closed() {
        return phase == CLOSED;
    }

    /**
     * The transmit half of a running connection's work, which the duty cycle runs for every
     * connection before any socket read: a freshly posted request leaves without waiting behind
     * the read system calls of this or another connection.
     */
    int transmitWork() {
        if (phase != RUNNING) {
            return 0;
        }
        try {
            return qp.stream.transmit(sink) + drainTx();
        } catch (IOException e) {
            lost();
            return 1;
        }
    }

    /** Engine thread, passive side: the application accepted with {@code acceptor}; see {@link ResponderSetup#accept}. */
    boolean accept(JwarpQp acceptor, byte[] privateData, int ord, int ird, CompletableFuture<Void> sent) {
        return responder().accept(acceptor, privateData, ord, ird, sent, phase == CLOSED);
    }

    /** Engine thread, passive side: the application refused. */
    void reject(byte[] privateData, CompletableFuture<Void> sent) {
        responder().reject(privateData, sent, phase == CLOSED);
    }

    /**
     * Device close: a Reply the application asked for still goes out before the socket closes
     * (a server that rejects and stops at once must not leave its client without the reason).
     */
    void shutdown() {
        if (phase == HANDSHAKE) {
            setup.shutdown();
        }
        disconnect();
        setup.ended("the device closed");
    }

    /** The MPA exchange is done: full operation begins, with the bytes that followed the MPA frame. */
    void enterRunning(MpaHandshake handshake, byte[] leftover) throws IOException {
        MpaParameters mp = handshake.parameters();
        StreamParameters sp = StreamParameters.of(mp, emss(), device.config().rfc7306());
        RdmapStream stream = qp.stream;
        stream.establish(sp, 0);
        sink.start(sp.crc(), sp.markersTx(), 0);
        receiver.start(qp.maxSge(), sp.markersRx(), device.rxDirectFrom());
        qp.connection = this;
        qp.lifecycle().mpaDone();
        boolean initiator = handshake.isInitiator();
        if (mp.rtr().isPresent()) {
            if (initiator) {
                stream.queueRtr(mp.rtr().get());
            } else {
                stream.holdTransmitUntilFirstFpdu();
            }
        }
        qp.connectionAttr(new QpAttr(sp.ord(), sp.ird(), mp.peerOrd(), mp.peerIrd(), mp.revision(), sp.crc(),
                sp.markersTx(), sp.markersRx(), mp.rtr().map(Connection::rtrKind).orElse(null), localAddress(),
                remoteAddress()));
        phase = RUNNING;
        if (leftover != null) {
            stream.receive(MemorySegment.ofArray(leftover), 0, leftover.length);
        }
        runningSince = System.nanoTime();
        rtrDeadline = runningSince + device.config().mpaTimeouts().awaitRtr().toNanos();
        runningWork(System.nanoTime());
    }

    private static DeviceConfig.RtrKind rtrKind(RtrType t) {
        return switch (t) {
            case SEND -> DeviceConfig.RtrKind.SEND;
            case WRITE -> DeviceConfig.RtrKind.WRITE;
            case READ -> DeviceConfig.RtrKind.READ;
        };
    }

    /** EMSS from the MTU of the interface the connection uses (IP + TCP + timestamps headers off). */
    private int emss() {
        try {
            InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
            NetworkInterface ni = NetworkInterface.getByInetAddress(local.getAddress());
            int mtu = ni != null && ni.getMTU() > 0 ? ni.getMTU() : 1500;
            int ip = local.getAddress() instanceof Inet6Address ? 40 : 20;
            return Math.max(Mulpdu.MINIMUM + 16, mtu - ip - 20 - 12);
        } catch (IOException e) {
            return 1448;
        }
    }

    private int runningWork(long now) throws IOException {
        RdmapStream stream = qp.stream;
        // The duty cycle ran transmitWork() before any read; what was framed since goes out now.
        // Bytes a full socket left pending wait for the next cycle's transmitWork() (a second
        // write into a full socket would find no room, and costs a system call).
        int work = stream.transmit(sink);
        if (work > 0) {
            work += drainTx();
        }
        long n = receiver.read(channel, stream);
        if (n > 0) {
            work++;
            // what the bytes just received call for (Read Responses, a Terminate) goes out now
            work += stream.transmit(sink);
            work += drainTx();
        } else if (n < 0) {
            stream.connectionLost();
            end(CmEvent.Disconnected.Cause.PEER_CLOSED);
            return 1;
        }
        boolean initiator = handshake().isInitiator();
        if (initiator && !nudged && stream.fpdusReceived() == 0 && stream.fpdusSent() > 0
                && now - runningSince >= SILENT_PEER_NUDGE_NANOS && stream.state() == RdmapStream.State.RTS) {
            nudged = true;
            stream.queueNudge();
            work += stream.transmit(sink);
            work += drainTx();
        }
        if (!established) {
            checkEstablished();
            if (!established && !initiator && now - rtrDeadline >= 0) {
                // RFC 5044 §7.1.2 rule 6: a peer that never sends its RTR must not hold the connection
                setupFailed(new SetupFailure(SetupFailure.Kind.TIMEOUT,
                        "no RTR arrived within " + device.config().mpaTimeouts().awaitRtr()));
                return 1;
            }
        }
        if (stream.state() == RdmapStream.State.ERROR) {
            work += stream.flush();
            if (sink.pending() == 0) {
                end(stream.peerTerminate() >= 0 ? CmEvent.Disconnected.Cause.TERMINATE_RECEIVED
                        : CmEvent.Disconnected.Cause.TERMINATE_SENT);
            }
        }
        return work;
    }

    private int drainTx() throws IOException {
        if (sink.pending() == 0) {
            return 0;
        }
        long written = sink.drain(channel);
        if (written > 0) {
            qp.stream.released(sink.written());
        }
        // wake for writability only while bytes wait for room in the socket
        interest(sink.pending() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        return written > 0 ? 1 : 0;
    }

    /** RFC 6581: the initiator is connected once its RTR is out, the responder once the RTR arrived. */
    private void checkEstablished() {
        RdmapStream stream = qp.stream;
        MpaHandshake h = handshake();
        boolean rtr = h.parameters().rtr().isPresent();
        boolean ready = h.isInitiator() ? !stream.rtrPending() : !rtr || stream.fpdusReceived() > 0;
        if (ready && stream.state() == RdmapStream.State.RTS) {
            established = true;
            qp.lifecycle().established();
            emit(new CmEvent.Established(qp, qp.connectionAttr().orElseThrow(), h.peerPrivateData()));
        }
    }

    /** Connection setup failed: the QP goes to ERROR and anything posted is flushed. */
    private void failQp() {
        qp.stream.connectionLost();
        qp.lifecycle().failed();
        qp.stream.flush();
    }

    /** Local disconnect: what is framed goes out, then TCP closes and every request is flushed. */
    void disconnect() {
        if (phase == CLOSED) {
            return;
        }
        if (phase == RUNNING) {
            try {
                drainTx();
            } catch (IOException e) {
                // the connection is going away; the flush below reports every request
            }
        }
        if (qp != null) {
            qp.stream.connectionLost();
        }
        end(CmEvent.Disconnected.Cause.LOCAL);
    }

    /** The QP was moved to ERROR by the application: stop at once. */
    void abort() {
        if (qp != null) {
            qp.stream.connectionLost();
        }
        end(CmEvent.Disconnected.Cause.LOCAL);
    }

    /**
     * The QP was reset by the application: the connection ends (with its one event) without
     * touching the QP's queues, which the reset empties without completions, and lets go of the QP.
     */
    void abandon() {
        if (phase != CLOSED) {
            boolean wasEstablished = phase == RUNNING && established;
            String peer = peerName();
            phase = CLOSED;
            closeChannel();
            setup.ended("the queue pair was reset");
            if (wasEstablished) {
                emit(new CmEvent.Disconnected(qp, CmEvent.Disconnected.Cause.LOCAL, 0));
            } else {
                setup.announce(new SetupFailure(SetupFailure.Kind.LOCAL,
                        "the queue pair was reset during connection setup"), peer, qp);
            }
        }
        qp = null;
    }

    /** TCP failed under the stream (reset, error): no Terminate can be sent; everything is flushed. */
    private void lost() {
        if (qp != null) {
            qp.stream.connectionLost();
        }
        end(CmEvent.Disconnected.Cause.CONNECTION_LOST);
    }

    /**
     * The running connection ends. One that was established says why with
     * {@link CmEvent.Disconnected}; one that ran but was not yet established (the responder waiting
     * for the RTR) ends its setup with the role's event instead: an application never sees a
     * Disconnected without an Established before it.
     */
    private void end(CmEvent.Disconnected.Cause cause) {
        if (phase == CLOSED) {
            return;
        }
        if (phase == RUNNING && !established || inSetup()) {
            setupFailed(setupFailure(cause));
            return;
        }
        phase = CLOSED;
        closeChannel();
        setup.ended("the connection closed (" + cause + ")");
        if (qp != null) {
            qp.lifecycle().failed();
            qp.stream.flush();
            emit(new CmEvent.Disconnected(qp, cause, terminateBits()));
        }
    }

    /** The Terminate behind the end: the peer's if it sent one, else ours, else 0. */
    private int terminateBits() {
        RdmapStream stream = qp.stream;
        return stream.peerTerminate() >= 0 ? stream.peerTerminate()
                : stream.terminateCause() != null ? stream.terminateCause().controlBits() : 0;
    }

    /** A running connection that ends before it was established: what ended its setup. */
    private SetupFailure setupFailure(CmEvent.Disconnected.Cause cause) {
        String before = " before the connection was established";
        return switch (cause) {
            case LOCAL -> new SetupFailure(SetupFailure.Kind.LOCAL, "closed locally" + before);
            case PEER_CLOSED -> new SetupFailure(SetupFailure.Kind.PROTOCOL, "the peer closed the connection" + before);
            case CONNECTION_LOST -> new SetupFailure(SetupFailure.Kind.PROTOCOL, "the TCP connection was lost" + before);
            case TERMINATE_RECEIVED -> new SetupFailure(SetupFailure.Kind.NEGOTIATION,
                    "the peer sent a Terminate" + describe(qp == null ? 0 : terminateBits()) + before);
            case TERMINATE_SENT -> new SetupFailure(SetupFailure.Kind.PROTOCOL,
                    "we sent a Terminate" + describe(qp == null ? 0 : terminateBits()) + before);
        };
    }

    private static String describe(int bits) {
        if (bits == 0) {
            return "";
        }
        int layer = bits >>> 28;
        int type = (bits >>> 24) & 0xF;
        int code = (bits >>> 16) & 0xFF;
        TerminateError e = TerminateError.of(layer, type, code);
        return String.format(java.util.Locale.ROOT, " (%s, layer %d type %d code 0x%02x)",
                e == null ? "unknown error" : e.description(), layer, type, code);
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            device.report(new IOException("closing " + channel + " failed", e));
        }
    }

    void emit(CmEvent event) {
        device.deliver(handler, event);
    }

    @Override
    public String toString() {
        return "Connection[" + (setup instanceof InitiatorSetup ? "active" : "passive") + ", phase " + phase + ", "
                + qp + "]";
    }
}

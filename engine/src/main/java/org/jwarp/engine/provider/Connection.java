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
import org.jwarp.verbs.QpState;
import org.jwarp.wire.fpdu.Mulpdu;
import org.jwarp.wire.mpa.MpaFrame;
import org.jwarp.wire.mpa.MpaParameters;
import org.jwarp.wire.mpa.MpaPolicy;
import org.jwarp.wire.mpa.MpaV2Header;
import org.jwarp.wire.mpa.RtrType;
import org.jwarp.wire.rdmap.MpaError;

/**
 * One TCP connection and the QP it carries, owned by one engine thread: TCP connect, MPA setup
 * ({@link MpaHandshake}), the RTR start of RFC 6581, then full operation — socket bytes into the
 * QP's {@link RdmapStream}, its FPDUs back to the socket — and the end, with the right
 * {@link CmEvent.Disconnected} cause. Everything here runs on the owning engine thread.
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

    private final JwarpDevice device;
    private final SocketChannel channel;
    private final boolean active;
    private final CmEventHandler handler;
    private final JwarpListener listener;
    private final SocketReceiver receiver = new SocketReceiver();
    private final ByteBuffer rx = receiver.staging();
    private final MemorySegment rxSegment = receiver.stagingSegment();
    private final GatherFpduSink sink = new GatherFpduSink();

    private int phase;
    private long connectDeadline;
    private MpaHandshake handshake;
    private ByteBuffer setupOutput;
    private JwarpQp qp;
    private boolean requestDelivered;
    /** Passive side: what the client sent first, to name a client that does not speak MPA. */
    private final FirstBytes firstBytes = new FirstBytes();
    /** Passive side: completes once the application's accept or reject has its MPA Reply handed to TCP. */
    private CompletableFuture<Void> replySent;
    private boolean established;
    private byte[] leftover;
    private byte[] connectPrivateData;
    private int connectOrd;
    private int connectIrd;
    private MpaPolicy policy;
    /** Active side: the address connect() dials (a failed connect has no remote address of its own). */
    private InetSocketAddress connectTarget;
    private SelectionKey key;
    private long rtrDeadline;
    private long runningSince;
    private boolean nudged;
    private int interest;

    private Connection(JwarpDevice device, SocketChannel channel, boolean active, CmEventHandler handler,
                       JwarpListener listener) {
        this.device = device;
        this.channel = channel;
        this.active = active;
        this.handler = handler;
        this.listener = listener;
    }

    /** The active side: TCP connect under way; the MPA Request goes out once it completes. */
    static Connection connecting(JwarpDevice device, SocketChannel channel, InetSocketAddress remote, JwarpQp qp,
                                 byte[] privateData, int ord, int ird, long deadline, CmEventHandler handler) {
        Connection c = new Connection(device, channel, true, handler, null);
        c.connectTarget = remote;
        c.qp = qp;
        c.connectPrivateData = privateData;
        c.connectOrd = ord;
        c.connectIrd = ird;
        c.connectDeadline = deadline;
        c.phase = CONNECTING;
        return c;
    }

    /** The passive side: TCP accepted; waiting for the MPA Request. */
    static Connection accepted(JwarpDevice device, SocketChannel channel, JwarpListener listener, long now) {
        Connection c = new Connection(device, channel, false, listener.handler(), listener);
        DeviceConfig cfg = device.config();
        c.policy = MpaPolicies.of(cfg, cfg.limits().maxIrd(), cfg.limits().maxOrd());
        c.handshake = MpaHandshake.responder(c.policy, now, cfg.mpaTimeouts().awaitRequest(),
                cfg.mpaTimeouts().awaitDecision());
        c.phase = HANDSHAKE;
        return c;
    }

    JwarpQp qp() {
        return qp;
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
    private void interest(int ops) {
        if (key != null && key.isValid() && ops != interest) {
            key.interestOps(ops);
            interest = ops;
        }
    }

    MpaHandshake handshake() {
        return handshake;
    }

    JwarpListener listener() {
        return listener;
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
        try {
            InetSocketAddress a = (InetSocketAddress) channel.getRemoteAddress();
            return a != null ? a : connectTarget;
        } catch (IOException e) {
            return connectTarget;
        }
    }

    /** One step of this connection's work; returns how much was done (0 = idle). */
    int doWork(long now) {
        try {
            return switch (phase) {
                case CONNECTING -> connectWork(now);
                case HANDSHAKE -> handshakeWork(now);
                case RUNNING -> runningWork(now);
                default -> qp == null ? 0 : qp.stream.flush();
            };
        } catch (IOException e) {
            if (phase == HANDSHAKE) {
                setupLost(e);        // reset or TCP error before the connection ran: exactly one ConnectError
            } else {
                lost();
            }
            return 1;
        }
    }

    /**
     * TCP failed (a reset, most often) during MPA setup: the connection ends with a
     * {@link CmEvent.ConnectError} on the side's handler, as a clean close does; without it the
     * connecting application would wait for an event that never comes.
     */
    private void setupLost(IOException e) {
        String peer = peerName();
        String why = "the peer " + peer + " reset the connection during MPA setup ("
                + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")";
        closeChannel();
        phase = CLOSED;
        if (active) {
            failQp();
            emit(new CmEvent.ConnectError(qp, CmEvent.ConnectError.Kind.PROTOCOL, why + privateDataHint()));
        } else {
            failPassive(CmEvent.ConnectError.Kind.PROTOCOL, peer, why);
        }
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
        if (phase == HANDSHAKE || phase == CONNECTING) {
            setupLost(new IOException(e.toString()));
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

    private int connectWork(long now) throws IOException {
        boolean connected;
        try {
            connected = channel.finishConnect();
        } catch (IOException e) {
            closeChannel();
            phase = CLOSED;
            failQp();
            emit(new CmEvent.Unreachable(qp, remoteAddress(), e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        }
        if (!connected) {
            if (now - connectDeadline >= 0) {
                closeChannel();
                phase = CLOSED;
                failQp();
                emit(new CmEvent.ConnectError(qp, CmEvent.ConnectError.Kind.TIMEOUT, "TCP connect timed out"));
                return 1;
            }
            return 0;
        }
        interest(SelectionKey.OP_READ);
        DeviceConfig cfg = device.config();
        policy = MpaPolicies.of(cfg, connectIrd, connectOrd);
        long replyDeadline = Math.min(connectDeadline - now, cfg.mpaTimeouts().awaitReply().toNanos());
        handshake = MpaHandshake.initiator(policy, connectPrivateData, now, java.time.Duration.ofNanos(replyDeadline));
        phase = HANDSHAKE;
        return 1;
    }


    private int handshakeWork(long now) throws IOException {
        int work = writeSetupOutput();
        int n = channel.read(rx);
        if (n < 0 && !active && handshake.phase() == MpaHandshake.Phase.REJECTED && setupOutput == null
                && handshake.output().length == 0) {
            n = 0; // the client closed on reading our reject, as it should: the REJECTED step below ends it
        }
        if (n < 0) {
            String peer = peerName();
            closeChannel();
            phase = CLOSED;
            if (active) {
                failQp();
                emit(new CmEvent.ConnectError(qp, CmEvent.ConnectError.Kind.PROTOCOL,
                        "the peer closed the connection during MPA setup" + privateDataHint()));
            } else {
                if (handshake.phase() == MpaHandshake.Phase.ESTABLISHED && setupOutput == null
                        && handshake.output().length == 0) {
                    replied(); // the accept's Reply did leave; the client went away after it
                }
                failPassive(CmEvent.ConnectError.Kind.PROTOCOL, peer, "the peer " + peer
                        + " closed the connection during MPA setup");
            }
            return 1;
        }
        if (n > 0) {
            if (!active) {
                firstBytes.add(rxSegment, 0, n);
            }
            long used = handshake.onBytes(rxSegment, 0, n, now);
            if (used < n) {
                leftover = rxSegment.asSlice(used, n - used).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            }
            rx.clear();
            work++;
        }
        handshake.onTime(now);
        switch (handshake.phase()) {
            case AWAIT_DECISION -> {
                if (!requestDelivered) {
                    requestDelivered = true;
                    emit(new CmEvent.ConnectRequest(new JwarpConnectionRequest(device, this)));
                    work++;
                }
            }
            case ESTABLISHED -> {
                work += writeSetupOutput();
                if (setupOutput == null && handshake.output().length == 0) {
                    replied();
                    enterRunning();
                    work++;
                }
            }
            case REJECTED -> {
                work += writeSetupOutput();
                if (setupOutput == null) {
                    String peer = peerName();
                    closeChannel();
                    phase = CLOSED;
                    if (active) {
                        failQp();
                        emit(new CmEvent.Rejected(qp, handshake.peerPrivateData(), handshake.failure()));
                    } else if (!requestDelivered) {
                        // refused by this side's MPA policy, not by the application: it has not
                        // heard of this client yet
                        failPassive(CmEvent.ConnectError.Kind.NEGOTIATION, peer, "refused the client " + peer + ": "
                                + handshake.failure());
                    } else if (qp != null) {
                        // the application accepted, but with parameters the Request cannot take
                        failPassive(CmEvent.ConnectError.Kind.NEGOTIATION, peer, handshake.failure());
                    } else {
                        replied();
                    }
                    work++;
                }
            }
            case FAILED -> {
                String peer = peerName();
                closeChannel();
                phase = CLOSED;
                boolean timeout = handshake.failure().contains("in time");
                CmEvent.ConnectError.Kind kind = timeout ? CmEvent.ConnectError.Kind.TIMEOUT
                        : handshake.terminate().isPresent() && handshake.terminate().get() != MpaError.INVALID_REQUEST_OR_REPLY
                        ? CmEvent.ConnectError.Kind.NEGOTIATION : CmEvent.ConnectError.Kind.PROTOCOL;
                if (active) {
                    failQp();
                    emit(new CmEvent.ConnectError(qp, kind, handshake.failure()));
                } else {
                    failPassive(kind, peer, (timeout ? "" : "the client " + peer + ": ") + handshake.failure()
                            + (timeout ? " from " + peer : ""));
                }
                work++;
            }
            default -> {
                // still waiting
            }
        }
        return work;
    }

    /**
     * Linux siw and Chelsio cxgb4 take at most 256 bytes of private data (RFC 5044 allows 512) and
     * close the connection, with no Reply, on a larger Request.
     */
    private String privateDataHint() {
        int pd = handshake.request() == null ? 0 : handshake.request().privateDataLength();
        return pd > MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH ? " (our MPA Request carried " + pd
                + " bytes of private data; siw and cxgb4 close the connection above "
                + MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH + ")" : "";
    }

    /** Writes what the handshake wants sent (the Request or the Reply); 1 if anything went out. */
    private int writeSetupOutput() throws IOException {
        if (setupOutput == null) {
            byte[] out = handshake.output();
            if (out.length == 0) {
                return 0;
            }
            handshake.outputWritten();
            setupOutput = ByteBuffer.wrap(out);
        }
        channel.write(setupOutput);
        if (!setupOutput.hasRemaining()) {
            setupOutput = null;
        }
        return 1;
    }

    /**
     * Engine thread, passive side: the application accepted with {@code qp}. Returns false (and
     * fails {@code sent}) if the setup already ended (it timed out, or the client left).
     */
    boolean accept(JwarpQp acceptor, byte[] privateData, int ord, int ird, CompletableFuture<Void> sent) {
        replySent = sent;
        if (phase == CLOSED || handshake.phase() != MpaHandshake.Phase.AWAIT_DECISION) {
            replyFailed(setupEnded());
            return false;
        }
        qp = acceptor;
        acceptor.connection = this;
        DeviceConfig cfg = device.config();
        policy = MpaPolicies.of(cfg, responderIrd(cfg, ird), ord);
        handshake.accept(privateData, policy);
        return true;
    }

    /**
     * The IRD this responder answers with: the application's, raised to the initiator's ORD where
     * the device can serve it (RFC 6581 §9.1: responder IRD >= initiator ORD; AcceptParams says the
     * provider raises it). The responder's ORD needs no care here: the negotiation lowers it to the
     * initiator's IRD.
     */
    private int responderIrd(DeviceConfig cfg, int ird) {
        MpaV2Header h = handshake.request().enhancedHeader();
        if (h == null || h.ord() == MpaV2Header.NO_NEGOTIATION || h.ord() <= ird) {
            return ird;
        }
        return Math.min(h.ord(), cfg.limits().maxIrd());
    }

    /** Engine thread, passive side: the application refused. */
    void reject(byte[] privateData, CompletableFuture<Void> sent) {
        replySent = sent;
        if (phase == CLOSED || handshake.phase() != MpaHandshake.Phase.AWAIT_DECISION) {
            replyFailed(setupEnded());
            return;
        }
        handshake.reject(privateData);
    }

    private String setupEnded() {
        return "the connection setup had already ended" + (handshake.failure() == null ? ""
                : " (" + handshake.failure() + ")");
    }

    /**
     * Device close: a Reply the application asked for still goes out before the socket closes
     * (a server that rejects and stops at once must not leave its client without the reason).
     * The socket is non-blocking; a Reply (at most 512 bytes of private data and a 20-byte frame)
     * fits the socket's send buffer, so one write carries it.
     */
    void shutdown() {
        if (phase == HANDSHAKE && !active && (handshake.phase() == MpaHandshake.Phase.REJECTED
                || handshake.phase() == MpaHandshake.Phase.ESTABLISHED)) {
            try {
                writeSetupOutput();
                if (setupOutput == null) {
                    if (handshake.phase() == MpaHandshake.Phase.REJECTED) {
                        closeChannel();
                        phase = CLOSED;
                    }
                    replied();
                }
            } catch (IOException e) {
                replyFailed(e.toString());
            }
        }
        disconnect();
        replyFailed("the device closed");
    }

    private void enterRunning() throws IOException {
        MpaParameters mp = handshake.parameters();
        StreamParameters sp = StreamParameters.of(mp, emss(), device.config().rfc7306());
        RdmapStream stream = qp.stream;
        stream.establish(sp, 0);
        sink.start(sp.crc(), sp.markersTx(), 0);
        receiver.start(qp.maxSge(), sp.markersRx(), device.rxDirectFrom());
        qp.connection = this;
        qp.state(QpState.RTR);
        if (mp.rtr().isPresent()) {
            if (active) {
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
            leftover = null;
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
        if (active && !nudged && stream.fpdusReceived() == 0 && stream.fpdusSent() > 0
                && now - runningSince >= SILENT_PEER_NUDGE_NANOS && stream.state() == RdmapStream.State.RTS) {
            nudged = true;
            stream.queueNudge();
            work += stream.transmit(sink);
            work += drainTx();
        }
        if (!established) {
            checkEstablished();
            if (!established && !active && now - rtrDeadline >= 0) {
                // RFC 5044 §7.1.2 rule 6: a peer that never sends its RTR must not hold the connection
                phase = CLOSED;
                closeChannel();
                failQp();
                emit(new CmEvent.ConnectError(qp, CmEvent.ConnectError.Kind.TIMEOUT,
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
        boolean rtr = handshake.parameters().rtr().isPresent();
        boolean ready = active ? !stream.rtrPending() : !rtr || stream.fpdusReceived() > 0;
        if (ready && stream.state() == RdmapStream.State.RTS) {
            established = true;
            qp.state(QpState.RTS);
            emit(new CmEvent.Established(qp, qp.connectionAttr().orElseThrow(), handshake.peerPrivateData()));
        }
    }

    /**
     * Passive side: setup failed before (or without) the application's answer. The listener's
     * handler hears of it (rdma_cm's RDMA_CM_EVENT_CONNECT_ERROR), so that a server can say why a
     * client got nowhere; a client that sent something other than the start of an MPA Request is
     * named by its first bytes.
     */
    private void failPassive(CmEvent.ConnectError.Kind kind, String peer, String reason) {
        if (qp != null) {
            failQp();
        }
        if (firstBytes.any() && !firstBytes.startsLikeMpa()) {
            kind = CmEvent.ConnectError.Kind.PROTOCOL;
            reason = "the peer " + peer + " is not speaking MPA: first bytes " + firstBytes.quoted();
        }
        replyFailed(reason);
        emit(new CmEvent.ConnectError(qp, kind, reason));
    }

    /** Passive side: the MPA Reply the application asked for has been handed to TCP. */
    private void replied() {
        if (replySent != null) {
            replySent.complete(null);
        }
    }

    /** Passive side: the MPA Reply the application asked for will never be sent. */
    private void replyFailed(String why) {
        if (replySent != null && !replySent.isDone()) {
            replySent.completeExceptionally(new IllegalStateException("the MPA Reply was not sent: " + why));
        }
    }

    /** The remote address as host:port, for messages (read before the channel closes). */
    private String peerName() {
        InetSocketAddress a = remoteAddress();
        return a == null ? "(address unknown)" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** Connection setup failed: the QP goes to ERROR and anything posted is flushed. */
    private void failQp() {
        qp.stream.connectionLost();
        qp.state(QpState.ERROR);
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

    /** TCP failed under the stream (reset, error): no Terminate can be sent; everything is flushed. */
    private void lost() {
        if (qp != null) {
            qp.stream.connectionLost();
        }
        end(CmEvent.Disconnected.Cause.CONNECTION_LOST);
    }

    private void end(CmEvent.Disconnected.Cause cause) {
        if (phase == CLOSED) {
            return;
        }
        boolean wasRunning = phase == RUNNING;
        phase = CLOSED;
        closeChannel();
        replyFailed("the connection closed (" + cause + ")");
        if (qp != null) {
            qp.state(QpState.ERROR);
            qp.stream.flush();
            if (wasRunning) {
                int terminate = qp.stream.peerTerminate() >= 0 ? qp.stream.peerTerminate()
                        : qp.stream.terminateCause() != null ? qp.stream.terminateCause().controlBits() : 0;
                emit(new CmEvent.Disconnected(qp, cause, terminate));
            }
        }
    }

    boolean closed() {
        return phase == CLOSED;
    }

    private void closeChannel() {
        try {
            channel.close();
        } catch (IOException e) {
            device.report(new IOException("closing " + channel + " failed", e));
        }
    }

    private void emit(CmEvent event) {
        device.deliver(handler, event);
    }

    @Override
    public String toString() {
        return "Connection[" + (active ? "active" : "passive") + ", phase " + phase + ", " + qp + "]";
    }
}

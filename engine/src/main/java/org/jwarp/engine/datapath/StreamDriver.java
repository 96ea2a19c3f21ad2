package org.jwarp.engine.datapath;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import org.jwarp.engine.cm.InterfaceMtu;
import org.jwarp.engine.cm.SetupFailure;
import org.jwarp.engine.io.IoCompletion;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.SocketIo;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.engine.runtime.EngineScheduler;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.stack.MpaHandshake;
import org.jwarp.stack.RdmapStream;
import org.jwarp.stack.StreamParameters;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.QpAttr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.wire.fpdu.Mulpdu;
import org.jwarp.wire.mpa.MpaParameters;
import org.jwarp.wire.mpa.RtrType;

/**
 * The running half of a {@link Connection}: from the end of the MPA exchange on, socket bytes go
 * into the QP's {@link RdmapStream} (placed straight from the socket where it can,
 * {@link SocketReceiver}) and its FPDUs go out gathered from registered memory
 * ({@link GatherFpduSink}); the RTR start of RFC 6581 decides when the connection is established.
 */
public final class StreamDriver {

    /**
     * How long a peer may stay silent after our first FPDUs before we send one zero-length RDMA
     * Write (see {@link RdmapStream#queueNudge()}): Linux siw 6.1 moves the socket under its QP only
     * after its side of the MPA exchange (the Reply it sent, or the Reply it read), and an FPDU that
     * arrives in between lies unread until more bytes come. Either role: a responder whose
     * initiator asked for no RTR may send first (as siw does), and meets the same. Setup path only;
     * once per connection.
     */
    static final long SILENT_PEER_NUDGE_NANOS = 200_000_000L;

    /**
     * Responder whose initiator asked for no RTR: how long it holds its first FPDUs for the
     * initiator's (RFC 5044 §7.1.2 rule 4). Without RFC 6581's RTR an initiator whose application
     * waits for the server to speak (librdmacm's cmatose) would never send, so after this the
     * responder sends what its application posted, as siw does at once; the wait gives the
     * initiator time to take its socket into FPDU mode after reading our Reply (siw 6.1 loses or
     * refuses an FPDU that arrives before). Setup path only; once per connection.
     */
    static final long RESPONDER_GRACE_NANOS = 100_000_000L;

    private final Connection c;
    private final SocketReceiver receiver;
    private final GatherFpduSink sink;
    private CounterSet counters;
    private int cSocketWrites;
    private int cSocketReads;
    private boolean established;
    private long rtrDeadline;
    private long runningSince;
    private boolean nudged;
    /** Responder without RTR: when the hold for the initiator's first FPDU ends (0: no such hold). */
    private long responderSpeaksAt;
    /** The engine thread that holds this connection's clock timer ({@link #timerDue}), and for when. */
    private EngineWorker timerOn;
    private long timerAt;

    StreamDriver(Connection c, SocketReceiver receiver) {
        this.c = c;
        this.receiver = receiver;
        this.sink = new GatherFpduSink();
    }

    /** True once the connection is established (RFC 6581: the RTR is out, or it arrived). */
    boolean established() {
        return established;
    }

    /**
     * The transmit half of the work, which the duty cycle runs for every connection before any
     * socket read: a freshly posted request leaves without waiting behind the read system calls of
     * this or another connection. {@code batch}: the write may be queued for the engine thread's
     * flush, with the other connections' ({@link #drainTxBatched}).
     */
    int transmit(boolean woke, boolean batch) throws IOException {
        if (woke) {
            fullSocketWait = 0;             // room in the socket may be what ended the sleep
        }
        sink.pool(c.owner().staging());
        return c.qp().stream().transmit(sink) + (batch ? drainTxBatched() : drainTx());
    }

    /**
     * The small-message send, on the thread that posted {@code wr} and holds the engine: with
     * nothing framed and unwritten, a one-FPDU Write or Send is framed straight from the request
     * and written in one call; bytes the socket does not take stay in the sink, and its
     * completion with them, for the general path to finish. Returns 1 if it was framed, 0 if it
     * must take the send queue. An inline request's data is always copied into staging here
     * (below {@link GatherFpduSink#ZERO_COPY_FROM}): the poster may reuse it once the post returns.
     */
    int sendDirect(SendWr wr) throws IOException {
        if (sink.pending() != 0 || wr.hasFlag(SendFlags.INLINE) && wr.totalLength() >= GatherFpduSink.ZERO_COPY_FROM) {
            return 0;
        }
        sink.pool(c.owner().staging());
        if (!c.qp().stream().sendDirect(wr, sink)) {
            return 0;
        }
        drainTx();
        return 1;
    }

    /**
     * As {@link #drainTx}, where the layer batches writes queued to go out with the other
     * connections' of this duty cycle in one system call: the engine thread's flush, right after
     * the transmit half of every connection, calls {@link #writeDone} with the outcome.
     */
    private int drainTxBatched() throws IOException {
        if (sink.pending() == 0 || fullSocketWait > 0) {
            return drainTx();
        }
        return sink.drainLater(writeDone) ? 1 : write();
    }

    private final IoCompletion writeDone = this::writeDone;

    /** The outcome of a write {@link #drainTxBatched} queued. */
    private void writeDone(long result) {
        try {
            wrote(sink.drained(result));
        } catch (IOException e) {
            c.failedIo();
        } catch (RuntimeException e) {
            c.failed(e);
        }
    }

    /**
     * Nothing to send and nothing to watch but the clock: established, in full operation, nothing
     * framed and unwritten, and the one timer it may have (the hold for the initiator's first FPDU,
     * the nudge of a peer that never spoke, {@link #SILENT_PEER_NUDGE_NANOS}) held by its engine
     * thread, which visits it again when that is due: it may be parked meanwhile.
     */
    boolean quiet() {
        RdmapStream stream = c.qp().stream();
        if (!established || sink.pending() != 0 || stream.state() != RdmapStream.State.RTS) {
            return false;
        }
        long due = timerDue();
        return due == EngineScheduler.NO_TIMER || timerOn == c.owner() && timerAt == due;
    }

    /**
     * When this running connection next needs a duty cycle that no socket or post brings: the
     * RTR's timeout (responder), its clock timer, or {@link EngineScheduler#POLL} while bytes wait
     * for room or the RTR for its turn.
     */
    long deadline() {
        RdmapStream stream = c.qp().stream();
        if (sink.pending() != 0 || stream.state() != RdmapStream.State.RTS) {
            return EngineScheduler.POLL;
        }
        if (!established) {
            return c.handshake().isInitiator() ? EngineScheduler.POLL : rtrDeadline;
        }
        return timerDue();
    }

    /** The end of the hold for the initiator's first FPDU, or the silent peer's nudge; else NO_TIMER. */
    private long timerDue() {
        RdmapStream stream = c.qp().stream();
        long due = responderSpeaksAt != 0 ? responderSpeaksAt : EngineScheduler.NO_TIMER;
        if (!nudged && stream.fpdusReceived() == 0 && stream.fpdusSent() > 0
                && stream.state() == RdmapStream.State.RTS) {
            due = Math.min(due, runningSince + SILENT_PEER_NUDGE_NANOS);
        }
        return due;
    }

    /** Its engine thread holds the connection's clock timer, so that it may be parked until then. */
    private void armTimer() {
        long due = timerDue();
        EngineWorker owner = c.owner();
        if (due != EngineScheduler.NO_TIMER && (timerOn != owner || timerAt != due)) {
            timerOn = owner;
            timerAt = due;
            owner.wakeAt(c, due);
        }
    }

    /** Pieces one socket call of this connection may have. */
    private int ioPieces() {
        return Math.max(GatherFpduSink.MAX_IOV, c.qp().maxSge() + 1);
    }

    /**
     * The connection moved to the engine thread of {@code io}: its socket calls go through that
     * thread's driver (an io_uring layer's ring is the thread's own). Between duty cycles: no
     * write is queued for a flush.
     */
    void reopen(IoDriver io) {
        SocketIo next = c.socket().open(io, ioPieces());
        sink.io(next);
        receiver.io(next);
    }

    /** Bytes framed and not yet taken by the socket. */
    long pending() {
        return sink.pending();
    }

    /** The MPA exchange is done: full operation begins, with the bytes that followed the MPA frame. */
    void start(MpaHandshake handshake, byte[] leftover) throws IOException {
        JwarpQp qp = c.qp();
        MpaParameters mp = handshake.parameters();
        StreamParameters sp = StreamParameters.of(mp, emss(), c.device().config().rfc7306());
        RdmapStream stream = qp.stream();
        stream.establish(sp, 0);
        stream.smallMessagePath(c.device().jwarpConfig().smallMessagePath());
        counters = qp.counterSet();
        cSocketWrites = counters.require(CounterNames.SOCKET_WRITES);
        cSocketReads = counters.require(CounterNames.SOCKET_READS);
        SocketIo io = c.device().sockets().open(c, ioPieces());
        sink.start(io, sp.crc(), sp.markersTx(), 0);
        receiver.start(io, qp.maxSge(), sp.markersRx(), c.device().sockets().rxDirectFrom());
        qp.connection(c);
        qp.lifecycle().mpaDone();
        boolean initiator = handshake.isInitiator();
        boolean graceful = false;
        if (mp.rtr().isPresent()) {
            if (initiator) {
                stream.queueRtr(mp.rtr().get());
            } else {
                stream.holdTransmitUntilFirstFpdu();
            }
        } else if (!initiator) {
            stream.holdTransmitUntilFirstFpdu();
            graceful = true;
        }
        qp.connectionAttr(new QpAttr(sp.ord(), sp.ird(), mp.peerOrd(), mp.peerIrd(), mp.revision(), sp.crc(),
                sp.markersTx(), sp.markersRx(), mp.rtr().map(StreamDriver::rtrKind).orElse(null), c.localAddress(),
                c.remoteAddress()));
        c.running();
        if (!handshake.isInitiator()) {
            // the RTR makes the responder connected before what follows it completes
            stream.onFirstFpdu(() -> {
                if (!established) {
                    checkEstablished();
                }
            });
        }
        if (leftover != null) {
            stream.receive(MemorySegment.ofArray(leftover), 0, leftover.length);
        }
        runningSince = c.device().clock().nanoTime();
        c.schedule().started(runningSince);
        responderSpeaksAt = graceful ? runningSince + RESPONDER_GRACE_NANOS : 0;
        rtrDeadline = runningSince + c.device().config().mpaTimeouts().awaitRtr().toNanos();
        work(c.device().clock().nanoTime());
    }

    private static DeviceConfig.RtrKind rtrKind(RtrType t) {
        return switch (t) {
            case SEND -> DeviceConfig.RtrKind.SEND;
            case WRITE -> DeviceConfig.RtrKind.WRITE;
            case READ -> DeviceConfig.RtrKind.READ;
        };
    }

    /**
     * EMSS: the connection's current TCP MSS (the peer's MSS option and the path MTU, net of TCP
     * options), so that an FPDU starts every segment also when a hop has a smaller MTU than our
     * interface (RFC 5044 §8); else from the MTU of the interface the connection uses.
     */
    private int emss() {
        int mss = c.socket().mss();
        // Linux also caps its MSS at half the largest window the peer offered: on loopback's 64 KiB
        // MTU that cap, not the path, is what TCP_MAXSEG reports, so only an Ethernet-sized MSS is taken.
        if (mss > 0 && mss < TRUSTED_MSS_LIMIT) {
            return Math.max(Mulpdu.MINIMUM + 16, mss);
        }
        try {
            InetSocketAddress local = c.socket().localAddress();
            if (local == null) {
                return 1448;
            }
            int mtu = InterfaceMtu.of(local.getAddress(), c.device().clock().nanoTime());
            int ip = local.getAddress() instanceof Inet6Address ? 40 : 20;
            return Math.max(Mulpdu.MINIMUM + 16, mtu - ip - 20 - 12);
        } catch (IOException e) {
            return 1448;
        }
    }

    /** An MSS below this is the path's (jumbo frames included), never the half-window cap. */
    private static final int TRUSTED_MSS_LIMIT = 16 * 1024;

    /** One step of the running connection's work. */
    int work(long now) throws IOException {
        RdmapStream stream = c.qp().stream();
        sink.pool(c.owner().staging());
        // The duty cycle ran transmitWork() before any read; what was framed since goes out now.
        // Bytes a full socket left pending wait for a later cycle's transmitWork() (a second
        // write into a full socket would find no room, and costs a system call).
        int work = stream.transmit(sink);
        if (work > 0) {
            work += drainTx();
        }
        long n = 0;
        if (c.schedule().readable()) {
            n = receiver.read(stream, c.owner().staging().rx());
            counters.increment(cSocketReads);
        }
        if (n > 0) {
            work++;
            c.schedule().heard(now);
            // what the bytes just received call for (Read Responses, a Terminate) goes out now
            work += stream.transmit(sink);
            work += drainTx();
        } else if (n < 0) {
            stream.connectionLost();
            c.end(CmEvent.Disconnected.Cause.PEER_CLOSED);
            return 1;
        }
        boolean initiator = c.handshake().isInitiator();
        if (responderSpeaksAt != 0 && now - responderSpeaksAt >= 0) {
            responderSpeaksAt = 0;
            if (stream.fpdusReceived() == 0) {
                stream.releaseTransmitHold();
                work += stream.transmit(sink);
                work += drainTx();
            }
        }
        if (!nudged && stream.fpdusReceived() == 0 && stream.fpdusSent() > 0
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
                c.setupFailed(new SetupFailure(SetupFailure.Kind.TIMEOUT,
                        "no RTR arrived within " + c.device().config().mpaTimeouts().awaitRtr()));
                return 1;
            }
        }
        if (stream.state() == RdmapStream.State.ERROR) {
            work += stream.flush();
            if (sink.pending() == 0) {
                c.end(stream.peerTerminate() >= 0 ? CmEvent.Disconnected.Cause.TERMINATE_RECEIVED
                        : CmEvent.Disconnected.Cause.TERMINATE_SENT);
            }
        }
        if (established) {
            armTimer();
        }
        return work;
    }

    /**
     * A socket call of the running stream failed (reset, broken pipe): whether the peer ended the
     * stream with a Terminate. A peer that sends one and closes while our bytes lie unread in its
     * socket resets the connection, and our next write fails before we read its Terminate, which
     * the kernel still holds for us: read what is left (at most one staging buffer's worth a call,
     * a few calls), so that the end names the peer's reason (RFC 5040 §6.2) rather than a lost
     * connection. Error path only.
     */
    boolean peerTerminatedBeforeFailure() {
        RdmapStream stream = c.qp().stream();
        try {
            for (int i = 0; i < 16 && stream.state() == RdmapStream.State.RTS; i++) {
                if (receiver.read(stream, c.owner().staging().rx()) <= 0) {
                    break;
                }
            }
        } catch (IOException e) {
            // nothing more to read: the connection is lost
        }
        return stream.peerTerminate() >= 0;
    }

    /**
     * Calls of {@link #drainTx()} — about one per duty cycle — between two writes into a socket
     * that was full. A full socket frees room only as the peer's ACKs come in, and a retry every
     * cycle would mostly be an EAGAIN, a system call each.
     */
    public static final int FULL_SOCKET_RETRY_EVERY = 8;

    /** Calls of {@link #drainTx()} left before the next write into a socket that was full. */
    private int fullSocketWait;

    /** Writes what is framed, unless the socket was full at the last write and its wait is not over. */
    int drainTx() throws IOException {
        if (sink.pending() == 0) {
            return 0;
        }
        if (fullSocketWait > 0) {
            fullSocketWait--;
            return 0;
        }
        return write();
    }

    /** Writes what is framed now, full socket or not (a local disconnect's last flush). */
    int flushTx() throws IOException {
        return sink.pending() == 0 ? 0 : write();
    }

    private int write() throws IOException {
        return wrote(sink.drain());
    }

    /** After a write that took {@code written} bytes: completions, the full-socket wait, the wake-up interest. */
    private int wrote(long written) {
        fullSocketWait = sink.pending() > 0 ? FULL_SOCKET_RETRY_EVERY - 1 : 0;
        counters.increment(cSocketWrites);
        if (written > 0) {
            c.qp().stream().released(sink.written());
        }
        // wake for writability only while bytes wait for room in the socket
        c.interest(sink.pending() > 0 ? IoDriver.OP_READ | IoDriver.OP_WRITE : IoDriver.OP_READ);
        return written > 0 ? 1 : 0;
    }

    /** RFC 6581: the initiator is connected once its RTR is out, the responder once the RTR arrived. */
    private void checkEstablished() {
        JwarpQp qp = c.qp();
        RdmapStream stream = qp.stream();
        MpaHandshake h = c.handshake();
        boolean rtr = h.parameters().rtr().isPresent();
        boolean ready = h.isInitiator() ? !stream.rtrPending() : !rtr || stream.fpdusReceived() > 0;
        if (ready && stream.state() == RdmapStream.State.RTS) {
            established = true;
            if (!h.isInitiator()) {
                c.responder().leftAdmission();  // the listener's admission no longer holds it
            }
            qp.lifecycle().established();
            c.emit(new CmEvent.Established(qp, qp.connectionAttr().orElseThrow(), h.peerPrivateData()));
        }
    }

}

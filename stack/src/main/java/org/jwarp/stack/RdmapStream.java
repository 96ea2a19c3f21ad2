package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.Wire;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.ddp.DdpSegmenter;
import org.jwarp.wire.fpdu.Fpdu;
import org.jwarp.wire.fpdu.FpduDecoder;
import org.jwarp.wire.mpa.RtrType;
import org.jwarp.wire.rdmap.AtomicRequestHeader;
import org.jwarp.wire.rdmap.AtomicResponseHeader;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.ImmediateDataHeader;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.ReadRequestHeader;
import org.jwarp.wire.rdmap.SiwTerminateLayout;
import org.jwarp.wire.rdmap.TerminateError;
import org.jwarp.wire.rdmap.TerminateHeader;

/**
 * The protocol machine of one RDMAP stream — one connected RC queue pair — in full operation
 * (RFC 5040, RFC 5041, RFC 5044 §4). Single-threaded and deterministic: it is driven by
 * {@link #transmit} (work requests → FPDUs), {@link #receive} (stream bytes → placement and
 * completions) and {@link #flush}; it owns no thread, socket or clock, and after
 * {@link #establish} its data path allocates nothing and takes no lock.
 *
 * <p>Transmit: the send queue's requests go out in order, one message at a time (segments of two
 * messages never interleave, reference §4.5), cut at MULPDU and at scatter/gather boundaries; a
 * fenced request waits for outstanding Reads (RFC 5040 §5.5); Reads wait for ORD credit. Read
 * Responses for the peer's Read Requests are generated here, with no application thread, ahead of
 * new send-queue work. A Send or Write completes when its last FPDU is handed to the LLP (RFC
 * 5040 §5.5: local completion means "handed to the LLP"); a Read when its response is placed.
 *
 * <p>Receive: every tagged segment is checked (STag, key, protection domain, access rights,
 * bounds, wrap) before one byte is placed; untagged segments go into the posted receives in MSN
 * order. Any violation queues the RFC's Terminate (first error wins, RFC 5040 §7.1), which is the
 * last message sent; the stream then enters the error state and every outstanding request
 * completes — with the mapped status if the peer's Terminate names it, else flushed.
 */
public final class RdmapStream {

    /** Lifecycle of the stream. */
    public enum State {
        /** Created; connection setup not finished. */
        IDLE,
        /** Full operation. */
        RTS,
        /** A Terminate is queued; nothing else will be sent or placed. */
        TERMINATING,
        /** Stopped: Terminate sent or received, or the connection was lost. Work is flushed. */
        ERROR
    }

    private static final int TX_NONE = 0;
    private static final int TX_DATA = 1;
    private static final int TX_IMMEDIATE = 2;
    private static final int TX_READ_RESPONSE = 3;
    private static final int TX_ATOMIC_RESPONSE = 4;
    /** 64-bit access to registered memory in the host's order, for the responder's atomics. */
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** Messages {@link #recentSegmentPayload()} looks back over. */
    public static final int RECENT_MESSAGES = 8;

    private static final int RX_IDLE = 0;
    private static final int RX_TAGGED = 1;
    private static final int RX_RECV = 2;
    private static final int RX_READ_RESPONSE = 3;
    private static final int RX_CONTROL = 4;
    private static final int RX_DISCARD = 5;

    private final int qpNum;
    private final int pd;
    private final StagTable stags;
    private final WorkQueue<SendWr> sendQueue;
    private final WorkQueue<RecvWr> recvQueue;
    private final CompletionSink sendCq;
    private final CompletionSink recvCq;
    private final boolean signalAll;
    private final CounterSet counters;
    private final int cFpdusTx;
    private final int cBytesTx;
    private final int cFpdusRx;
    private final int cBytesRx;
    private final int cTerminatesTx;
    private final int cTerminatesRx;
    private final int cCrcErrors;
    /** {@link CounterNames#RX_DIRECT_BYTES}, or -1 if the owner's counters do not have it. */
    private final int cRxDirectBytes;

    private final FpduDecoder decoder = new FpduDecoder();
    private final DdpSegmenter segmenter = new DdpSegmenter();
    private final ReadRequestHeader readRequest = new ReadRequestHeader();
    private final AtomicRequestHeader atomicRequest = new AtomicRequestHeader();
    private final TerminateHeader terminateHeader = new TerminateHeader();
    private final MemorySegment txHeader = MemorySegment.ofArray(new byte[128]);
    private final MemorySegment terminateMessage = MemorySegment.ofArray(new byte[DdpHeader.UNTAGGED_LENGTH
            + TerminateHeader.MAX_LENGTH]);
    private final Region[] txRegions;
    private final Region[] rxRegions;
    private final DirectPlacement direct;

    private StreamParameters params;
    private OutboundReadQueue orq;
    private InboundReadQueue irq;
    private State state = State.IDLE;

    // transmit
    private int txKind = TX_NONE;
    private SendWr txWr;
    private long txTotal;
    private int txSge;
    private long txSgeUsed;
    private int sendMsn = 1;
    private int readMsn = 1;
    private int atomicResponseMsn = 1;
    private int nextRequestId = 1;
    private int terminateLength;
    private boolean terminatePending;
    private TerminateError terminateCause;

    // receive
    private int rxKind = RX_IDLE;
    private RdmapOpcode rxOpcode;
    private MemorySegment rxTarget;
    private long rxTargetOffset;
    private boolean rxLastOfWrite;
    private RecvWr rxRecv;
    private long rxRecvBytes;
    private int rxRecvSge;
    private long rxRecvSgeStart;
    private int expectedSendMsn = 1;
    private int expectedReadMsn = 1;
    private int pendingSinkStag;
    private long pendingSinkTo;
    private long pendingReadSize;
    private Region pendingReadSource;
    private long pendingReadSourceOffset;
    private long immediateData;
    private int expectedAtomicResponseMsn = 1;
    private int pendingAtomicId;
    private int pendingAtomicOpcode;
    private long pendingAtomicData;
    private long pendingAtomicMask;
    private long pendingAtomicCompare;
    private long pendingAtomicCompareMask;
    private long atomicResult;
    private int invalidateStag;
    /** Per message, the largest segment payload, for the last {@link #RECENT_MESSAGES} messages. */
    private final int[] rxRecentMessages = new int[RECENT_MESSAGES];
    private int rxRecentIndex;
    private boolean rxPreviousLast = true;

    // RFC 6581 peer-to-peer start
    private RtrType rtrPending;
    private boolean txHeldForFirstFpdu;
    private long fpdusReceived;
    /** Set while the current FPDU's header is being checked (see {@link #terminate}). */
    private boolean inHeader;
    /** A DDP or RDMAP violation in the current FPDU's header, answered once its CRC holds; or null. */
    private TerminateError headerViolation;
    private long fpdusSent;

    // send completions waiting for their bytes to leave registered memory, in submission order
    private final SendCompletions pending;
    private FpduSink txSink;

    // error reporting
    private int peerTerminate = -1;
    private long cqOverruns;

    public RdmapStream(int qpNum, int pd, StagTable stags, WorkQueue<SendWr> sendQueue, WorkQueue<RecvWr> recvQueue,
                       CompletionSink sendCq, CompletionSink recvCq, boolean signalAll, int maxSge,
                       CounterSet counters) {
        this.qpNum = qpNum;
        this.pd = pd;
        this.stags = stags;
        this.sendQueue = sendQueue;
        this.recvQueue = recvQueue;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.signalAll = signalAll;
        this.counters = counters;
        this.txRegions = new Region[maxSge];
        this.rxRegions = new Region[maxSge];
        this.direct = new DirectPlacement(maxSge);
        this.pending = new SendCompletions(64);
        cFpdusTx = counters.require(CounterNames.FPDUS_TX);
        cBytesTx = counters.require(CounterNames.BYTES_TX);
        cFpdusRx = counters.require(CounterNames.FPDUS_RX);
        cBytesRx = counters.require(CounterNames.BYTES_RX);
        cTerminatesTx = counters.require(CounterNames.TERMINATES_TX);
        cTerminatesRx = counters.require(CounterNames.TERMINATES_RX);
        cCrcErrors = counters.require(CounterNames.CRC_ERRORS);
        cRxDirectBytes = counters.indexOf(CounterNames.RX_DIRECT_BYTES);
    }

    /**
     * Enters full operation with what connection setup negotiated. {@code rxStreamPosition} is the
     * position of the first byte {@link #receive} will see, counted from the start of full
     * operation (for markers; 0 normally).
     */
    public void establish(StreamParameters p, long rxStreamPosition) {
        if (state != State.IDLE) {
            throw new IllegalStateException("stream already established (state " + state + ")");
        }
        params = p;
        orq = new OutboundReadQueue(Math.max(1, p.ord()));
        irq = new InboundReadQueue(Math.max(1, p.ird()));
        decoder.start(p.crc(), p.markersRx(), p.rfc7306(), rxStreamPosition);
        state = State.RTS;
    }

    public State state() {
        return state;
    }

    public int qpNum() {
        return qpNum;
    }

    public StreamParameters parameters() {
        return params;
    }

    /** The Terminate this side queued or sent, or null. */
    public TerminateError terminateCause() {
        return terminateCause;
    }

    /** The Terminate Control bits (layer, type, code) the peer sent, or -1. */
    public int peerTerminate() {
        return peerTerminate;
    }

    /** Completions that found their completion queue full and were dropped. */
    public long cqOverruns() {
        return cqOverruns;
    }

    /** True once nothing more will be sent: the owner may close the connection gracefully. */
    public boolean finished() {
        return state == State.ERROR;
    }

    /**
     * Initiator in peer-to-peer mode (RFC 6581 §5, §9.3): the zero-length RTR message goes out
     * before anything else. A Send RTR uses Send MSN 1 and a Read RTR Read MSN 1 (and an ORD
     * credit until its zero-length Response arrives); a Write RTR uses STag 1 and TO 0, as siw does.
     */
    public void queueRtr(RtrType type) {
        rtrPending = type;
    }

    /**
     * Responder: RFC 5044 §7.1.2 rule 4 (and RFC 6581's RTR) — send nothing until the first FPDU
     * from the initiator has been received and validated.
     */
    public void holdTransmitUntilFirstFpdu() {
        txHeldForFirstFpdu = true;
    }

    /** FPDUs received whole (CRC good) since full operation began. */
    public long fpdusReceived() {
        return fpdusReceived;
    }

    /** FPDUs handed to the LLP since full operation began. */
    public long fpdusSent() {
        return fpdusSent;
    }

    /**
     * Queues a zero-length RDMA Write (STag 1, TO 0, as the Write RTR) at the next message boundary.
     * A zero-length tagged message places nothing and its STag and TO are not checked (RFC 5041
     * §5.2), so any peer takes it without effect. The engine sends one when a peer stays silent
     * after our first FPDUs: Linux siw (6.1) sends its MPA Reply before it moves the socket under its
     * QP's receive path, and an FPDU that arrives in between lies unread until more bytes arrive.
     */
    public void queueNudge() {
        if (rtrPending == null) {
            rtrPending = RtrType.WRITE;
        }
    }

    /** True while an RTR is queued and not yet handed to the LLP. */
    public boolean rtrPending() {
        return rtrPending != null;
    }

    /** Outstanding outbound Read Requests (for tests and counters). */
    public int outstandingReads() {
        return orq == null ? 0 : orq.size();
    }

    // =========================================================================================
    // Transmit
    // =========================================================================================

    /** Hands as many FPDUs to {@code sink} as it has room for; returns how many. */
    public int transmit(FpduSink sink) {
        txSink = sink;
        int frames = 0;
        while (true) {
            if (terminatePending) {
                if (!sink.hasRoom(terminateLength)) {
                    return frames;
                }
                // RFC 5040 §5.4, §6.2: the Terminate is the last message sent on the stream.
                sink.frame(terminateMessage, 0, terminateLength, terminateMessage, 0, 0);
                terminatePending = false;
                counters.increment(cTerminatesTx);
                counted(terminateLength);
                enterError();
                return frames + 1;
            }
            if (state != State.RTS || txHeldForFirstFpdu) {
                return frames;
            }
            // the RTR is the very first FPDU; a nudge waits for a message boundary, as segments of
            // two messages must not interleave (RFC 5041 §5.3; siw refuses it)
            if (rtrPending != null && txKind == TX_NONE) {
                if (!emitRtr(sink)) {
                    return frames;
                }
                frames++;
                continue;
            }
            if (txKind == TX_NONE && !startMessage()) {
                return frames;
            }
            if (!emitSegment(sink)) {
                return frames;
            }
            frames++;
        }
    }

    private void counted(int ulpduLength) {
        fpdusSent++;
        counters.increment(cFpdusTx);
        counters.add(cBytesTx, ulpduLength);
    }

    /** Chooses the next message: pending Read Responses first, then the send queue. */
    private boolean startMessage() {
        if (!irq.isEmpty() && irq.headAtomic()) {
            txKind = TX_ATOMIC_RESPONSE;
            return true;
        }
        if (!irq.isEmpty()) {
            segmenter.tagged(RdmapOpcode.RDMA_READ_RESPONSE, irq.headSinkStag(), irq.headSinkTo(), irq.headSize(),
                    params.mulpdu());
            txKind = TX_READ_RESPONSE;
            txSgeUsed = 0;
            return true;
        }
        SendWr wr = sendQueue.peek();
        if (wr == null) {
            return false;
        }
        {
            WrOpcode op = wr.opcode();
            // RFC 5040 §5.5: a fenced request waits until every earlier Read has completed.
            if (wr.hasFlag(SendFlags.FENCE) && orq.size() > 0) {
                return false;
            }
            if (op.consumesOrd() && params.ord() == 0) {
                // RFC 6581 §9.1: no more Read Requests outstanding than the peer's IRD; an ORD of 0
                // (the peer has no IRD) allows none: refuse locally, never put one on the wire
                failLocally(wr, WcStatus.LOC_QP_OP_ERR);
                return false;
            }
            if (op.consumesOrd() && orq.full()) {
                return false;
            }
            if ((op.isAtomic() || op == WrOpcode.RDMA_WRITE_WITH_IMM) && !params.rfc7306()) {
                // RFC 7306 messages only where the connection allows them (siw answers them with a
                // Terminate): refuse locally.
                failLocally(wr, WcStatus.LOC_QP_OP_ERR);
                return false;
            }
            if (!resolveSources(wr)) {
                failLocally(wr, WcStatus.LOC_PROT_ERR);
                return false;
            }
            txWr = wr;
            txTotal = wr.totalLength();
            txSge = 0;
            txSgeUsed = 0;
            switch (op) {
                case SEND, SEND_WITH_INV -> {
                    boolean se = wr.hasFlag(SendFlags.SOLICITED);
                    RdmapOpcode rop = op == WrOpcode.SEND
                            ? (se ? RdmapOpcode.SEND_WITH_SE : RdmapOpcode.SEND)
                            : (se ? RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE : RdmapOpcode.SEND_WITH_INVALIDATE);
                    segmenter.untagged(rop, sendMsn++, op == WrOpcode.SEND_WITH_INV ? wr.invalidateRkey() : 0,
                            txTotal, params.mulpdu());
                }
                case RDMA_WRITE, RDMA_WRITE_WITH_IMM ->
                        segmenter.tagged(RdmapOpcode.RDMA_WRITE, wr.rkey(), wr.remoteAddr(), txTotal, params.mulpdu());
                case RDMA_READ, ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                    // a Read or Atomic Request is one FPDU; its "segmenter" state is unused
                }
                default -> throw new IllegalStateException("unhandled opcode " + op);
            }
            txKind = TX_DATA;
            return true;
        }
    }

    /** Looks up and checks every local scatter/gather entry of a request before anything is sent. */
    private boolean resolveSources(SendWr wr) {
        int n = wr.numSge();
        if (n > txRegions.length) {
            return false;
        }
        boolean inline = wr.hasFlag(SendFlags.INLINE);
        // iWARP: an RDMA Read names exactly one sink (the Read Request carries one sink STag); an
        // atomic names one 8-byte buffer for the original value.
        boolean resultInto = wr.opcode() == WrOpcode.RDMA_READ || wr.opcode().isAtomic();
        if (resultInto && n != 1 || wr.opcode().isAtomic() && wr.sgeLength(0) != 8) {
            return false;
        }
        int access = resultInto ? Access.LOCAL_WRITE : 0;
        for (int i = 0; i < n; i++) {
            if (inline && wr.sgeInlineSource(i) != null) {
                txRegions[i] = null;
                continue;
            }
            Region r = stags.lookup(wr.sgeLkey(i));
            if (stags.checkLocal(r, pd, access, wr.sgeOffset(i), wr.sgeLength(i)) != StagTable.OK) {
                return false;
            }
            txRegions[i] = r;
        }
        return true;
    }

    private boolean emitSegment(FpduSink sink) {
        return switch (txKind) {
            case TX_DATA -> txWr.opcode() == WrOpcode.RDMA_READ ? emitReadRequest(sink)
                    : txWr.opcode().isAtomic() ? emitAtomicRequest(sink) : emitData(sink);
            case TX_ATOMIC_RESPONSE -> emitAtomicResponse(sink);
            case TX_IMMEDIATE -> emitImmediate(sink);
            case TX_READ_RESPONSE -> emitReadResponse(sink);
            default -> throw new IllegalStateException("no message in progress");
        };
    }

    private boolean emitData(FpduSink sink) {
        // skip empty scatter/gather entries so every segment but a zero-length message's carries data
        while (txSge < txWr.numSge() && txSgeUsed == txWr.sgeLength(txSge)) {
            txSge++;
            txSgeUsed = 0;
        }
        long sgeLeft = txSge < txWr.numSge() ? txWr.sgeLength(txSge) - txSgeUsed : 0;
        int length = segmenter.nextLength(sgeLeft);
        if (!sink.hasRoom(segmenter.headerLength() + length)) {
            return false;
        }
        segmenter.next(sgeLeft);
        int h = segmenter.writeHeader(txHeader, 0);
        MemorySegment src = MemorySegment.NULL;
        long srcOffset = 0;
        if (length > 0) {
            Region r = txRegions[txSge];
            src = r == null ? txWr.sgeInlineSource(txSge) : r.segment();
            srcOffset = txWr.sgeOffset(txSge) + txSgeUsed;
            txSgeUsed += length;
        }
        sink.frame(txHeader, 0, h, src, srcOffset, length);
        counted(h + length);
        if (segmenter.last()) {
            if (txWr.opcode() == WrOpcode.RDMA_WRITE_WITH_IMM) {
                txKind = TX_IMMEDIATE; // RFC 7306 §6: the Write, then an Immediate Data message
            } else {
                completeSend(txWr, WcStatus.SUCCESS, txTotal);
            }
        }
        return true;
    }

    private boolean emitImmediate(FpduSink sink) {
        int length = DdpHeader.UNTAGGED_LENGTH + ImmediateDataHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        // RFC 7306 §4.2: untagged on QN 0, it takes the next Send MSN and consumes a receive.
        RdmapOpcode op = txWr.hasFlag(SendFlags.SOLICITED) ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE
                : RdmapOpcode.IMMEDIATE_DATA;
        int h = DdpHeader.writeUntagged(txHeader, 0, true, op, 0, RdmapOpcode.QN_SEND, sendMsn++, 0);
        ImmediateDataHeader.write(txHeader, h, txWr.immData());
        sink.frame(txHeader, 0, length, MemorySegment.NULL, 0, 0);
        counted(length);
        completeSend(txWr, WcStatus.SUCCESS, txTotal);
        return true;
    }

    private boolean emitReadRequest(FpduSink sink) {
        int length = DdpHeader.UNTAGGED_LENGTH + ReadRequestHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        Region sinkRegion = txRegions[0];
        long sinkTo = sinkRegion.iova() + txWr.sgeOffset(0);
        // RFC 5040 §4.4: untagged on QN 1 with its own MSN sequence, MO 0, L set, never segmented.
        int h = DdpHeader.writeUntagged(txHeader, 0, true, RdmapOpcode.RDMA_READ_REQUEST, 0,
                RdmapOpcode.QN_READ_REQUEST, readMsn++, 0);
        ReadRequestHeader.write(txHeader, h, sinkRegion.stag(), sinkTo, txTotal, txWr.rkey(), txWr.remoteAddr());
        sink.frame(txHeader, 0, length, MemorySegment.NULL, 0, 0);
        counted(length);
        orq.push(txWr.wrId(), signalAll || txWr.hasFlag(SendFlags.SIGNALED), sinkRegion.stag(), sinkTo, txTotal);
        // the request slot goes back to the poster now; the Read completes when its response is placed
        txKind = TX_NONE;
        txWr = null;
        sendQueue.advance();
        return true;
    }

    /**
     * RFC 7306 §4.3: an Atomic Request is untagged on QN 1, in the Read Request MSN sequence and
     * under the same ORD credit; its Request Identifier pairs it with the Atomic Response.
     */
    private boolean emitAtomicRequest(FpduSink sink) {
        int length = DdpHeader.UNTAGGED_LENGTH + AtomicRequestHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        boolean cas = txWr.opcode() == WrOpcode.ATOMIC_CMP_AND_SWP;
        int id = nextRequestId++;
        int h = DdpHeader.writeUntagged(txHeader, 0, true, RdmapOpcode.ATOMIC_REQUEST, 0,
                RdmapOpcode.QN_READ_REQUEST, readMsn++, 0);
        if (cas) {
            AtomicRequestHeader.write(txHeader, h, AtomicRequestHeader.AOPCODE_COMPARE_SWAP, id, txWr.rkey(),
                    txWr.remoteAddr(), txWr.swap(), txWr.swapOrAddMask(), txWr.compareAdd(), txWr.compareMask());
        } else {
            // RFC 7306 §4.3: FetchAdd carries Compare Data 0 and a Compare Mask of all ones
            AtomicRequestHeader.write(txHeader, h, AtomicRequestHeader.AOPCODE_FETCH_ADD, id, txWr.rkey(),
                    txWr.remoteAddr(), txWr.compareAdd(), txWr.swapOrAddMask(), 0, -1L);
        }
        sink.frame(txHeader, 0, length, MemorySegment.NULL, 0, 0);
        counted(length);
        orq.pushAtomic(txWr.wrId(), signalAll || txWr.hasFlag(SendFlags.SIGNALED), id, cas, txRegions[0],
                txWr.sgeOffset(0));
        txKind = TX_NONE;
        txWr = null;
        sendQueue.advance();
        return true;
    }

    /** RFC 7306 §4.4: untagged on QN 3, its own MSN sequence, the value before the operation. */
    private boolean emitAtomicResponse(FpduSink sink) {
        int length = DdpHeader.UNTAGGED_LENGTH + AtomicResponseHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        int h = DdpHeader.writeUntagged(txHeader, 0, true, RdmapOpcode.ATOMIC_RESPONSE, 0,
                RdmapOpcode.QN_ATOMIC_RESPONSE, atomicResponseMsn++, 0);
        // carried out now, in request order with the Read Responses before it (RFC 5040 §5.5)
        AtomicResponseHeader.write(txHeader, h, irq.headRequestId(), performAtomic());
        sink.frame(txHeader, 0, length, MemorySegment.NULL, 0, 0);
        counted(length);
        irq.pop();
        txKind = TX_NONE;
        return true;
    }

    private boolean emitRtr(FpduSink sink) {
        int length = switch (rtrPending) {
            case WRITE -> DdpHeader.TAGGED_LENGTH;
            case SEND -> DdpHeader.UNTAGGED_LENGTH;
            case READ -> DdpHeader.UNTAGGED_LENGTH + ReadRequestHeader.LENGTH;
        };
        if (!sink.hasRoom(length) || (rtrPending == RtrType.READ && orq.full())) {
            return false;
        }
        switch (rtrPending) {
            case WRITE -> DdpHeader.writeTagged(txHeader, 0, true, RdmapOpcode.RDMA_WRITE, 1, 0);
            case SEND -> DdpHeader.writeUntagged(txHeader, 0, true, RdmapOpcode.SEND, 0, RdmapOpcode.QN_SEND,
                    sendMsn++, 0);
            case READ -> {
                int h = DdpHeader.writeUntagged(txHeader, 0, true, RdmapOpcode.RDMA_READ_REQUEST, 0,
                        RdmapOpcode.QN_READ_REQUEST, readMsn++, 0);
                // reference §8: sink STag 0 / TO 0, size 0, source STag 1 / TO 0, as siw sends it;
                // the zero-length Response must echo the sink exactly.
                ReadRequestHeader.write(txHeader, h, 0, 0, 0, 1, 0);
                orq.push(-1, false, 0, 0, 0);
            }
        }
        sink.frame(txHeader, 0, length, MemorySegment.NULL, 0, 0);
        counted(length);
        rtrPending = null;
        return true;
    }

    private boolean emitReadResponse(FpduSink sink) {
        int length = segmenter.nextLength(Long.MAX_VALUE);
        if (!sink.hasRoom(segmenter.headerLength() + length)) {
            return false;
        }
        segmenter.next();
        int h = segmenter.writeHeader(txHeader, 0);
        Region src = irq.headSource();
        // RFC 5040 §4.4: a zero-length Read carries no source and its Response no payload
        MemorySegment from = length == 0 ? MemorySegment.NULL : src.segment();
        sink.frame(txHeader, 0, h, from, irq.headSourceOffset() + txSgeUsed, length);
        txSgeUsed += length;
        counted(h + length);
        if (segmenter.last()) {
            irq.pop();
            txKind = TX_NONE;
        }
        return true;
    }

    private void completeSend(SendWr wr, WcStatus status, long bytes) {
        boolean signaled = signalAll || wr.hasFlag(SendFlags.SIGNALED) || status != WcStatus.SUCCESS;
        long wrId = wr.wrId();
        WcOpcode opcode = wr.opcode().completionOpcode();
        txKind = TX_NONE;
        txWr = null;
        // the slot goes back before the completion shows: a poster that re-posts as soon as it
        // reaps the completion must find room (as a full send queue on a verbs device does)
        sendQueue.advance();
        if (signaled) {
            sendCompletion(wrId, status, opcode, bytes, txSink.completionBarrier());
        }
    }

    /**
     * Publishes a send-queue completion, or queues it behind earlier ones: completions come in
     * submission order (RFC 5040 §5.5), and a Send or Write whose payload the sink still
     * references waits until {@link #released} says the socket has taken it.
     */
    private void sendCompletion(long wrId, WcStatus status, WcOpcode opcode, long bytes, long barrier) {
        if (barrier < 0 && pending.isEmpty()) {
            complete(sendCq, wrId, status, opcode, bytes, false);
        } else {
            pending.add(wrId, status, opcode, bytes, Math.max(barrier, 0));
        }
    }

    /**
     * The owner wrote the first {@code bytesWritten} framed bytes (the sink's barrier count) to the
     * socket: the completions waiting for them are published, in order.
     */
    public void released(long bytesWritten) {
        while (!pending.isEmpty() && pending.headBarrier() <= bytesWritten) {
            complete(sendCq, pending.headWrId(), pending.headStatus(), pending.headOpcode(), pending.headBytes(), false);
            pending.pop();
        }
    }

    /**
     * A request that cannot be carried out: it completes with {@code status}, the stream sends a
     * Terminate in its place (RFC 5040 §7.1: header fields zero) and everything after it flushes.
     */
    private void failLocally(SendWr wr, WcStatus status) {
        sendCompletion(wr.wrId(), status, wr.opcode().completionOpcode(), 0, -1);
        sendQueue.advance();
        terminate(RdmapError.LOCAL_CATASTROPHIC, null, 0);
    }

    private void complete(CompletionSink cq, long wrId, WcStatus status, WcOpcode opcode, long bytes,
                          boolean solicited) {
        WorkCompletion wc = cq.claim();
        if (wc == null) {
            cqOverruns++;
            return;
        }
        wc.reset().wrId(wrId).status(status).opcode(opcode).byteLen(bytes).qpNum(qpNum);
        if (status != WcStatus.SUCCESS && status != WcStatus.WR_FLUSH_ERR && peerTerminate >= 0) {
            wc.terminate(peerTerminate >>> 28, (peerTerminate >>> 24) & 0xF, (peerTerminate >>> 16) & 0xFF, true);
        } else if (status != WcStatus.SUCCESS && status != WcStatus.WR_FLUSH_ERR && terminateCause != null) {
            wc.terminate(terminateCause.layer(), terminateCause.errorType(), terminateCause.errorCode(), false);
        }
        cq.publish(solicited);
    }

    // =========================================================================================
    // Receive
    // =========================================================================================

    /**
     * Processes {@code length} stream bytes at {@code in[offset]}: every byte is consumed (partial
     * FPDUs are kept). Bytes after a Terminate (sent or received) are discarded (DESIGN rule 5).
     * Returns the number of FPDUs completed.
     */
    public int receive(MemorySegment in, long offset, long length) {
        if (state != State.RTS || length == 0) {
            return 0;
        }
        decoder.feed(in, offset, length);
        int fpdus = 0;
        while (state == State.RTS) {
            int event = decoder.next();
            switch (event) {
                case FpduDecoder.NEED_MORE -> {
                    return fpdus;
                }
                case FpduDecoder.HEADER -> {
                    inHeader = true;
                    try {
                        onHeader();
                    } finally {
                        inHeader = false;
                    }
                }
                case FpduDecoder.PAYLOAD -> onPayload(decoder.chunkSegment(), decoder.chunkOffset(),
                        decoder.chunkLength(), decoder.chunkPayloadPosition());
                case FpduDecoder.END -> {
                    fpdus++;
                    fpdusReceived++;
                    txHeldForFirstFpdu = false;
                    if (headerViolation != null) {
                        answerHeaderViolation();
                    } else {
                        onEnd();
                    }
                }
                default -> onFramingError(decoder.error());
            }
        }
        return fpdus;
    }

    /**
     * The LLP failed or the peer closed (RFC 5044 §8, MPA error 1): nothing can be sent any more,
     * so no Terminate; every outstanding request is flushed.
     */
    public void connectionLost() {
        if (state == State.ERROR) {
            return;
        }
        if (terminateCause == null) {
            terminateCause = MpaError.TCP_CONNECTION_CLOSED;
        }
        terminatePending = false;
        enterError();
    }

    private void onFramingError(TerminateError error) {
        headerViolation = null;     // the framing error (a bad CRC, most often) is the one to answer
        if (error == MpaError.CRC_ERROR && rxKind == RX_CONTROL && rxOpcode == RdmapOpcode.TERMINATE
                && fpdusReceived == 0 && decoder.receivedCrc() == 0) {
            // Linux siw 6.1 sends its connection-setup Terminates (RFC 6581 §8: no matching RTR,
            // not enough IRD, invalid Reply) before it turns CRC on for the QP, so their CRC field
            // is 0 on a connection that negotiated CRC. Taken as the peer's Terminate — the stream
            // ends either way — so the reason is the peer's, and a Terminate is not answered with
            // one (RFC 5040 §6.2.1).
            onTerminate(true);
            return;
        }
        if (error == MpaError.CRC_ERROR) {
            counters.increment(cCrcErrors);
        }
        terminate(error, null, 0);
    }

    private void onHeader() {
        DdpHeader h = decoder.ddpHeader();
        RdmapOpcode op = decoder.opcode();
        int payload = decoder.payloadLength();
        counters.increment(cFpdusRx);
        counters.add(cBytesRx, decoder.ulpduLength());
        if (rxPreviousLast) {
            rxRecentIndex = (rxRecentIndex + 1) & (RECENT_MESSAGES - 1);
            rxRecentMessages[rxRecentIndex] = payload;
        } else if (payload > rxRecentMessages[rxRecentIndex]) {
            rxRecentMessages[rxRecentIndex] = payload;
        }
        rxPreviousLast = h.last();
        rxOpcode = op;
        switch (op) {
            case RDMA_WRITE -> onWrite(h, payload);
            case RDMA_READ_RESPONSE -> onReadResponse(h, payload);
            case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA,
                 IMMEDIATE_DATA_WITH_SE -> onUntaggedToReceive(h, op, payload);
            case RDMA_READ_REQUEST -> onReadRequest(h);
            case TERMINATE -> rxKind = RX_CONTROL;
            case ATOMIC_REQUEST -> onAtomicRequest(h);
            case ATOMIC_RESPONSE -> onAtomicResponse(h);
            default -> terminate(RdmapError.UNEXPECTED_OPCODE, h, payload);
        }
    }

    private void onWrite(DdpHeader h, int payload) {
        // RFC 5041 §5.2: a zero-length tagged message is not checked (it is how a Write RTR arrives)
        if (payload == 0) {
            rxKind = RX_DISCARD;
            return;
        }
        Region r = stags.lookup(h.stag());
        int check = stags.checkRemote(r, pd, Access.REMOTE_WRITE, h.to(), payload);
        if (check != StagTable.OK) {
            terminate(taggedError(check), h, payload);
            return;
        }
        rxKind = RX_TAGGED;
        rxTarget = r.segment();
        rxTargetOffset = h.to() - r.iova();
        rxLastOfWrite = h.last();
    }

    private void onReadResponse(DdpHeader h, int payload) {
        // The response must match the oldest outstanding Read Request exactly (RFC 5040 §5.2,
        // §5.5 rule 20; siw checks sink STag, TO and length too).
        if (orq.size() == 0 || h.stag() != orq.headSinkStag()) {
            terminate(DdpError.INVALID_STAG, h, payload);
            return;
        }
        if (h.to() != orq.headNextTo() || payload > orq.headRemaining()
                || (h.last() && payload != orq.headRemaining())) {
            terminate(DdpError.BASE_OR_BOUNDS_VIOLATION, h, payload);
            return;
        }
        rxKind = RX_READ_RESPONSE;
        if (payload > 0) {
            Region r = stags.lookup(h.stag());
            int check = stags.checkRemote(r, pd, Access.LOCAL_WRITE, h.to(), payload);
            if (check != StagTable.OK) {
                terminate(taggedError(check), h, payload);
                return;
            }
            rxTarget = r.segment();
            rxTargetOffset = h.to() - r.iova();
        }
    }

    private void onUntaggedToReceive(DdpHeader h, RdmapOpcode op, int payload) {
        // RFC 5041 §7.1: the QN, the MSN window and the MO are checked before placement.
        if (h.qn() != RdmapOpcode.QN_SEND) {
            terminate(DdpError.INVALID_QN, h, payload);
            return;
        }
        if (h.msn() != expectedSendMsn) {
            terminate(DdpError.MSN_RANGE_NOT_VALID, h, payload);
            return;
        }
        if (rxRecv == null) {
            if (h.mo() != 0) {
                terminate(DdpError.INVALID_MO, h, payload);
                return;
            }
            // RFC 5040 §5.3: each Send consumes one posted receive; iWARP has no RNR retry, so a
            // Send with no receive posted is an error (RFC 5041 §7.2, no buffer available).
            RecvWr recv = recvQueue.peek();
            if (recv == null) {
                terminate(DdpError.NO_BUFFER_AVAILABLE, h, payload);
                return;
            }
            if (!resolveSinks(recv)) {
                rxRecv = recv;
                terminate(DdpError.LOCAL_CATASTROPHIC, h, payload);
                return;
            }
            rxRecv = recv;
            rxRecvBytes = 0;
            rxRecvSge = 0;
            rxRecvSgeStart = 0;
        } else if (Integer.toUnsignedLong(h.mo()) != rxRecvBytes) {
            terminate(DdpError.INVALID_MO, h, payload);
            return;
        }
        if (rxRecvBytes + payload > rxRecv.totalLength()) {
            terminate(DdpError.MESSAGE_TOO_LONG, h, payload);
            return;
        }
        if (op.invalidates() && h.last()) {
            invalidateStag = h.invalidateStag();
        }
        if (op == RdmapOpcode.IMMEDIATE_DATA || op == RdmapOpcode.IMMEDIATE_DATA_WITH_SE) {
            immediateData = ImmediateDataHeader.immediateData(decoder.rdmapHeaderSegment(), decoder.rdmapHeaderOffset());
        }
        rxKind = RX_RECV;
    }

    private boolean resolveSinks(RecvWr recv) {
        int n = recv.numSge();
        if (n > rxRegions.length) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            Region r = stags.lookup(recv.sgeLkey(i));
            if (stags.checkLocal(r, pd, Access.LOCAL_WRITE, recv.sgeOffset(i), recv.sgeLength(i)) != StagTable.OK) {
                return false;
            }
            rxRegions[i] = r;
        }
        return true;
    }

    /**
     * The checks every request on QN 1 passes before it is looked at: the queue number, the next
     * MSN of the QN 1 sequence (RFC 5041 §7.1), and an IRD credit — RFC 5040 §6.1 for Read
     * Requests, RFC 7306 §5 for Atomic Requests, which share both (siw: 0/2/0x07 past IRD).
     * False if a Terminate was queued.
     */
    private boolean admitOnReadQueue(DdpHeader h) {
        if (h.qn() != RdmapOpcode.QN_READ_REQUEST) {
            terminate(DdpError.INVALID_QN, h, 0);
            return false;
        }
        if (h.msn() != expectedReadMsn) {
            terminate(DdpError.MSN_RANGE_NOT_VALID, h, 0);
            return false;
        }
        if (irq.full() || params.ird() == 0) {
            terminate(RdmapError.CATASTROPHIC_STREAM, h, 0);
            return false;
        }
        return true;
    }

    private void onReadRequest(DdpHeader h) {
        if (!admitOnReadQueue(h)) {
            return;
        }
        ReadRequestHeader rr = readRequest.wrap(decoder.rdmapHeaderSegment(), decoder.rdmapHeaderOffset());
        pendingSinkStag = rr.sinkStag();
        pendingSinkTo = rr.sinkTo();
        pendingReadSize = rr.readSize();
        pendingReadSource = null;
        pendingReadSourceOffset = 0;
        // RFC 5040 §5.2: a zero-length Read is answered without checking the source.
        if (pendingReadSize > 0) {
            Region r = stags.lookup(rr.sourceStag());
            int check = stags.checkRemote(r, pd, Access.REMOTE_READ, rr.sourceTo(), pendingReadSize);
            if (check != StagTable.OK) {
                terminate(protectionError(check), h, 0);
                return;
            }
            pendingReadSource = r;
            pendingReadSourceOffset = rr.sourceTo() - r.iova();
        }
        rxKind = RX_CONTROL;
    }

    private void onAtomicRequest(DdpHeader h) {
        if (!admitOnReadQueue(h)) {
            return;
        }
        AtomicRequestHeader a = atomicRequest.wrap(decoder.rdmapHeaderSegment(), decoder.rdmapHeaderOffset());
        int aop = a.atomicOpcode();
        if (aop != AtomicRequestHeader.AOPCODE_FETCH_ADD && aop != AtomicRequestHeader.AOPCODE_COMPARE_SWAP) {
            terminate(RdmapError.OPERATION_UNSPECIFIED, h, 0); // a reserved AOpCode
            return;
        }
        Region r = stags.lookup(a.remoteStag());
        int check = stags.checkRemote(r, pd, Access.REMOTE_ATOMIC, a.remoteTo(), 8);
        if (check != StagTable.OK) {
            terminate(protectionError(check), h, 0);
            return;
        }
        // RFC 7306 §4.3, §8: an unaligned target must not be changed: catastrophic for the stream
        if ((a.remoteTo() & 7) != 0) {
            terminate(RdmapError.CATASTROPHIC_STREAM, h, 0);
            return;
        }
        pendingAtomicId = a.requestId();
        pendingAtomicOpcode = aop;
        pendingAtomicData = a.addOrSwapData();
        pendingAtomicMask = a.addOrSwapMask();
        pendingAtomicCompare = a.compareData();
        pendingAtomicCompareMask = a.compareMask();
        pendingReadSource = r;
        pendingReadSourceOffset = a.remoteTo() - r.iova();
        rxKind = RX_CONTROL;
    }

    /**
     * Carries out the atomic at the head of the inbound queue and returns the value found. Memory holds the 64-bit value in the host's order, as OFED atomics do; where the
     * region is native and aligned the update is a compare-and-set, so atomics from other streams
     * and the host's own CAS see one order.
     */
    private long performAtomic() {
        MemorySegment seg = irq.headSource().segment();
        long off = irq.headSourceOffset();
        if (seg.isNative() && ((seg.address() + off) & 7) == 0) {
            while (true) {
                long original = (long) LONG.getVolatile(seg, off);
                if (LONG.compareAndSet(seg, off, original, atomicResult(original))) {
                    return original;
                }
            }
        }
        long original = seg.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        seg.set(ValueLayout.JAVA_LONG_UNALIGNED, off, atomicResult(original));
        return original;
    }

    /**
     * RFC 7306 §4.1: CmpSwap stores {@code (orig & ~swapMask) | (swap & swapMask)} when
     * {@code (orig ^ compare) & compareMask} is 0; FetchAdd adds in fields whose top bits the Add
     * Mask marks, no carry leaving a field (mask 0: a plain 64-bit add).
     */
    private long atomicResult(long original) {
        long d = irq.headData();
        long m = irq.headMask();
        if (irq.headAtomicOpcode() == AtomicRequestHeader.AOPCODE_COMPARE_SWAP) {
            return ((original ^ irq.headCompare()) & irq.headCompareMask()) == 0 ? (original & ~m) | (d & m) : original;
        }
        return ((original & ~m) + (d & ~m)) ^ ((original ^ d) & m);
    }

    private void onAtomicResponse(DdpHeader h) {
        if (h.qn() != RdmapOpcode.QN_ATOMIC_RESPONSE) {
            terminate(DdpError.INVALID_QN, h, 0);
            return;
        }
        if (h.msn() != expectedAtomicResponseMsn) {
            terminate(DdpError.MSN_RANGE_NOT_VALID, h, 0);
            return;
        }
        MemorySegment hs = decoder.rdmapHeaderSegment();
        long ho = decoder.rdmapHeaderOffset();
        // RFC 7306 §4.4: the response must answer the oldest outstanding request, by identifier
        if (orq.size() == 0 || !orq.headAtomic() || AtomicResponseHeader.requestId(hs, ho) != orq.headRequestId()) {
            terminate(RdmapError.OPERATION_UNSPECIFIED, h, 0);
            return;
        }
        atomicResult = AtomicResponseHeader.originalValue(hs, ho);
        rxKind = RX_CONTROL;
    }

    private void onPayload(MemorySegment src, long offset, int length, int position) {
        switch (rxKind) {
            case RX_TAGGED, RX_READ_RESPONSE -> {
                long to = rxTargetOffset + position;
                boolean lastChunk = rxKind == RX_TAGGED && rxLastOfWrite
                        && position + length == decoder.payloadLength();
                if (lastChunk) {
                    // The last byte of a Write becomes visible last: applications poll it (DESIGN).
                    // It may arrive alone, after bytes placed straight from the socket.
                    MemorySegment.copy(src, offset, rxTarget, to, length - 1);
                    VarHandle.releaseFence();
                    MemorySegment.copy(src, offset + length - 1, rxTarget, to + length - 1, 1);
                } else {
                    MemorySegment.copy(src, offset, rxTarget, to, length);
                }
            }
            case RX_RECV -> scatter(src, offset, length);
            default -> {
                // discarded (zero-length or control messages carry no payload)
            }
        }
    }

    /** Copies payload into the receive's scatter/gather list, in order. */
    private void scatter(MemorySegment src, long offset, int length) {
        while (length > 0) {
            long sgeLength = rxRecv.sgeLength(rxRecvSge);
            long inSge = rxRecvBytes - rxRecvSgeStart;
            if (inSge == sgeLength) {
                rxRecvSgeStart += sgeLength;
                rxRecvSge++;
                continue;
            }
            int n = (int) Math.min(length, sgeLength - inSge);
            MemorySegment.copy(src, offset, rxRegions[rxRecvSge].segment(), rxRecv.sgeOffset(rxRecvSge) + inSge, n);
            rxRecvBytes += n;
            offset += n;
            length -= n;
        }
    }

    // =========================================================================================
    // Zero-copy receive
    // =========================================================================================

    /**
     * Where the rest of the current segment's payload may be placed by the owner reading it from
     * the LLP straight into the target (zero-copy receive), or an empty placement
     * ({@link DirectPlacement#length()} 0). Non-empty only when every byte fed to {@link #receive}
     * has been decoded and the stream is inside the payload of a segment that passed its
     * placement checks — for a tagged segment STag, key, protection domain, access rights and
     * bounds (RFC 5041 §7.1, RFC 5040 §7), for an untagged one the queue number, MSN, MO, a posted
     * receive and its length — so that no byte lands anywhere a check would have refused. The
     * payload may still fail its CRC: as with any placement before the FPDU is validated
     * (RFC 5044 §4.4, §8), nothing completes before {@link #receive} has seen the CRC, and a bad
     * one terminates the stream.
     *
     * <p>The last byte of a Write is held back (counted in {@link DirectPlacement#trailer()}): it
     * is stored by {@link #receive} after a release fence, so that a poller of the last byte sees
     * the whole message (DESIGN). Markers bound a placement to the next marker.
     */
    public DirectPlacement directPlacement() {
        direct.clear();
        if (state != State.RTS) {
            return direct;
        }
        long remaining = decoder.externalPayloadLimit();
        if (remaining == 0) {
            return direct;
        }
        int position = decoder.payloadPosition();
        boolean toPayloadEnd = remaining == decoder.payloadRemaining();
        switch (rxKind) {
            case RX_TAGGED, RX_READ_RESPONSE -> {
                long n = rxKind == RX_TAGGED && rxLastOfWrite && toPayloadEnd ? remaining - 1 : remaining;
                if (n > 0) {
                    direct.add(rxTarget, rxTargetOffset + position, n);
                }
            }
            case RX_RECV -> {
                int sge = rxRecvSge;
                long inSge = rxRecvBytes - rxRecvSgeStart;
                long left = remaining;
                while (left > 0) {
                    long sgeLength = rxRecv.sgeLength(sge);
                    if (inSge == sgeLength) {
                        sge++;
                        inSge = 0;
                        continue;
                    }
                    long n = Math.min(left, sgeLength - inSge);
                    direct.add(rxRegions[sge].segment(), rxRecv.sgeOffset(sge) + inSge, n);
                    inSge += n;
                    left -= n;
                }
            }
            default -> {
                return direct; // discarded or control: nothing to place
            }
        }
        if (direct.length() > 0) {
            direct.segmentPayload(decoder.payloadLength());
            direct.trailer((int) (decoder.payloadRemaining() - direct.length())
                    + Fpdu.pad(decoder.ulpduLength()) + Fpdu.CRC_LENGTH);
        }
        return direct;
    }

    /**
     * The owner read {@code length} bytes of the last {@link #directPlacement()} from the LLP into
     * its pieces, in order: they enter the CRC and the stream as if {@link #receive} had seen them.
     *
     * @throws IllegalArgumentException if more than the placement offered
     */
    public void placedDirectly(long length) {
        if (length < 0 || length > direct.length()) {
            throw new IllegalArgumentException("placed " + length + " bytes; the placement offered " + direct.length());
        }
        long left = length;
        for (int i = 0; i < direct.pieces() && left > 0; i++) {
            int n = (int) Math.min(left, direct.length(i));
            decoder.payloadReceivedExternally(direct.segment(i), direct.offset(i), n);
            if (rxKind == RX_RECV) {
                advanceRecv(n);
            }
            left -= n;
        }
        if (cRxDirectBytes >= 0) {
            counters.add(cRxDirectBytes, length);
        }
        direct.clear();
    }

    /**
     * The largest segment payload among the last {@link #RECENT_MESSAGES} messages received (the
     * one in progress included): a hint for an owner choosing how much to read ahead — a peer
     * that sent large messages is likely to send more, small control messages in between (a Read
     * Request, an Immediate Data message) notwithstanding.
     */
    public int recentSegmentPayload() {
        int max = 0;
        for (int m : rxRecentMessages) {
            max = Math.max(max, m);
        }
        return max;
    }

    /** True while the payload of a segment is only partly received. */
    public boolean insidePayload() {
        return decoder.payloadRemaining() > 0;
    }

    /** Moves the receive's scatter/gather position past {@code n} bytes placed directly. */
    private void advanceRecv(long n) {
        while (n > 0) {
            long sgeLength = rxRecv.sgeLength(rxRecvSge);
            long inSge = rxRecvBytes - rxRecvSgeStart;
            if (inSge == sgeLength) {
                rxRecvSgeStart += sgeLength;
                rxRecvSge++;
                continue;
            }
            long k = Math.min(n, sgeLength - inSge);
            rxRecvBytes += k;
            n -= k;
        }
    }

    private void onEnd() {
        boolean last = decoder.ddpHeader().last();
        switch (rxKind) {
            case RX_READ_RESPONSE -> {
                orq.headPlaced(decoder.payloadLength());
                if (last) {
                    if (orq.headSignaled()) {
                        sendCompletion(orq.headWrId(), WcStatus.SUCCESS, WcOpcode.RDMA_READ, orq.headLength(), -1);
                    }
                    orq.pop();
                }
            }
            case RX_RECV -> {
                if (last) {
                    deliverReceive();
                }
            }
            case RX_CONTROL -> {
                if (rxOpcode == RdmapOpcode.RDMA_READ_REQUEST) {
                    irq.push(pendingSinkStag, pendingSinkTo, pendingReadSize, pendingReadSource,
                            pendingReadSourceOffset);
                    expectedReadMsn++;
                } else if (rxOpcode == RdmapOpcode.ATOMIC_REQUEST) {
                    irq.pushAtomic(pendingAtomicId, pendingAtomicOpcode, pendingAtomicData, pendingAtomicMask,
                            pendingAtomicCompare, pendingAtomicCompareMask, pendingReadSource, pendingReadSourceOffset);
                    pendingReadSource = null;
                    expectedReadMsn++;
                } else if (rxOpcode == RdmapOpcode.ATOMIC_RESPONSE) {
                    expectedAtomicResponseMsn++;
                    orq.headResultRegion().segment().set(ValueLayout.JAVA_LONG_UNALIGNED, orq.headResultOffset(),
                            atomicResult);
                    if (orq.headSignaled()) {
                        sendCompletion(orq.headWrId(), WcStatus.SUCCESS,
                                orq.headCompareSwap() ? WcOpcode.COMP_SWAP : WcOpcode.FETCH_ADD, 8, -1);
                    }
                    orq.pop();
                } else if (rxOpcode == RdmapOpcode.TERMINATE) {
                    onTerminate(fpdusReceived == 1);
                }
            }
            default -> {
                // tagged placement needs no delivery (RFC 5040 §5.1: a Write is never delivered)
            }
        }
        rxKind = RX_IDLE;
    }

    private void deliverReceive() {
        RecvWr recv = rxRecv;
        rxRecv = null;
        expectedSendMsn++;
        boolean immediate = rxOpcode == RdmapOpcode.IMMEDIATE_DATA || rxOpcode == RdmapOpcode.IMMEDIATE_DATA_WITH_SE;
        int flags = 0;
        if (rxOpcode.invalidates()) {
            // RFC 5040 §5.3: the STag named by a Send with Invalidate must belong to this stream.
            if (!stags.invalidate(invalidateStag, pd)) {
                rxRecv = recv;
                terminate(RdmapError.PROTECTION_STAG_CANNOT_BE_INVALIDATED, decoder.ddpHeader(), 0);
                return;
            }
            flags |= WorkCompletion.WITH_INV;
        }
        WorkCompletion wc = recvCq.claim();
        if (wc == null) {
            cqOverruns++;
        } else {
            wc.reset().wrId(recv.wrId()).status(WcStatus.SUCCESS)
                    .opcode(immediate ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV)
                    .byteLen(immediate ? 0 : rxRecvBytes).qpNum(qpNum);
            if (immediate) {
                wc.immData(immediateData);
                flags |= WorkCompletion.WITH_IMM;
            }
            if ((flags & WorkCompletion.WITH_INV) != 0) {
                wc.invalidatedRkey(invalidateStag);
            }
            wc.flags(flags);
        }
        // the receive's slot goes back before its completion shows: a consumer that re-posts as
        // soon as it reaps the completion must find room, even on a queue that was full
        recvQueue.advance();
        if (wc != null) {
            recvCq.publish(rxOpcode.solicitedEvent());
        }
    }

    private void onTerminate(boolean firstFpdu) {
        TerminateHeader t = terminateHeader.wrap(decoder.rdmapHeaderSegment(), decoder.rdmapHeaderOffset(),
                decoder.rdmapHeaderLength());
        counters.increment(cTerminatesRx);
        // siw writes the control word in its own bit-field layout (SiwTerminateLayout)
        int word = SiwTerminateLayout.toRfc(t.controlWord(), firstFpdu);
        peerTerminate = word & 0xFFFF_0000;
        WcStatus status = TerminateStatus.of(word >>> 28, (word >>> 24) & 0xF, (word >>> 16) & 0xFF);
        // The peer names the failed message; the request that is still open for it is the oldest
        // outstanding Read, or the message being sent. Everything else is flushed.
        if (orq.size() > 0) {
            sendCompletion(orq.headWrId(), status, orqOpcode(), 0, -1);
            orq.pop();
        } else if (txWr != null) {
            sendCompletion(txWr.wrId(), status, txWr.opcode().completionOpcode(), 0, -1);
            txWr = null;
            txKind = TX_NONE;
            sendQueue.advance();
        }
        // RFC 5040 §6.2.1: a Terminate is never answered with a Terminate.
        enterError();
    }

    // =========================================================================================
    // Errors
    // =========================================================================================

    private static TerminateError taggedError(int check) {
        return switch (check) {
            case StagTable.NOT_ASSOCIATED -> DdpError.STAG_NOT_ASSOCIATED;
            case StagTable.OUT_OF_BOUNDS -> DdpError.BASE_OR_BOUNDS_VIOLATION;
            case StagTable.TO_WRAP -> DdpError.TO_WRAP;
            // RFC 5041 §7.2 has no access-rights code; siw reports a permission failure as invalid STag
            default -> DdpError.INVALID_STAG;
        };
    }

    private static TerminateError protectionError(int check) {
        return switch (check) {
            case StagTable.NOT_ASSOCIATED -> RdmapError.STAG_NOT_ASSOCIATED;
            case StagTable.ACCESS_DENIED -> RdmapError.ACCESS_RIGHTS_VIOLATION;
            case StagTable.OUT_OF_BOUNDS -> RdmapError.BASE_OR_BOUNDS_VIOLATION;
            case StagTable.TO_WRAP -> RdmapError.TO_WRAP;
            default -> RdmapError.INVALID_STAG;
        };
    }

    /**
     * Queues the Terminate for {@code error} (RFC 5040 §4.8, §7.1): the first error wins; the
     * message's DDP header (and the Read Request header for remote protection errors on a Read)
     * goes in as RFC 5040 Figure 10 says. Placement stops at once; the Terminate is sent by the
     * next {@link #transmit}.
     */
    private void terminate(TerminateError error, DdpHeader failed, int segmentPayloadLength) {
        if (terminateCause != null || headerViolation != null || state != State.RTS) {
            return;
        }
        // RFC 5040 §5.7 via reference: Terminate is untagged on QN 2, MSN 1, MO 0, L set.
        int h = DdpHeader.writeUntagged(terminateMessage, 0, true, RdmapOpcode.TERMINATE, 0,
                RdmapOpcode.QN_TERMINATE, 1, 0);
        int t;
        if (failed != null && error.includesDdpHeader()) {
            MemorySegment rdma = null;
            long rdmaOffset = 0;
            if (error.includesRdmaHeader() && rxOpcode == RdmapOpcode.RDMA_READ_REQUEST) {
                rdma = decoder.rdmapHeaderSegment();
                rdmaOffset = decoder.rdmapHeaderOffset();
            }
            t = TerminateHeader.write(terminateMessage, h, error, segmentPayloadLength, failed.segment(),
                    failed.offset(), failed.length(), rdma, rdmaOffset);
        } else {
            t = TerminateHeader.write(terminateMessage, h, error, -1, null, 0, 0, null, 0);
        }
        terminateLength = h + t;
        rxKind = RX_DISCARD;
        if (inHeader) {
            // RFC 5044 §4.4: an FPDU is passed to DDP only once its CRC is good, so a header that
            // breaks a DDP or RDMAP rule is answered at the FPDU's end: with its own error if the
            // CRC holds, with MPA's CRC error if it does not (the header may be the corrupted part).
            // The Terminate is built now, while the header is at hand.
            headerViolation = error;
            return;
        }
        terminateCause = error;
        terminatePending = true;
        state = State.TERMINATING;
    }

    /** The FPDU's CRC held: a header violation found at its start is now answered. */
    private void answerHeaderViolation() {
        terminateCause = headerViolation;
        headerViolation = null;
        terminatePending = true;
        state = State.TERMINATING;
    }

    /** Stops the stream and completes every outstanding request with a flush (no WR lost, none twice). */
    private void enterError() {
        state = State.ERROR;
        flush();
    }

    /**
     * In the error state, completes everything posted so far with {@link WcStatus#WR_FLUSH_ERR}
     * (requests posted after the error included: the engine calls this from its duty cycle).
     * Returns the number of requests flushed.
     */
    public int flush() {
        if (state != State.ERROR) {
            return 0;
        }
        int n = 0;
        while (!pending.isEmpty()) {
            // framed but possibly never sent: the connection is gone, so they cannot be known delivered
            WcStatus st = pending.headStatus() == WcStatus.SUCCESS ? WcStatus.WR_FLUSH_ERR : pending.headStatus();
            complete(sendCq, pending.headWrId(), st, pending.headOpcode(), 0, false);
            pending.pop();
            n++;
        }
        if (txWr != null) {
            complete(sendCq, txWr.wrId(), WcStatus.WR_FLUSH_ERR, txWr.opcode().completionOpcode(), 0, false);
            txWr = null;
            txKind = TX_NONE;
            sendQueue.advance();
            n++;
        }
        while (orq != null && orq.size() > 0) {
            complete(sendCq, orq.headWrId(), WcStatus.WR_FLUSH_ERR, orqOpcode(), 0, false);
            orq.pop();
            n++;
        }
        for (SendWr wr = sendQueue.peek(); wr != null; wr = sendQueue.peek()) {
            complete(sendCq, wr.wrId(), WcStatus.WR_FLUSH_ERR, wr.opcode().completionOpcode(), 0, false);
            sendQueue.advance();
            n++;
        }
        if (rxRecv != null) {
            // the receive that was being filled when placement stopped
            WcStatus st = terminateCause == DdpError.MESSAGE_TOO_LONG ? WcStatus.LOC_LEN_ERR
                    : terminateCause == DdpError.LOCAL_CATASTROPHIC ? WcStatus.LOC_PROT_ERR : WcStatus.WR_FLUSH_ERR;
            complete(recvCq, rxRecv.wrId(), st, WcOpcode.RECV, 0, false);
            rxRecv = null;
            recvQueue.advance();
            n++;
        }
        for (RecvWr wr = recvQueue.peek(); wr != null; wr = recvQueue.peek()) {
            complete(recvCq, wr.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, false);
            recvQueue.advance();
            n++;
        }
        if (irq != null) {
            irq.clear();
        }
        return n;
    }

    private WcOpcode orqOpcode() {
        return !orq.headAtomic() ? WcOpcode.RDMA_READ : orq.headCompareSwap() ? WcOpcode.COMP_SWAP : WcOpcode.FETCH_ADD;
    }

    @Override
    public String toString() {
        return "RdmapStream[qp " + qpNum + ", " + state + (terminateCause == null ? "" : ", " + terminateCause)
                + (peerTerminate < 0 ? "" : ", peer terminate " + Wire.hex(MemorySegment.ofArray(
                new byte[] {(byte) (peerTerminate >>> 24), (byte) (peerTerminate >>> 16)}), 0, 2)) + "]";
    }
}

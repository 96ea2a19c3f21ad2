package org.jwarp.stack;

import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.wire.fpdu.FpduDecoder;

/**
 * What the parts of one {@link RdmapStream} share, as Linux siw's parts share its QP: the queues,
 * the STag table, the negotiated parameters, the inbound and outbound read queues, the stream's
 * state, its counters, and the parts themselves. Package-private and engine-thread only.
 */
final class StreamContext {

    final int qpNum;
    final int pd;
    final StagTable stags;
    final WorkQueue<SendWr> sendQueue;
    final WorkQueue<RecvWr> recvQueue;
    /** The queue pair signals every send-queue completion ({@code sq_sig_all}). */
    final boolean signalAll;
    final int maxSge;
    final CounterSet counters;
    final int cFpdusTx;
    final int cBytesTx;
    final int cFpdusRx;
    final int cBytesRx;
    final int cTerminatesTx;
    final int cTerminatesRx;
    final int cCrcErrors;
    /** {@link CounterNames#RX_DIRECT_BYTES}, or -1 if the owner's counters do not have it. */
    final int cRxDirectBytes;

    final FpduDecoder decoder = new FpduDecoder();
    final Terminator terminator;
    final Completer completer;
    final StreamTransmitter tx;
    final StreamReceiver rx;

    RdmapStream.State state = RdmapStream.State.IDLE;
    StreamParameters params;
    OutboundReadQueue orq;
    InboundReadQueue irq;
    /** The next MSN expected on QN 1, which Read and Atomic Requests share (RFC 5041 §5.1, RFC 7306 §4.3). */
    int expectedReadMsn = 1;
    /** FPDUs received whole (CRC good) since full operation began. */
    long fpdusReceived;
    /** Responder: nothing is sent before the initiator's first FPDU (RFC 5044 §7.1.2 rule 4). */
    boolean txHeldForFirstFpdu;
    /** Whether {@link StreamTransmitter#sendDirect} takes requests (the small-message path). */
    boolean directSend = true;
    /** Run once, when the first FPDU has been processed and before any after it is; or null. */
    Runnable firstFpduEnded;

    StreamContext(int qpNum, int pd, StagTable stags, WorkQueue<SendWr> sendQueue, WorkQueue<RecvWr> recvQueue,
                  CompletionSink sendCq, CompletionSink recvCq, boolean signalAll, int maxSge, CounterSet counters) {
        this.qpNum = qpNum;
        this.pd = pd;
        this.stags = stags;
        this.sendQueue = sendQueue;
        this.recvQueue = recvQueue;
        this.signalAll = signalAll;
        this.maxSge = maxSge;
        this.counters = counters;
        cFpdusTx = counters.require(CounterNames.FPDUS_TX);
        cBytesTx = counters.require(CounterNames.BYTES_TX);
        cFpdusRx = counters.require(CounterNames.FPDUS_RX);
        cBytesRx = counters.require(CounterNames.BYTES_RX);
        cTerminatesTx = counters.require(CounterNames.TERMINATES_TX);
        cTerminatesRx = counters.require(CounterNames.TERMINATES_RX);
        cCrcErrors = counters.require(CounterNames.CRC_ERRORS);
        cRxDirectBytes = counters.indexOf(CounterNames.RX_DIRECT_BYTES);
        terminator = new Terminator(this);
        completer = new Completer(this, sendCq, recvCq);
        tx = new StreamTransmitter(this);
        rx = new StreamReceiver(this);
    }

    boolean running() {
        return state == RdmapStream.State.RTS;
    }

    /** Stops the stream and completes every outstanding request with a flush (no WR lost, none twice). */
    void enterError() {
        state = RdmapStream.State.ERROR;
        completer.flush();
    }
}

package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.fpdu.Fpdu;
import org.jwarp.wire.fpdu.FpduDecoder;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * The receive side of a stream: feeds the FPDU decoder and hands each segment to the handler of
 * its opcode ({@link RxMessage}), whose checks run before one byte is placed. Every violation
 * queues the RFC's Terminate; a header's waits for the FPDU's CRC (RFC 5044 §4.4).
 */
final class StreamReceiver {

    /** Messages {@link #recentSegmentPayload()} looks back over. */
    static final int RECENT_MESSAGES = 8;

    private final StreamContext s;
    private final FpduDecoder decoder;
    /** The handler of each opcode, by {@link RdmapOpcode#ordinal()}. */
    private final RxMessage[] byOpcode = new RxMessage[RdmapOpcode.values().length];
    private final RxMessage discard;
    private final SendRx send;
    private final TerminateRx terminate;
    private final DirectPlacement direct;
    /** The handler of the segment in progress; {@link #discard} between segments and after a violation. */
    private RxMessage current;

    /** Per message, the largest segment payload, for the last {@link #RECENT_MESSAGES} messages. */
    private final int[] recentMessages = new int[RECENT_MESSAGES];
    private int recentIndex;
    private boolean previousLast = true;

    StreamReceiver(StreamContext s) {
        this.s = s;
        this.decoder = s.decoder;
        this.direct = new DirectPlacement(s.maxSge);
        this.discard = new RxMessage.Discard(s);
        this.send = new SendRx(s);
        this.terminate = new TerminateRx(s);
        handle(new WriteRx(s), RdmapOpcode.RDMA_WRITE);
        handle(new ReadResponseRx(s), RdmapOpcode.RDMA_READ_RESPONSE);
        handle(send, RdmapOpcode.SEND, RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SE,
                RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE, RdmapOpcode.IMMEDIATE_DATA, RdmapOpcode.IMMEDIATE_DATA_WITH_SE);
        handle(new ReadRequestRx(s), RdmapOpcode.RDMA_READ_REQUEST);
        handle(terminate, RdmapOpcode.TERMINATE);
        handle(new AtomicRequestRx(s), RdmapOpcode.ATOMIC_REQUEST);
        handle(new AtomicResponseRx(s), RdmapOpcode.ATOMIC_RESPONSE);
        this.current = discard;
    }

    private void handle(RxMessage handler, RdmapOpcode... opcodes) {
        for (RdmapOpcode op : opcodes) {
            byOpcode[op.ordinal()] = handler;
        }
    }

    /** See {@link RdmapStream#receive}. */
    int receive(MemorySegment in, long offset, long length) {
        if (!s.running() || length == 0) {
            return 0;
        }
        decoder.feed(in, offset, length);
        int fpdus = 0;
        while (s.running()) {
            switch (decoder.next()) {
                case FpduDecoder.NEED_MORE -> {
                    return fpdus;
                }
                case FpduDecoder.HEADER -> onHeader();
                case FpduDecoder.PAYLOAD -> {
                    try {
                        current.payload(decoder.chunkSegment(), decoder.chunkOffset(), decoder.chunkLength(),
                                decoder.chunkPayloadPosition());
                    } catch (IllegalStateException e) {
                        memoryGone(e);
                    }
                }
                case FpduDecoder.END -> {
                    fpdus++;
                    onEnd();
                }
                default -> onFramingError(decoder.error());
            }
        }
        return fpdus;
    }

    private void onHeader() {
        DdpHeader h = decoder.ddpHeader();
        RdmapOpcode op = decoder.opcode();
        int payload = decoder.payloadLength();
        s.counters.increment(s.cFpdusRx);
        s.counters.add(s.cBytesRx, decoder.ulpduLength());
        if (previousLast) {
            recentIndex = (recentIndex + 1) & (RECENT_MESSAGES - 1);
            recentMessages[recentIndex] = payload;
        } else if (payload > recentMessages[recentIndex]) {
            recentMessages[recentIndex] = payload;
        }
        previousLast = h.last();
        RxMessage handler = byOpcode[op.ordinal()];
        current = handler;
        Terminator t = s.terminator;
        t.inHeader(true);
        try {
            if (handler == null) {
                t.terminate(RdmapError.UNEXPECTED_OPCODE, h, payload);
            } else {
                handler.header(h, payload);
            }
        } finally {
            t.inHeader(false);
        }
        if (t.headerViolated() || !s.running()) {
            current = discard;
        }
    }

    /**
     * The application closed the arena of the memory the current segment goes to after its header
     * was checked (the JDK refuses the copy: "Already closed"): the handler queues the Terminate
     * that fits and the rest of the stream is discarded. Any other failure is a bug and goes on up.
     */
    private void memoryGone(IllegalStateException e) {
        if (!current.memoryGone()) {
            throw e;
        }
        current = discard;
    }

    private void onEnd() {
        s.fpdusReceived++;
        s.txHeldForFirstFpdu = false;
        RxMessage ended = current;
        current = discard;
        if (s.terminator.headerViolated()) {
            s.terminator.answerHeaderViolation();
        } else {
            try {
                ended.end(decoder.ddpHeader().last());
            } catch (IllegalStateException e) {
                if (!ended.memoryGone()) {
                    throw e;
                }
            }
        }
        if (s.fpdusReceived == 1 && s.firstFpduEnded != null) {
            s.firstFpduEnded.run();    // before the FPDUs behind it complete anything (RFC 6581 §9.2)
        }
    }

    private void onFramingError(TerminateError error) {
        s.terminator.dropHeaderViolation(); // the framing error (a bad CRC, most often) is the one to answer
        if (error == MpaError.CRC_ERROR && current == terminate && s.fpdusReceived == 0
                && decoder.receivedCrc() == 0) {
            // Linux siw 6.1 sends its connection-setup Terminates (RFC 6581 §8: no matching RTR,
            // not enough IRD, invalid Reply) before it turns CRC on for the QP, so their CRC field
            // is 0 on a connection that negotiated CRC. Taken as the peer's Terminate — the stream
            // ends either way — so the reason is the peer's, and a Terminate is not answered with
            // one (RFC 5040 §6.2.1).
            terminate.accept(true);
            return;
        }
        if (error == MpaError.CRC_ERROR) {
            s.counters.increment(s.cCrcErrors);
        }
        current = discard;
        s.terminator.terminate(error, null, 0);
    }

    /** See {@link RdmapStream#directPlacement()}. */
    DirectPlacement directPlacement() {
        direct.clear();
        if (!s.running()) {
            return direct;
        }
        long remaining = decoder.externalPayloadLimit();
        if (remaining == 0) {
            return direct;
        }
        current.offer(direct, decoder.payloadPosition(), remaining, remaining == decoder.payloadRemaining());
        if (direct.length() > 0) {
            direct.segmentPayload(decoder.payloadLength());
            direct.trailer((int) (decoder.payloadRemaining() - direct.length())
                    + Fpdu.pad(decoder.ulpduLength()) + Fpdu.CRC_LENGTH);
        }
        return direct;
    }

    /** See {@link RdmapStream#placedDirectly}. */
    void placedDirectly(long length) {
        if (length < 0 || length > direct.length()) {
            throw new IllegalArgumentException("placed " + length + " bytes; the placement offered " + direct.length());
        }
        long left = length;
        try {
            for (int i = 0; i < direct.pieces() && left > 0; i++) {
                int n = (int) Math.min(left, direct.length(i));
                // the CRC reads the placed bytes: memory freed under the read is found here
                decoder.payloadReceivedExternally(direct.segment(i), direct.offset(i), n);
                current.placed(n);
                left -= n;
            }
        } catch (IllegalStateException e) {
            memoryGone(e);
        }
        if (s.cRxDirectBytes >= 0) {
            s.counters.add(s.cRxDirectBytes, length);
        }
        direct.clear();
    }

    /** See {@link RdmapStream#recentSegmentPayload()}. */
    int recentSegmentPayload() {
        int max = 0;
        for (int m : recentMessages) {
            max = Math.max(max, m);
        }
        return max;
    }

    /** The receive being filled when the stream stopped completes; returns 0 or 1. */
    int flushCurrent() {
        return send.flushCurrent();
    }
}

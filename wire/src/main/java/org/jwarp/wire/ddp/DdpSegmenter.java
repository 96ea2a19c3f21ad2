package org.jwarp.wire.ddp;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.rdmap.RdmapOpcode;

/**
 * Cuts one ULP message into DDP segments that each fit one FPDU of at most MULPDU bytes
 * (RFC 5041 §5.2), and writes each segment's DDP header. A reusable cursor: set up a message with
 * {@link #tagged} or {@link #untagged}, then call {@link #next()} until it returns false.
 *
 * <p>RFC 5041 §5.2 and §5.3: segments go out in increasing offset order; every segment of a message
 * carries the same STag (tagged) or QN/MSN (untagged) and RsvdULP; the tagged offset advances from
 * the initial TO, the message offset from 0; the L bit is set on the last segment only; a
 * zero-length message is exactly one segment.
 */
public final class DdpSegmenter {

    /** RFC 5041 §5.2: a ULP message MUST be less than 2^32 bytes. */
    public static final long MAX_MESSAGE_LENGTH = 0xFFFF_FFFFL;

    private RdmapOpcode opcode;
    private boolean tagged;
    private int stag;
    private long initialTo;
    private int invalidateStag;
    private int qn;
    private int msn;
    private long messageLength;
    private int maxPayload;

    private long offset;
    private int length;
    private boolean started;
    private boolean done;

    /** Sets up a tagged message (RDMA Write, RDMA Read Response). */
    public DdpSegmenter tagged(RdmapOpcode opcode, int stag, long to, long messageLength, int mulpdu) {
        if (!opcode.tagged()) {
            throw new IllegalArgumentException(opcode + " is not a tagged message");
        }
        this.stag = stag;
        this.initialTo = to;
        return begin(opcode, messageLength, mulpdu, DdpHeader.TAGGED_LENGTH);
    }

    /** Sets up an untagged message that carries payload (the Send family). */
    public DdpSegmenter untagged(RdmapOpcode opcode, int msn, int invalidateStag, long messageLength, int mulpdu) {
        if (opcode.tagged() || !opcode.carriesPayload()) {
            throw new IllegalArgumentException(opcode + " is not an untagged message with payload");
        }
        this.qn = opcode.queueNumber();
        this.msn = msn;
        this.invalidateStag = invalidateStag;
        return begin(opcode, messageLength, mulpdu, DdpHeader.UNTAGGED_LENGTH);
    }

    private DdpSegmenter begin(RdmapOpcode opcode, long messageLength, int mulpdu, int headerLength) {
        if (messageLength < 0 || messageLength > MAX_MESSAGE_LENGTH) {
            throw new IllegalArgumentException("message length " + messageLength + " is not below 2^32");
        }
        if (mulpdu <= headerLength) {
            throw new IllegalArgumentException("MULPDU " + mulpdu + " leaves no room for payload");
        }
        this.opcode = opcode;
        this.tagged = opcode.tagged();
        this.messageLength = messageLength;
        this.maxPayload = mulpdu - headerLength;
        this.offset = 0;
        this.length = 0;
        this.started = false;
        this.done = false;
        return this;
    }

    /** Advances to the next segment; false once the last one has been handed out. */
    public boolean next() {
        return next(Long.MAX_VALUE);
    }

    /**
     * Advances to the next segment, carrying at most {@code limit} payload bytes (at least 1) —
     * e.g. what is left of the current scatter/gather entry, so a segment never spans two.
     */
    public boolean next(long limit) {
        if (done) {
            return false;
        }
        if (started) {
            offset += length;
        }
        started = true;
        length = (int) Math.min(Math.min(messageLength - offset, maxPayload), Math.max(limit, 1));
        done = offset + length == messageLength;
        return true;
    }

    /** Payload bytes the next segment would carry under {@code limit}, without advancing. */
    public int nextLength(long limit) {
        long at = started ? offset + length : 0;
        return (int) Math.min(Math.min(messageLength - at, maxPayload), Math.max(limit, 1));
    }

    /** Payload bytes per segment at most: MULPDU minus the DDP header. */
    public int maxPayload() {
        return maxPayload;
    }

    /** Offset of this segment's first payload byte in the message (MO, or TO minus the initial TO). */
    public long messageOffset() {
        return offset;
    }

    /** Payload bytes in this segment. */
    public int payloadLength() {
        return length;
    }

    /** True on the last segment of the message (the L bit). */
    public boolean last() {
        return done;
    }

    public int headerLength() {
        return tagged ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH;
    }

    /** Writes the DDP header of the current segment and returns its length. */
    public int writeHeader(MemorySegment dst, long dstOffset) {
        if (tagged) {
            return DdpHeader.writeTagged(dst, dstOffset, done, opcode, stag, initialTo + offset);
        }
        return DdpHeader.writeUntagged(dst, dstOffset, done, opcode, invalidateStag, qn, msn, (int) offset);
    }
}

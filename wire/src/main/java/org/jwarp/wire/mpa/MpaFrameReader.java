package org.jwarp.wire.mpa;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jwarp.wire.Wire;

/**
 * Accumulates one MPA Request or Reply (RFC 5044 §7.1.1) from a TCP byte stream delivered in any
 * split, down to one byte per call, and validates it as soon as the bytes that decide are there.
 *
 * <p>Use: {@link #feed} with what the socket delivered; the result is {@link Status#NEED_MORE},
 * {@link Status#COMPLETE} (then {@link #frame()} is the validated frame) or {@link Status#INVALID}
 * (then {@link #invalidReason()} says why). {@link #consumed()} tells how many of the bytes given
 * were taken: the reader never takes a byte past the end of the frame, so
 * {@code consumed() < length} after COMPLETE means the peer queued bytes behind its frame. What to
 * do about that is the caller's decision (siw fails such a connection with EPROTO; RFC 5044 §7.1.2
 * lets a responder receive FPDUs right after its Reply, but no peer may send before it has the
 * other side's frame).
 *
 * <p>It never throws on any byte content, never reads outside {@code [offset, offset + length)}
 * and allocates nothing per call: bytes go into one fixed buffer of {@link MpaFrame#MAX_FRAME_LENGTH}.
 * One reader per connection, owned by the connection's thread; {@link #reset()} makes it reusable.
 */
public final class MpaFrameReader {

    /** What a {@link #feed} call ended with. */
    public enum Status {
        /** The frame is not complete yet; every byte given was consumed. */
        NEED_MORE,
        /** A whole, valid frame is in {@link #frame()}. */
        COMPLETE,
        /** The frame is malformed; RFC 5044 §7.1.2: close the connection (a responder sends no Reply). */
        INVALID
    }

    /** Why a frame was rejected. */
    public enum Invalid {
        /** The key is neither the expected one nor, for a reader of Replies, the Request key. */
        WRONG_KEY("MPA key is not \"%s\""),
        /**
         * A Request arrived where a Reply was expected: both sides acted as initiator. RFC 5044
         * §7.1.2 gave the two frames different keys so that this is detected.
         */
        BOTH_INITIATORS("received an MPA Request while expecting a Reply: both sides acted as initiator"),
        /** Rev is 0 or above 2. */
        UNSUPPORTED_REVISION("MPA revision is neither 1 nor 2"),
        /** PD_Length exceeds 512 (or the reader's configured lower limit). */
        PRIVATE_DATA_TOO_LONG("MPA private data is longer than allowed"),
        /** S set with Rev 2, but PD_Length is below 4: the enhanced header cannot be there. */
        ENHANCED_HEADER_MISSING("MPA frame has S=1 but fewer than 4 bytes of private data");

        private final String description;

        Invalid(String description) {
            this.description = description;
        }

        /** A sentence for logs and users. */
        public String description(MpaFrameType expected) {
            return this == WRONG_KEY ? String.format(description, expected == MpaFrameType.REQUEST
                    ? "MPA ID Req Frame" : "MPA ID Rep Frame") : description;
        }
    }

    /** Index of the one byte in which the two keys differ (9: 'q' versus 'p'). */
    private static final int FIRST_KEY_DIFFERENCE = firstKeyDifference();

    private final MpaFrameType expected;
    private final int maxPrivateDataLength;
    private final MemorySegment buffer = MemorySegment.ofArray(new byte[MpaFrame.MAX_FRAME_LENGTH]);
    private final MpaFrame frame = new MpaFrame().wrap(buffer, 0);

    private int filled;
    private int needed;
    private boolean otherKeySoFar;
    private Status status;
    private Invalid invalid;
    private long consumed;

    /** A reader for frames of type {@code expected}, accepting up to 512 bytes of private data. */
    public MpaFrameReader(MpaFrameType expected) {
        this(expected, MpaFrame.MAX_PRIVATE_DATA_LENGTH);
    }

    /**
     * @param maxPrivateDataLength the largest PD_Length accepted, at most 512 (RFC 5044 §7.1.1);
     *     256 reproduces siw and cxgb4
     */
    public MpaFrameReader(MpaFrameType expected, int maxPrivateDataLength) {
        this.expected = Objects.requireNonNull(expected, "expected");
        if (maxPrivateDataLength < 0 || maxPrivateDataLength > MpaFrame.MAX_PRIVATE_DATA_LENGTH) {
            throw new IllegalArgumentException("maxPrivateDataLength " + maxPrivateDataLength
                    + " outside 0.." + MpaFrame.MAX_PRIVATE_DATA_LENGTH);
        }
        this.maxPrivateDataLength = maxPrivateDataLength;
        reset();
    }

    /** Forgets everything read so far, ready for a new frame. */
    public MpaFrameReader reset() {
        filled = 0;
        needed = MpaFrame.HEADER_LENGTH;
        otherKeySoFar = false;
        status = Status.NEED_MORE;
        invalid = null;
        consumed = 0;
        return this;
    }

    /**
     * Takes bytes {@code [offset, offset + length)} of {@code src}, as many as the frame still
     * needs. After COMPLETE or INVALID, further calls consume nothing and repeat the status.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code src} (a caller bug; the
     *     byte content can never make this method throw)
     */
    public Status feed(MemorySegment src, long offset, long length) {
        Objects.checkFromIndexSize(offset, length, src.byteSize());
        consumed = 0;
        while (status == Status.NEED_MORE) {
            int take = (int) Math.min(length - consumed, needed - filled);
            if (take > 0) {
                MemorySegment.copy(src, offset + consumed, buffer, filled, take);
                int before = filled;
                filled += take;
                consumed += take;
                if (before < MpaFrameType.KEY_LENGTH) {
                    int decidingByte = checkKeyPrefix(before);
                    if (decidingByte >= 0) {
                        // Give back what follows the byte that decided, so that the verdict and
                        // the count do not depend on how the stream was split.
                        int excess = filled - (decidingByte + 1);
                        filled -= excess;
                        consumed -= excess;
                        return status;
                    }
                }
            }
            if (filled < needed) {
                return Status.NEED_MORE;
            }
            if (needed == MpaFrame.HEADER_LENGTH) {
                Invalid why = validateHeader();
                if (why != null) {
                    return fail(why);
                }
                needed = frame.frameLength();
                if (needed > MpaFrame.HEADER_LENGTH) {
                    continue;
                }
            }
            status = Status.COMPLETE;
        }
        return status;
    }

    /**
     * Checks the key bytes that just arrived, so that garbage (an HTTP client on the port, say) is
     * refused at its first wrong byte rather than after a timeout. Bytes matching the other
     * frame's key are followed too, to tell "both initiators" from plain garbage.
     *
     * @return the index of the byte that made the frame invalid, or -1 if the key is still fine
     */
    private int checkKeyPrefix(int from) {
        int to = Math.min(filled, MpaFrameType.KEY_LENGTH);
        MpaFrameType other = expected.other();
        for (int i = from; i < to; i++) {
            int b = Wire.u8(buffer, i);
            if (!otherKeySoFar && b == expected.keyByte(i)) {
                continue;
            }
            // The keys share bytes 0..8, so "other key so far" can only start at byte 9.
            if (b == other.keyByte(i) && (otherKeySoFar || i == FIRST_KEY_DIFFERENCE)) {
                otherKeySoFar = true;
                continue;
            }
            fail(Invalid.WRONG_KEY);
            return i;
        }
        if (to == MpaFrameType.KEY_LENGTH && otherKeySoFar) {
            // RFC 5044 §7.1.2: a Request where a Reply is expected means both sides are initiators.
            // A Reply where a Request is expected is just a wrong key: two responders never send.
            fail(expected == MpaFrameType.REPLY ? Invalid.BOTH_INITIATORS : Invalid.WRONG_KEY);
            return MpaFrameType.KEY_LENGTH - 1;
        }
        return -1;
    }

    private static int firstKeyDifference() {
        for (int i = 0; i < MpaFrameType.KEY_LENGTH; i++) {
            if (MpaFrameType.REQUEST.keyByte(i) != MpaFrameType.REPLY.keyByte(i)) {
                return i;
            }
        }
        throw new AssertionError("MPA keys are identical");
    }

    private Invalid validateHeader() {
        int rev = frame.revision();
        // RFC 5044 §7.1.1: the receiver MUST check Rev and close if it cannot work with it. Rev 0
        // is the pre-IETF RDMA Consortium framing, which pairs with DDP/RDMAP version 0 that we
        // (like siw) do not speak; above 2 is a revision that did not exist when this was written.
        // RFC 6581 §6: a Rev-2 host MUST still accept Rev 1.
        if (rev != MpaFrame.REVISION_1 && rev != MpaFrame.REVISION_2) {
            return Invalid.UNSUPPORTED_REVISION;
        }
        // RFC 5044 §7.1.1: PD_Length MUST NOT exceed 512; a larger frame closes the connection.
        if (frame.privateDataLength() > maxPrivateDataLength) {
            return Invalid.PRIVATE_DATA_TOO_LONG;
        }
        // RFC 6581 §7: with S=1 the private data MUST begin with the 4-byte enhanced header.
        if (frame.hasEnhancedHeader() && frame.privateDataLength() < MpaV2Header.LENGTH) {
            return Invalid.ENHANCED_HEADER_MISSING;
        }
        return null;
    }

    private Status fail(Invalid why) {
        invalid = why;
        status = Status.INVALID;
        return status;
    }

    public Status status() {
        return status;
    }

    /**
     * Bytes taken from the input by the last {@link #feed} call. After COMPLETE, the bytes after
     * them are not part of the frame. After INVALID, they run up to and including the byte that
     * decided (the first wrong key byte, the 16th key byte, or the 20th header byte).
     */
    public long consumed() {
        return consumed;
    }

    /** Why the frame is invalid, or {@code null} unless {@link #status()} is INVALID. */
    public Invalid invalidReason() {
        return invalid;
    }

    /** The frame type this reader accepts. */
    public MpaFrameType expected() {
        return expected;
    }

    /** Bytes of the frame held so far. */
    public int bytesBuffered() {
        return filled;
    }

    /**
     * The validated frame, over the reader's own buffer: valid after COMPLETE until
     * {@link #reset()}. Decode it with {@link MpaMessage#decode(MpaFrame)} to keep it.
     *
     * @throws IllegalStateException if no complete frame is held
     */
    public MpaFrame frame() {
        if (status != Status.COMPLETE) {
            throw new IllegalStateException("no complete MPA frame: " + status);
        }
        return frame;
    }
}

package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * The receive side of MPA full operation (RFC 5044 §4, §6): a resumable state machine that turns
 * a TCP byte stream, fed in windows of any size (one byte at a time included), into FPDUs. Per
 * FPDU it yields {@link #HEADER} (the DDP and RDMAP headers, checked), zero or more
 * {@link #PAYLOAD} events that say where the payload bytes are in the window just fed — the payload
 * is never copied — and {@link #END} once the CRC has been checked. Markers (RFC 5044 §4.3) are
 * checked and stripped when the connection uses them in this direction.
 *
 * <p>Use: {@link #start}, then per window of received bytes {@link #feed} and call {@link #next}
 * until it returns {@link #NEED_MORE}; by then every byte of the window has been consumed, and the
 * window may be reused. On bad input {@link #next} returns {@link #ERROR} and {@link #error()} names
 * the Terminate (layer, type, code) to send; the decoder then stays in error and reads nothing more
 * (DESIGN rule 5: after a Terminate, input on that stream is discarded). It never throws on any
 * input, never reads outside the window, and allocates nothing.
 *
 * <p>Order of checks, so that the outcome does not depend on how the stream was split: markers as
 * they arrive; then, when the first four bytes of an FPDU are in, the ULPDU length against the
 * smallest DDP header, the DDP version (RFC 5041 §4.1), the RDMAP version and opcode (RFC 5040
 * §7.2) and the message's size ({@code FpduPreamble}); then the CRC at the end of the FPDU (RFC
 * 5044 §4.4). Payload is handed up before the CRC is checked, as siw does when it places straight
 * from the socket: the data sink may place it (into memory the peer was already allowed to write)
 * but must not deliver the message or complete a work request before {@link #END}.
 *
 * <p>Header checks that need the STag table or the receive queue (RFC 5041 §7.1, RFC 5040 §7) are
 * the protocol stack's, not this class's.
 */
public final class FpduDecoder {

    /** Every byte fed has been consumed; feed more. */
    public static final int NEED_MORE = 0;
    /** An FPDU's headers are complete and passed the framing checks: see {@link #ddpHeader()}. */
    public static final int HEADER = 1;
    /** Payload bytes of the current FPDU are in the window at {@link #chunkOffset()}. */
    public static final int PAYLOAD = 2;
    /** The current FPDU ended and its CRC (if negotiated) is good. */
    public static final int END = 3;
    /** The stream is invalid; {@link #error()} says which Terminate to send. */
    public static final int ERROR = -1;

    private static final int S_HEADER = 0;
    private static final int S_PAYLOAD = 1;
    private static final int S_PAD = 2;
    private static final int S_CRC = 3;
    private static final int S_ERROR = 4;
    /** Past a preamble that broke a rule: the rest of the FPDU is consumed for its CRC verdict only. */
    private static final int S_SKIP = 5;

    /** The first bytes of every FPDU: ULPDU_Length, DDP control, RDMAP control. */
    private static final int PREAMBLE = FpduPreamble.LENGTH;

    private final FpduCrc crc = new FpduCrc();
    private final FpduHeaders headers = new FpduHeaders();
    private final FpduMarkers markers = new FpduMarkers();
    private final FpduPreamble preamble = new FpduPreamble();

    private boolean rfc7306Enabled;

    private MemorySegment in = MemorySegment.NULL;
    private long pos;
    private long limit;

    private int state;
    /** A preamble rule the current FPDU broke, reported once its CRC holds; or null. */
    private TerminateError preambleError;
    private long streamPosition;
    private long fpduStart;
    private boolean fpduStarted;
    private int headerFill;
    private int headerNeed;

    private int payloadLength;
    private int payloadPosition;
    private int padRemaining;

    private long chunkOffset;
    private int chunkLength;
    private int chunkPayloadPosition;
    private TerminateError error;
    private long fpdus;
    /** Whether an FPDU found whole in the window is decoded in one step ({@link #decodeWhole}). */
    private boolean wholeFpduPath = true;
    /** The current FPDU was decoded whole: its CRC is checked already, its field is only stepped over. */
    private boolean checkedWhole;

    /**
     * Begins full operation on a new stream.
     *
     * @param crcEnabled     whether CRC was negotiated (RFC 5044 §7.1.2); if not, the field is skipped
     * @param markersEnabled whether the peer inserts markers in what it sends us
     * @param rfc7306Enabled whether the RFC 7306 opcodes (immediate data, atomics) are accepted
     * @param streamPosition stream bytes before the first one fed, counted from where the first
     *                       marker sits (0 at the start of full operation, RFC 5044 §4.3)
     */
    public FpduDecoder start(boolean crcEnabled, boolean markersEnabled, boolean rfc7306Enabled, long streamPosition) {
        crc.start(crcEnabled);
        markers.start(markersEnabled);
        this.rfc7306Enabled = rfc7306Enabled;
        this.streamPosition = streamPosition;
        this.in = MemorySegment.NULL;
        this.pos = 0;
        this.limit = 0;
        this.state = S_HEADER;
        this.preambleError = null;
        this.fpduStarted = false;
        this.headerFill = 0;
        this.headerNeed = PREAMBLE;
        this.error = null;
        this.fpdus = 0;
        this.checkedWhole = false;
        headers.collect();
        preamble.clear();
        return this;
    }

    /**
     * Gives the decoder the next window of stream bytes. The previous window must have been
     * consumed ({@link #next} returned {@link #NEED_MORE} or {@link #ERROR}).
     */
    public void feed(MemorySegment window, long offset, long length) {
        if (pos < limit && state != S_ERROR) {
            throw new IllegalStateException("the previous window still has " + (limit - pos) + " bytes to decode");
        }
        this.in = window;
        this.pos = offset;
        this.limit = offset + length;
        crc.from(offset);
    }

    /** Decodes until the next event; see the class comment. */
    public int next() {
        while (true) {
            if (state == S_ERROR) {
                return ERROR;
            }
            if (markers.due(streamPosition)) {
                if (pos == limit) {
                    return needMore();
                }
                if (!consumeMarker()) {
                    return ERROR;
                }
                continue;
            }
            switch (state) {
                case S_HEADER -> {
                    if (pos == limit) {
                        return needMore();
                    }
                    if (wholeFpduPath && headerFill == 0 && !markers.enabled() && decodeWhole()) {
                        return HEADER;
                    }
                    if (consumeHeader()) {
                        return state == S_ERROR ? ERROR : HEADER;
                    }
                }
                case S_PAYLOAD -> {
                    if (pos == limit) {
                        return needMore();
                    }
                    int n = available(payloadLength - payloadPosition);
                    chunkOffset = pos;
                    chunkLength = n;
                    chunkPayloadPosition = payloadPosition;
                    advance(n);
                    // the CRC reads the chunk before the caller copies it, so that the copy reads
                    // from cache what the CRC brought in, rather than the CRC what the copy evicted
                    crc.consumed(in, pos);
                    payloadPosition += n;
                    if (payloadPosition == payloadLength) {
                        state = padRemaining > 0 ? S_PAD : S_CRC;
                    }
                    return PAYLOAD;
                }
                case S_SKIP -> {
                    if (pos == limit) {
                        return needMore();
                    }
                    int n = available(payloadLength - payloadPosition);
                    advance(n);
                    payloadPosition += n;
                    if (payloadPosition == payloadLength) {
                        state = padRemaining > 0 ? S_PAD : S_CRC;
                    }
                }
                case S_PAD -> {
                    if (pos == limit) {
                        return needMore();
                    }
                    int n = available(padRemaining);
                    advance(n);
                    padRemaining -= n;
                    if (padRemaining == 0) {
                        state = S_CRC;
                    }
                }
                case S_CRC -> {
                    if (checkedWhole) {
                        checkedWhole = false;
                        advance(Fpdu.CRC_LENGTH);
                        crc.from(pos);
                        return endOfFpdu(true);
                    }
                    if (!crc.fieldStarted()) {
                        crc.consumed(in, pos); // RFC 5044 §4.4: the CRC covers everything before the CRC field
                    }
                    if (pos == limit) {
                        return NEED_MORE;
                    }
                    int n = available(crc.fieldMissing());
                    boolean whole = crc.collect(in, pos, n);
                    advance(n);
                    if (whole) {
                        return endOfFpdu(false);
                    }
                }
                default -> throw new IllegalStateException("decoder state " + state);
            }
        }
    }

    private int needMore() {
        crc.consumed(in, pos);
        return NEED_MORE;
    }

    /** Collects header bytes; true once the whole header is in (or an error was found). */
    private boolean consumeHeader() {
        if (!fpduStarted) {
            fpduStarted = true;
            fpduStart = streamPosition;
            headers.collect();
        }
        int n = available(headerNeed - headerFill);
        MemorySegment.copy(in, pos, headers.segment(), headerFill, n);
        advance(n);
        headerFill += n;
        if (headerFill < headerNeed) {
            return false;
        }
        if (headerNeed == PREAMBLE) {
            TerminateError e = preamble.check(headers.segment(), rfc7306Enabled);
            int ulpduLength = preamble.ulpduLength();
            if (e != null) {
                int rest = ulpduLength - (PREAMBLE - Fpdu.LENGTH_FIELD);
                if (!crc.enabled() || rest < 0) {
                    fail(e);
                    return true;
                }
                // RFC 5044 §4.4: an FPDU is passed on only once its CRC is good, and a corrupted
                // preamble is the likeliest cause of a broken rule: the CRC verdict comes first.
                preambleError = e;
                payloadLength = rest;
                payloadPosition = 0;
                padRemaining = Fpdu.pad(ulpduLength);
                state = rest > 0 ? S_SKIP : padRemaining > 0 ? S_PAD : S_CRC;
                return false;
            }
            headerNeed = Fpdu.LENGTH_FIELD + preamble.headerLength();
            return false;
        }
        payloadLength = preamble.ulpduLength() - preamble.headerLength();
        payloadPosition = 0;
        padRemaining = Fpdu.pad(preamble.ulpduLength());
        state = payloadLength > 0 ? S_PAYLOAD : padRemaining > 0 ? S_PAD : S_CRC;
        return true;
    }

    /** Consumes marker bytes; false if the marker contradicts the FPDU framing. */
    private boolean consumeMarker() {
        advance(markers.take(in, pos, limit));
        if (!markers.holds(streamPosition, fpduStarted ? fpduStart : -1)) {
            fail(MpaError.MARKER_ERROR);
            return false;
        }
        return true;
    }

    /**
     * The small-message path: an FPDU that lies whole in the window, at an FPDU boundary on a
     * stream without markers, is checked and its headers taken in one step — one copy of the
     * headers, one CRC pass over the FPDU, checked before any of it is handed up (RFC 5044 §4.4) —
     * instead of byte run by byte run. Anything else (a broken rule, a bad CRC, an FPDU that
     * continues past the window) is left to the general path, which decodes it from the same
     * position and reports exactly what it reports for any split of the stream.
     */
    private boolean decodeWhole() {
        long left = limit - pos;
        if (left < PREAMBLE) {
            return false;
        }
        int ulpduLength = Wire.u16(in, pos);
        int wire = Fpdu.length(ulpduLength);
        if (left < wire) {
            return false;
        }
        if (preamble.check(in, pos, rfc7306Enabled) != null) {
            return false;
        }
        if (!crc.wholeMatches(in, pos, pos + wire - Fpdu.CRC_LENGTH)) {
            return false;
        }
        fpduStarted = true;
        fpduStart = streamPosition;
        // the headers are read where they lie: the window holds them until the FPDU's end
        headers.inWindow(in, pos);
        headerNeed = Fpdu.LENGTH_FIELD + preamble.headerLength();
        headerFill = headerNeed;
        advance(headerNeed);
        crc.from(pos);
        checkedWhole = true;
        payloadLength = ulpduLength - preamble.headerLength();
        payloadPosition = 0;
        padRemaining = Fpdu.pad(ulpduLength);
        state = payloadLength > 0 ? S_PAYLOAD : padRemaining > 0 ? S_PAD : S_CRC;
        return true;
    }

    /** Turns the whole-FPDU path ({@link #decodeWhole}) on or off; on by default. */
    public FpduDecoder wholeFpduPath(boolean on) {
        this.wholeFpduPath = on;
        return this;
    }

    private int endOfFpdu(boolean crcChecked) {
        // RFC 5044 §4.4: if CRC was negotiated, an FPDU whose CRC does not match is invalid (MPA
        // error 2). Without CRC the field is present but MUST NOT be checked.
        if (!crc.end(crcChecked)) {
            preambleError = null;
            fail(MpaError.CRC_ERROR);
            return ERROR;
        }
        if (preambleError != null) {
            TerminateError e = preambleError;
            preambleError = null;
            fail(e);
            return ERROR;
        }
        state = S_HEADER;
        headerFill = 0;
        headerNeed = PREAMBLE;
        fpduStarted = false;
        fpdus++;
        return END;
    }

    private void fail(TerminateError e) {
        error = e;
        state = S_ERROR;
    }

    /** Bytes that can be consumed now: bounded by the window and by the next marker. */
    private int available(int wanted) {
        long n = Math.min(wanted, limit - pos);
        if (markers.enabled()) {
            n = Math.min(n, FpduMarkers.untilNext(streamPosition));
        }
        return (int) n;
    }

    private void advance(int n) {
        pos += n;
        streamPosition += n;
    }

    // ---- zero-copy receive ----------------------------------------------------------------

    /**
     * How many payload bytes of the current FPDU the caller may read from the socket straight into
     * their destination, bypassing the window: 0 unless the window is used up and payload remains.
     * Bounded by the next marker, which must go through the decoder.
     */
    public int externalPayloadLimit() {
        if (state != S_PAYLOAD || pos < limit || markers.due(streamPosition)) {
            return 0; // window bytes, or a marker, must go through the decoder first
        }
        int wanted = payloadLength - payloadPosition;
        return markers.enabled() ? Math.min(wanted, FpduMarkers.untilNext(streamPosition)) : wanted;
    }

    /**
     * Accounts for {@code length} payload bytes that the caller received outside the window, now
     * held at {@code segment[offset ..]}: they enter the CRC and the stream position as if fed.
     */
    public void payloadReceivedExternally(MemorySegment segment, long offset, int length) {
        if (length < 0 || length > externalPayloadLimit()) {
            throw new IllegalArgumentException("external payload of " + length + " bytes exceeds "
                    + externalPayloadLimit());
        }
        crc.consumed(in, pos);
        crc.external(segment, offset, length);
        streamPosition += length;
        payloadPosition += length;
        if (payloadPosition == payloadLength) {
            state = padRemaining > 0 ? S_PAD : S_CRC;
        }
    }

    // ---- results ----------------------------------------------------------------------------

    /** After {@link #HEADER}: the DDP header of the current FPDU (valid until its {@link #END}). */
    public DdpHeader ddpHeader() {
        return headers.ddp();
    }

    /** After {@link #HEADER}: the RDMAP opcode. */
    public RdmapOpcode opcode() {
        return preamble.opcode();
    }

    public int ulpduLength() {
        return preamble.ulpduLength();
    }

    /** After {@link #HEADER}: where the RDMAP header (Read Request, Terminate, ...) is. */
    public MemorySegment rdmapHeaderSegment() {
        return headers.segment();
    }

    public long rdmapHeaderOffset() {
        return headers.rdmapOffset();
    }

    public int rdmapHeaderLength() {
        return headers.rdmapLength(preamble.headerLength());
    }

    /** After {@link #HEADER}: ULP payload bytes this segment carries. */
    public int payloadLength() {
        return payloadLength;
    }

    /** Payload bytes of the current segment consumed so far (fed or received externally). */
    public int payloadPosition() {
        return payloadPosition;
    }

    /** Payload bytes of the current segment still to come (0 outside a payload). */
    public int payloadRemaining() {
        return state == S_PAYLOAD ? payloadLength - payloadPosition : 0;
    }

    /** After {@link #PAYLOAD}: the window holding the chunk. */
    public MemorySegment chunkSegment() {
        return in;
    }

    public long chunkOffset() {
        return chunkOffset;
    }

    public int chunkLength() {
        return chunkLength;
    }

    /** After {@link #PAYLOAD}: the chunk's offset inside this segment's payload. */
    public int chunkPayloadPosition() {
        return chunkPayloadPosition;
    }

    /**
     * The CRC field of the FPDU that just ended (END) or failed its check (CRC_ERROR), as the value
     * on the wire would read LSB first.
     */
    public int receivedCrc() {
        return crc.received();
    }

    /** After {@link #ERROR}: the Terminate to send. */
    public TerminateError error() {
        return error;
    }

    public boolean failed() {
        return state == S_ERROR;
    }

    /** FPDUs decoded whole (CRC good) since {@link #start}. */
    public long fpdus() {
        return fpdus;
    }

    /** Stream bytes consumed since full operation began (markers included). */
    public long streamPosition() {
        return streamPosition;
    }

    /** True if the decoder is between FPDUs (nothing of an FPDU held back). */
    public boolean atFpduBoundary() {
        return state == S_HEADER && headerFill == 0 && !markers.partial();
    }
}

package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Crc32c;

/**
 * The CRC check of the FPDU {@link FpduDecoder} is reading (RFC 5044 §4.4): the CRC covers every
 * byte of the FPDU before its CRC field, markers included, and is run over each run of consumed
 * window bytes once, not byte by byte; the received field is collected as it arrives, in as many
 * pieces as the stream was split into. Without CRC negotiated the field is present but MUST NOT
 * be checked, and nothing is computed.
 */
final class FpduCrc {

    private final Crc32c crc = new Crc32c();
    private final MemorySegment field = MemorySegment.ofArray(new byte[Fpdu.CRC_LENGTH]);
    private boolean enabled;
    /** Start of the consumed window bytes not yet added to the CRC. */
    private long from;
    /** Bytes of the received CRC field collected so far. */
    private int fill;

    /** A new stream: CRC negotiated or not. */
    void start(boolean enabled) {
        this.enabled = enabled;
        this.from = 0;
        this.fill = 0;
        crc.reset();
    }

    boolean enabled() {
        return enabled;
    }

    /** The window bytes from {@code pos} on are not in the CRC yet (a new window, or bytes already checked). */
    void from(long pos) {
        from = pos;
    }

    /** Adds the window bytes consumed since the last call, up to {@code pos}. */
    void consumed(MemorySegment window, long pos) {
        if (enabled && pos > from) {
            crc.update(window, from, pos - from);
        }
        from = pos;
    }

    /** Adds bytes the caller received outside the window (zero-copy receive). */
    void external(MemorySegment segment, long offset, int length) {
        if (enabled) {
            crc.update(segment, offset, length);
        }
    }

    /** Bytes of the CRC field still to collect. */
    int fieldMissing() {
        return Fpdu.CRC_LENGTH - fill;
    }

    /** Whether no byte of the CRC field has been collected yet. */
    boolean fieldStarted() {
        return fill > 0;
    }

    /** Collects {@code n} bytes of the CRC field from the window at {@code pos}; true once it is whole. */
    boolean collect(MemorySegment window, long pos, int n) {
        MemorySegment.copy(window, pos, field, fill, n);
        fill += n;
        from = pos + n;
        return fill == Fpdu.CRC_LENGTH;
    }

    /**
     * The FPDU ended: whether its CRC holds — always without CRC, and for an FPDU whose CRC
     * {@link #wholeMatches} checked already. The check starts over.
     */
    boolean end(boolean checkedWhole) {
        boolean ok = !enabled || checkedWhole || Crc32c.getWire(field, 0) == crc.value();
        fill = 0;
        crc.reset();
        return ok;
    }

    /** An FPDU whole in the window, from {@code start} to its CRC field at {@code crcAt}: whether its CRC holds. */
    boolean wholeMatches(MemorySegment window, long start, long crcAt) {
        if (!enabled) {
            return true;
        }
        int computed = crc.reset().update(window, start, crcAt - start).value();
        crc.reset();
        return computed == Crc32c.getWire(window, crcAt);
    }

    /** The CRC field of the last FPDU as received (for diagnostics). */
    int received() {
        return Crc32c.getWire(field, 0);
    }
}

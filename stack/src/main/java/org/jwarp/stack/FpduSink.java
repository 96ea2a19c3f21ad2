package org.jwarp.stack;

import java.lang.foreign.MemorySegment;

/**
 * Where the protocol machine's transmit path puts FPDUs: one call per DDP segment, with the
 * segment's headers and a reference to its payload in registered memory. A sink that copies
 * ({@link BufferFpduSink}) frames everything into a buffer; a gathering sink may instead frame
 * only the headers and hand the payload reference to the socket (no copy).
 */
public interface FpduSink {

    /** True if the sink can take one more FPDU whose ULPDU is {@code ulpduLength} bytes. */
    boolean hasRoom(int ulpduLength);

    /**
     * Takes one FPDU: the ULPDU is {@code header} followed by {@code payload}.
     *
     * @throws IllegalStateException if {@code payload}'s memory was freed (its arena closed); the
     *                               sink then took nothing of this FPDU
     */
    void frame(MemorySegment header, long headerOffset, int headerLength,
               MemorySegment payload, long payloadOffset, int payloadLength);

    /**
     * For a sink that keeps references to payload in registered memory until the socket has taken
     * it: the number of bytes framed so far, a barrier the owner later releases through
     * {@link RdmapStream#released(long)}. A Send or Write must not complete before its bytes have
     * left the application's memory (OFED: a completion means the buffer may be reused). A sink
     * that copies returns -1: what it framed is already out of the application's memory.
     */
    default long completionBarrier() {
        return -1;
    }
}

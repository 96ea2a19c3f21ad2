package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.fpdu.FpduEncoder;

/**
 * An {@link FpduSink} that frames whole FPDUs (header, payload copy, pad, CRC, markers) into a
 * transmit buffer that the owner drains to the socket. The encoder keeps the stream position, so
 * one sink serves one TX stream.
 */
public final class BufferFpduSink implements FpduSink {

    private final FpduEncoder encoder = new FpduEncoder();
    private final MemorySegment buffer;
    /** Bytes [start, position) are framed and not yet drained; the buffer is compacted only when full. */
    private long start;
    private long position;

    public BufferFpduSink(MemorySegment buffer) {
        this.buffer = buffer;
    }

    /** Begins full operation (see {@link FpduEncoder#start}). */
    public BufferFpduSink start(boolean crc, boolean markers, long streamPosition) {
        encoder.start(crc, markers, streamPosition);
        start = 0;
        position = 0;
        return this;
    }

    @Override
    public boolean hasRoom(int ulpduLength) {
        long need = encoder.encodedLength(ulpduLength);
        if (position + need > buffer.byteSize() && start > 0) {
            // move what is still unsent to the front, once, rather than after every partial write
            MemorySegment.copy(buffer, start, buffer, 0, position - start);
            position -= start;
            start = 0;
        }
        return position + need <= buffer.byteSize();
    }

    @Override
    public void frame(MemorySegment header, long headerOffset, int headerLength,
                      MemorySegment payload, long payloadOffset, int payloadLength) {
        position += encoder.encode(buffer, position, header, headerOffset, headerLength,
                payload, payloadOffset, payloadLength);
    }

    public MemorySegment buffer() {
        return buffer;
    }

    /** Offset in {@link #buffer()} of the first framed byte not yet drained. */
    public long start() {
        return start;
    }

    /** Offset in {@link #buffer()} just past the last framed byte. */
    public long position() {
        return position;
    }

    /** Framed bytes not yet drained: [{@link #start()}, {@link #position()}). */
    public long pending() {
        return position - start;
    }

    /** The next {@code drained} pending bytes went to the socket. */
    public void drained(long drained) {
        if (drained < 0 || drained > pending()) {
            throw new IllegalArgumentException("drained " + drained + " of " + pending());
        }
        start += drained;
        if (start == position) {
            start = 0;
            position = 0;
        }
    }
}

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
    private long position;

    public BufferFpduSink(MemorySegment buffer) {
        this.buffer = buffer;
    }

    /** Begins full operation (see {@link FpduEncoder#start}). */
    public BufferFpduSink start(boolean crc, boolean markers, long streamPosition) {
        encoder.start(crc, markers, streamPosition);
        position = 0;
        return this;
    }

    @Override
    public boolean hasRoom(int ulpduLength) {
        return position + encoder.encodedLength(ulpduLength) <= buffer.byteSize();
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

    /** Bytes framed and not yet drained. */
    public long position() {
        return position;
    }

    /** Drops the first {@code drained} bytes (they went to the socket), keeping the rest in order. */
    public void drained(long drained) {
        if (drained < 0 || drained > position) {
            throw new IllegalArgumentException("drained " + drained + " of " + position);
        }
        MemorySegment.copy(buffer, drained, buffer, 0, position - drained);
        position -= drained;
    }
}

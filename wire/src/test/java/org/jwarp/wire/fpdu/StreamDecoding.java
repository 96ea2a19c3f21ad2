package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * Test helper: runs {@link FpduDecoder} over a byte stream cut into windows, and records the
 * frames it yields. Each window is a fresh copy that is overwritten with garbage as soon as the
 * decoder says it is consumed, so a decoder that kept a reference to old bytes fails the
 * comparison. Also checks the decoder's event contract (chunks contiguous, within the window).
 */
public final class StreamDecoding {

    /** What a decoding produced: the whole frames, and the error that stopped it, if any. */
    public record Outcome(List<FrameStream.Frame> frames, TerminateError error, boolean atBoundary) {
    }

    private static final HexFormat HEX = HexFormat.of();

    private StreamDecoding() {
    }

    /**
     * Decodes {@code stream}; {@code windowSize} gives the size of the next window from the number
     * of bytes fed so far (return {@code Integer.MAX_VALUE} for "the rest").
     */
    public static Outcome decode(byte[] stream, boolean crc, boolean markers, long streamPosition,
                                 IntUnaryOperator windowSize) {
        return decode(stream, crc, markers, streamPosition, windowSize, true);
    }

    /** As {@link #decode(byte[], boolean, boolean, long, IntUnaryOperator)}, with the whole-FPDU path on or off. */
    public static Outcome decode(byte[] stream, boolean crc, boolean markers, long streamPosition,
                                 IntUnaryOperator windowSize, boolean wholeFpduPath) {
        FpduDecoder d = new FpduDecoder().start(crc, markers, true, streamPosition).wholeFpduPath(wholeFpduPath);
        List<FrameStream.Frame> frames = new ArrayList<>();
        byte[] payload = null;
        String header = null;
        int fed = 0;
        int events = 0;
        while (fed < stream.length) {
            int n = (int) Math.min(Math.max(1, windowSize.applyAsInt(fed)), (long) stream.length - fed);
            byte[] window = Arrays.copyOfRange(stream, fed, fed + n);
            MemorySegment w = MemorySegment.ofArray(window);
            d.feed(w, 0, n);
            fed += n;
            int ev;
            while ((ev = d.next()) != FpduDecoder.NEED_MORE) {
                if (++events > 4 * stream.length + 16) {
                    throw new AssertionError("decoder loops: more events than bytes");
                }
                switch (ev) {
                    case FpduDecoder.HEADER -> {
                        // the DDP header and the RDMAP header after it, wherever the decoder holds them
                        long ddp = d.ddpHeader().offset();
                        int hl = (int) (d.rdmapHeaderOffset() - ddp + d.rdmapHeaderLength());
                        byte[] h = new byte[hl];
                        MemorySegment.copy(d.rdmapHeaderSegment(), ddp, MemorySegment.ofArray(h), 0, hl);
                        header = HEX.formatHex(h);
                        payload = new byte[d.payloadLength()];
                    }
                    case FpduDecoder.PAYLOAD -> {
                        if (d.chunkSegment() != w || d.chunkOffset() < 0 || d.chunkOffset() + d.chunkLength() > n
                                || d.chunkLength() <= 0) {
                            throw new AssertionError("payload chunk outside the window");
                        }
                        MemorySegment.copy(w, d.chunkOffset(), MemorySegment.ofArray(payload),
                                d.chunkPayloadPosition(), d.chunkLength());
                    }
                    case FpduDecoder.END -> frames.add(new FrameStream.Frame(d.opcode(), header, payload));
                    case FpduDecoder.ERROR -> {
                        return new Outcome(frames, d.error(), false);
                    }
                    default -> throw new AssertionError("unknown event " + ev);
                }
            }
            Arrays.fill(window, (byte) 0xA5); // consumed: the decoder must not look at it again
        }
        return new Outcome(frames, null, d.atFpduBoundary());
    }

    public static Outcome decodeWhole(byte[] stream, boolean crc, boolean markers, long streamPosition) {
        return decode(stream, crc, markers, streamPosition, fed -> Integer.MAX_VALUE);
    }

    public static Outcome decodeByteByByte(byte[] stream, boolean crc, boolean markers, long streamPosition) {
        return decode(stream, crc, markers, streamPosition, fed -> 1);
    }
}

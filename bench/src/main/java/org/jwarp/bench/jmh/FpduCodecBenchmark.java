package org.jwarp.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.jwarp.wire.Crc32c;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.ddp.DdpSegmenter;
import org.jwarp.wire.fpdu.Fpdu;
import org.jwarp.wire.fpdu.FpduDecoder;
import org.jwarp.wire.fpdu.FpduEncoder;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The wire layer's cost per message: an RDMA Write of {@code size} payload bytes framed as FPDUs
 * at the largest MULPDU (65535, one FPDU up to 64 KiB - 14), in native memory as the engine uses it.
 * Each benchmark processes one message; JMH reports time per message, from which bytes/s follow.
 *
 * <ul>
 *   <li>{@code crc32c}: CRC32c alone over the message's FPDU bytes — the floor for anything that
 *       checks the CRC;</li>
 *   <li>{@code decode}: the FPDU decoder over those bytes, CRC on (headers, payload events, CRC);</li>
 *   <li>{@code decodeNoCrc}: the same with CRC off — the decoder's own framing cost;</li>
 *   <li>{@code encode}: segment and frame the message, copying the payload, CRC on;</li>
 *   <li>{@code encodeZeroCopy}: prefix + CRC over the payload + trailer, no payload copy (what the
 *       engine does before a gathering write).</li>
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class FpduCodecBenchmark {

    static final int MULPDU = Fpdu.MAX_ULPDU_LENGTH;

    @Param({"64", "1024", "65536"})
    public int size;

    private Arena arena;
    private MemorySegment payload;
    private MemorySegment wire;
    private MemorySegment out;
    private MemorySegment header;
    private long wireLength;
    private final FpduEncoder encoder = new FpduEncoder();
    private final FpduDecoder decoder = new FpduDecoder();
    private final DdpSegmenter segmenter = new DdpSegmenter();
    private final Crc32c crc = new Crc32c();

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        payload = arena.allocate(size, 64);
        for (int i = 0; i < size; i++) {
            payload.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 31));
        }
        header = arena.allocate(64);
        out = arena.allocate(size + 1024, 64);
        wire = arena.allocate(size + 1024, 64);
        wireLength = encodeMessage(wire);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    private long encodeMessage(MemorySegment dst) {
        encoder.start(true, false, 0);
        segmenter.tagged(RdmapOpcode.RDMA_WRITE, 0x1234, 0, size, MULPDU);
        long d = 0;
        while (segmenter.next()) {
            int h = segmenter.writeHeader(header, 0);
            d += encoder.encode(dst, d, header, 0, h, payload, segmenter.messageOffset(), segmenter.payloadLength());
        }
        return d;
    }

    @Benchmark
    public int crc32c() {
        return crc.reset().update(wire, 0, wireLength).value();
    }

    @Benchmark
    public long encode() {
        return encodeMessage(out);
    }

    @Benchmark
    public long encodeZeroCopy() {
        encoder.start(true, false, 0);
        segmenter.tagged(RdmapOpcode.RDMA_WRITE, 0x1234, 0, size, MULPDU);
        long d = 0;
        while (segmenter.next()) {
            int h = segmenter.writeHeader(header, 0);
            d += encoder.encodePrefix(out, 0, header, 0, h, segmenter.payloadLength());
            encoder.payload(payload, segmenter.messageOffset(), segmenter.payloadLength());
            d += encoder.encodeTrailer(out, 16);
        }
        return d;
    }

    @Benchmark
    public long decode() {
        return decodeWith(true);
    }

    @Benchmark
    public long decodeNoCrc() {
        return decodeWith(false);
    }

    private long decodeWith(boolean crcOn) {
        decoder.start(crcOn, false, false, 0);
        decoder.feed(wire, 0, wireLength);
        long sum = 0;
        int ev;
        while ((ev = decoder.next()) > FpduDecoder.NEED_MORE) {
            if (ev == FpduDecoder.PAYLOAD) {
                sum += decoder.chunkLength();
            }
        }
        if (ev != FpduDecoder.NEED_MORE || sum != size) {
            throw new IllegalStateException("benchmark stream did not decode");
        }
        return sum;
    }
}

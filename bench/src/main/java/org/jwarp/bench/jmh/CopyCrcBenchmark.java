package org.jwarp.bench.jmh;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.jwarp.wire.Crc32c;
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
 * The receive side's copy out of the staging buffer with the CRC32c of the same bytes (RFC 5044
 * §4.4), the pass more than a sockets receiver makes: which way of doing both costs least per
 * payload. {@code size}: one FPDU's payload at MTU 1500 (an MSS of 1,448 bytes less
 * the FPDU's own) and a 64 KiB one.
 * <ul>
 *   <li>{@code twoPasses}: copy, then the JDK's CRC32C (an intrinsic using the CPU's CRC32
 *       instruction) over the source;</li>
 *   <li>{@code crcThenCopy}: the CRC over the source, then the copy, which reads it from cache;</li>
 *   <li>{@code crcOfCopy}: copy, then the CRC over the destination, while the copy is in cache;</li>
 *   <li>{@code chunked}: both, 4 KiB at a time, so that the second pass reads from L1;</li>
 *   <li>{@code fusedLoop}: one pass in Java, eight bytes at a time: each long is stored to the
 *       destination and folded into the CRC with a slicing-by-8 table (the JDK exposes the CRC32
 *       instruction only through {@code CRC32C.update}, on arrays and buffers, not per word).</li>
 * </ul>
 * Run: {@code java -jar bench/target/jwarp-jmh.jar CopyCrcBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class CopyCrcBenchmark {

    static final int CHUNK = 4096;

    @Param({"1428", "65536"})
    public int size;

    private Arena arena;
    private MemorySegment staging;
    private MemorySegment region;
    private final Crc32c crc = new Crc32c();
    private final SlicingCrc32c slicing = new SlicingCrc32c();

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        staging = arena.allocate(size, 64);
        region = arena.allocate(size, 64);
        for (int i = 0; i < size; i++) {
            staging.set(JAVA_BYTE, i, (byte) (i * 31 + 7));
        }
        int expected = crc.reset().update(staging, 0, size).value();
        if (fusedLoop() != expected || chunked() != expected || crcOfCopy() != expected
                || crcThenCopy() != expected || twoPasses() != expected) {
            throw new IllegalStateException("the ways disagree on the CRC");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public int twoPasses() {
        MemorySegment.copy(staging, 0, region, 0, size);
        return crc.reset().update(staging, 0, size).value();
    }

    @Benchmark
    public int crcThenCopy() {
        int value = crc.reset().update(staging, 0, size).value();
        MemorySegment.copy(staging, 0, region, 0, size);
        return value;
    }

    @Benchmark
    public int crcOfCopy() {
        MemorySegment.copy(staging, 0, region, 0, size);
        return crc.reset().update(region, 0, size).value();
    }

    @Benchmark
    public int chunked() {
        crc.reset();
        for (long at = 0; at < size; at += CHUNK) {
            long n = Math.min(CHUNK, size - at);
            MemorySegment.copy(staging, at, region, at, n);
            crc.update(region, at, n);
        }
        return crc.value();
    }

    @Benchmark
    public int fusedLoop() {
        return slicing.copyAndCrc(staging, region, size);
    }

    /** CRC32c (reflected 0x82F63B78) by slicing-by-8 tables, folding each long as it is copied. */
    static final class SlicingCrc32c {
        private final int[][] table = new int[8][256];

        SlicingCrc32c() {
            for (int i = 0; i < 256; i++) {
                int c = i;
                for (int k = 0; k < 8; k++) {
                    c = (c & 1) != 0 ? (c >>> 1) ^ 0x82F63B78 : c >>> 1;
                }
                table[0][i] = c;
            }
            for (int i = 0; i < 256; i++) {
                for (int t = 1; t < 8; t++) {
                    table[t][i] = (table[t - 1][i] >>> 8) ^ table[0][table[t - 1][i] & 0xFF];
                }
            }
        }

        int copyAndCrc(MemorySegment src, MemorySegment dst, int n) {
            int c = ~0;
            int i = 0;
            int[] t0 = table[0], t1 = table[1], t2 = table[2], t3 = table[3];
            int[] t4 = table[4], t5 = table[5], t6 = table[6], t7 = table[7];
            for (; i + 8 <= n; i += 8) {
                long v = src.get(JAVA_LONG_UNALIGNED, i);
                dst.set(JAVA_LONG_UNALIGNED, i, v);
                int lo = (int) v ^ c;
                int hi = (int) (v >>> 32);
                c = t7[lo & 0xFF] ^ t6[(lo >>> 8) & 0xFF] ^ t5[(lo >>> 16) & 0xFF] ^ t4[lo >>> 24]
                        ^ t3[hi & 0xFF] ^ t2[(hi >>> 8) & 0xFF] ^ t1[(hi >>> 16) & 0xFF] ^ t0[hi >>> 24];
            }
            for (; i < n; i++) {
                byte b = src.get(JAVA_BYTE, i);
                dst.set(JAVA_BYTE, i, b);
                c = (c >>> 8) ^ t0[(c ^ b) & 0xFF];
            }
            return ~c;
        }
    }
}

package org.jwarp.wire.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import java.util.stream.Stream;
import org.jwarp.wire.Wire;
import org.jwarp.wire.mpa.MpaFrameReader.Invalid;
import org.jwarp.wire.mpa.MpaFrameReader.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The resumable MPA frame reader: any split, exact consumption, every INVALID reason, no throws. */
class MpaFrameReaderTest {

    private static final long BASE_SEED = 0x6D70_6131L;

    static Stream<MpaVectors.Vector> vectors() {
        return MpaVectors.ALL.stream();
    }

    private static RandomGenerator random(long seed) {
        return RandomGeneratorFactory.of("L64X128MixRandom").create(seed);
    }

    /** Result of feeding a whole input in chunks. */
    private record Fed(Status status, Invalid reason, long consumed, MpaMessage message) {
    }

    /** Feeds {@code bytes} in chunks whose sizes come from {@code sizes}; each chunk is an exact slice. */
    private static Fed feed(MpaFrameReader r, byte[] bytes, java.util.function.IntUnaryOperator sizes) {
        MemorySegment all = MemorySegment.ofArray(bytes);
        long pos = 0;
        long total = 0;
        Status st = r.status();
        int calls = 0;
        while (pos < bytes.length) {
            int n = Math.max(1, Math.min(sizes.applyAsInt((int) (bytes.length - pos)), bytes.length - (int) pos));
            // An exact slice: reading outside the bytes given would throw IndexOutOfBoundsException.
            st = r.feed(all.asSlice(pos, n), 0, n);
            long c = r.consumed();
            assertTrue(c >= 0 && c <= n, "consumed " + c + " of " + n);
            if (st == Status.NEED_MORE) {
                assertEquals(n, c, "NEED_MORE must consume everything given");
            }
            total += c;
            pos += n;
            if (st != Status.NEED_MORE) {
                break;
            }
            if (++calls > bytes.length + 1) {
                fail("reader loops");
            }
        }
        return new Fed(st, r.invalidReason(), total,
                st == Status.COMPLETE ? MpaMessage.decode(r.frame()) : null);
    }

    private static Fed oneShot(MpaFrameType type, byte[] bytes) {
        return feed(new MpaFrameReader(type), bytes, rest -> rest);
    }

    private static Fed byteByByte(MpaFrameType type, byte[] bytes) {
        return feed(new MpaFrameReader(type), bytes, rest -> 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void vectorOneByteAtATime(MpaVectors.Vector v) {
        byte[] b = v.bytes();
        MpaFrameReader r = new MpaFrameReader(v.message().type());
        MemorySegment s = MemorySegment.ofArray(b);
        for (int i = 0; i < b.length; i++) {
            Status st = r.feed(s, i, 1);
            assertEquals(1, r.consumed());
            assertEquals(i == b.length - 1 ? Status.COMPLETE : Status.NEED_MORE, st, "byte " + i);
        }
        assertEquals(v.message(), MpaMessage.decode(r.frame()));
        assertEquals(b.length, r.frame().frameLength());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void vectorInSeededRandomSplits(MpaVectors.Vector v) {
        for (int i = 0; i < 200; i++) {
            long seed = BASE_SEED + i;
            RandomGenerator rnd = random(seed);
            Fed fed = feed(new MpaFrameReader(v.message().type()), v.bytes(), rest -> 1 + rnd.nextInt(rest));
            assertEquals(Status.COMPLETE, fed.status(), "seed " + seed);
            assertEquals(v.bytes().length, fed.consumed(), "seed " + seed);
            assertEquals(v.message(), fed.message(), "seed " + seed);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void bytesBehindTheFrameAreNotConsumed(MpaVectors.Vector v) {
        byte[] frame = v.bytes();
        byte[] withFpdu = new byte[frame.length + 20];
        System.arraycopy(frame, 0, withFpdu, 0, frame.length);
        System.arraycopy(Wire.unhex("00 0e c1 40 00 00 00 01 00 00 00 00 00 00 00 00 eb d3 4c 5f"),
                0, withFpdu, frame.length, 20);
        MpaFrameReader r = new MpaFrameReader(v.message().type());
        MemorySegment s = MemorySegment.ofArray(withFpdu);
        assertEquals(Status.COMPLETE, r.feed(s, 0, withFpdu.length));
        assertEquals(frame.length, r.consumed());
        assertEquals(v.message(), MpaMessage.decode(r.frame()));
        // Further input is never taken.
        assertEquals(Status.COMPLETE, r.feed(s, frame.length, 20));
        assertEquals(0, r.consumed());
    }

    @Test
    void httpGarbageIsRefusedAtTheFirstByte() {
        byte[] get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        MpaFrameReader r = new MpaFrameReader(MpaFrameType.REQUEST);
        assertEquals(Status.INVALID, r.feed(MemorySegment.ofArray(get), 0, 1));
        assertEquals(Invalid.WRONG_KEY, r.invalidReason());
        assertEquals(1, r.consumed());
        assertEquals(Status.INVALID, r.feed(MemorySegment.ofArray(get), 1, get.length - 1));
        assertEquals(0, r.consumed());
        Fed whole = oneShot(MpaFrameType.REQUEST, get);
        assertEquals(Invalid.WRONG_KEY, whole.reason());
        assertEquals(1, whole.consumed());
    }

    @Test
    void aRequestWhereAReplyIsExpectedMeansBothSidesAreInitiators() {
        for (MpaVectors.Vector v : new MpaVectors.Vector[] {MpaVectors.JAVA_REQUEST,
                MpaVectors.SIW_DEFAULT_REQUEST, MpaVectors.REV1_REQUEST}) {
            assertEquals(Invalid.BOTH_INITIATORS, oneShot(MpaFrameType.REPLY, v.bytes()).reason());
            assertEquals(Invalid.BOTH_INITIATORS, byteByByte(MpaFrameType.REPLY, v.bytes()).reason());
        }
    }

    @Test
    void aReplyWhereARequestIsExpectedIsAWrongKey() {
        Fed fed = byteByByte(MpaFrameType.REQUEST, MpaVectors.JAVA_REPLY.bytes());
        assertEquals(Invalid.WRONG_KEY, fed.reason());
        // Decided when the 16th key byte arrives, not before: bytes 10..15 could still be anything.
        assertEquals(16, fed.consumed());
    }

    @Test
    void keyWithByteNineOfTheOtherKeyButThenGarbageIsAWrongKey() {
        byte[] b = MpaVectors.JAVA_REQUEST.bytes();
        b[12] = 'X';
        assertEquals(Invalid.WRONG_KEY, byteByByte(MpaFrameType.REPLY, b).reason());
        assertEquals(13, byteByByte(MpaFrameType.REPLY, b).consumed());
        assertEquals(Invalid.WRONG_KEY, byteByByte(MpaFrameType.REQUEST, b).reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 4, 0x80, 0xFF})
    void unsupportedRevision(int rev) {
        byte[] b = Wire.unhex(MpaVectors.REQUEST_KEY + " 40 00 00 00");
        b[17] = (byte) rev;
        assertEquals(Invalid.UNSUPPORTED_REVISION, oneShot(MpaFrameType.REQUEST, b).reason());
        assertEquals(Invalid.UNSUPPORTED_REVISION, byteByByte(MpaFrameType.REQUEST, b).reason());
    }

    @Test
    void privateDataLimitIs512AndIsCheckedBeforeTheDataArrives() {
        byte[] b = Wire.unhex(MpaVectors.REPLY_KEY + " 40 01 02 01");
        Fed fed = byteByByte(MpaFrameType.REPLY, b);
        assertEquals(Invalid.PRIVATE_DATA_TOO_LONG, fed.reason());
        assertEquals(20, fed.consumed());
        byte[] max = new byte[532];
        System.arraycopy(Wire.unhex(MpaVectors.REPLY_KEY + " 40 01 02 00"), 0, max, 0, 20);
        Fed ok = byteByByte(MpaFrameType.REPLY, max);
        assertEquals(Status.COMPLETE, ok.status());
        assertEquals(512, ok.message().privateData().length);
        assertEquals(Invalid.PRIVATE_DATA_TOO_LONG,
                feed(new MpaFrameReader(MpaFrameType.REPLY, MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH),
                        Wire.unhex(MpaVectors.REPLY_KEY + " 40 01 01 01"), rest -> rest).reason());
        assertThrows(IllegalArgumentException.class, () -> new MpaFrameReader(MpaFrameType.REPLY, 513));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void enhancedWithLessThanFourBytesOfPrivateData(int pdLength) {
        byte[] b = new byte[20 + pdLength];
        System.arraycopy(Wire.unhex(MpaVectors.REQUEST_KEY + " 10 02 00 00"), 0, b, 0, 20);
        b[19] = (byte) pdLength;
        assertEquals(Invalid.ENHANCED_HEADER_MISSING, oneShot(MpaFrameType.REQUEST, b).reason());
        assertEquals(Invalid.ENHANCED_HEADER_MISSING, byteByByte(MpaFrameType.REQUEST, b).reason());
        // With Rev 1, S is not defined and the frame is fine.
        b[17] = 1;
        assertEquals(Status.COMPLETE, byteByByte(MpaFrameType.REQUEST, b).status());
    }

    @Test
    void frameIsOnlyAvailableWhenComplete() {
        MpaFrameReader r = new MpaFrameReader(MpaFrameType.REQUEST);
        assertThrows(IllegalStateException.class, r::frame);
        byte[] b = MpaVectors.JAVA_REQUEST.bytes();
        r.feed(MemorySegment.ofArray(b), 0, 10);
        assertEquals(10, r.bytesBuffered());
        assertThrows(IllegalStateException.class, r::frame);
        assertNull(r.invalidReason());
    }

    @Test
    void resetMakesTheReaderReusableAfterInvalidAndComplete() {
        MpaFrameReader r = new MpaFrameReader(MpaFrameType.REQUEST);
        assertEquals(Status.INVALID, r.feed(MemorySegment.ofArray(new byte[] {'X'}), 0, 1));
        r.reset();
        byte[] b = MpaVectors.REV1_REQUEST.bytes();
        assertEquals(Status.COMPLETE, r.feed(MemorySegment.ofArray(b), 0, b.length));
        r.reset();
        byte[] c = MpaVectors.SIW_DEFAULT_REQUEST.bytes();
        assertEquals(Status.COMPLETE, r.feed(MemorySegment.ofArray(c), 0, c.length));
        assertEquals(MpaVectors.SIW_DEFAULT_REQUEST.message(), MpaMessage.decode(r.frame()));
    }

    @Test
    void rangeOutsideTheSegmentIsACallerBug() {
        MpaFrameReader r = new MpaFrameReader(MpaFrameType.REQUEST);
        MemorySegment s = MemorySegment.ofArray(new byte[4]);
        assertThrows(IndexOutOfBoundsException.class, () -> r.feed(s, 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> r.feed(s, -1, 1));
        assertEquals(Status.NEED_MORE, r.feed(s, 4, 0));
    }

    /**
     * Property: on random input, half of it starting with a valid key and random flags, Rev and
     * PD_Length, the reader never throws, never loops, consumes exactly what it reports, and
     * gives the same verdict for one-shot, byte-by-byte and random-split feeding.
     */
    @Test
    void randomInputNeverThrowsAndVerdictIsSplitInvariant() {
        RandomGenerator seeds = random(BASE_SEED);
        for (int i = 0; i < 4000; i++) {
            long seed = seeds.nextLong();
            RandomGenerator rnd = random(seed);
            byte[] b = new byte[rnd.nextInt(600)];
            rnd.nextBytes(b);
            MpaFrameType type = rnd.nextBoolean() ? MpaFrameType.REQUEST : MpaFrameType.REPLY;
            if (rnd.nextBoolean() && b.length >= 20) {
                MpaFrameType keyType = rnd.nextInt(4) == 0 ? type.other() : type;
                keyType.writeKey(MemorySegment.ofArray(b), 0);
                b[17] = (byte) rnd.nextInt(4);
                int pd = rnd.nextInt(4) == 0 ? rnd.nextInt(0x10000) : rnd.nextInt(Math.max(1, b.length - 19));
                b[18] = (byte) (pd >> 8);
                b[19] = (byte) pd;
            }
            try {
                Fed whole = oneShot(type, b);
                Fed single = byteByByte(type, b);
                Fed split = feed(new MpaFrameReader(type), b, rest -> 1 + rnd.nextInt(rest));
                String msg = "seed " + seed;
                assertEquals(whole, single, msg);
                assertEquals(whole, split, msg);
                if (whole.status() == Status.COMPLETE) {
                    int pdLength = (b[18] & 0xFF) << 8 | (b[19] & 0xFF);
                    assertEquals(20 + pdLength, whole.consumed(), msg);
                } else if (whole.status() == Status.NEED_MORE) {
                    assertEquals(b.length, whole.consumed(), msg);
                }
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ": " + e, e);
            }
        }
    }

    /** docs/design.md rule 3 in spirit: feeding allocates nothing once warm. */
    @Test
    void feedingAllocatesNothing() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        byte[] b = MpaVectors.P2P_REQUEST.bytes();
        MemorySegment s = MemorySegment.ofArray(b);
        MpaFrameReader r = new MpaFrameReader(MpaFrameType.REQUEST);
        int checksum = 0;
        long fewest = Long.MAX_VALUE;
        // The best of several rounds: a round that runs before the JIT has compiled the reader
        // (late on a busy machine) may allocate in the interpreter; a compiled one must not.
        for (int round = 0; round < 6; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 20_000; i++) {
                r.reset();
                for (int j = 0; j < b.length; j++) {
                    r.feed(s, j, 1);
                }
                checksum += r.frame().privateDataLength();
            }
            fewest = Math.min(fewest, threads.getCurrentThreadAllocatedBytes() - before);
        }
        // 20 000 frames of 24 one-byte feeds: anything per feed would be megabytes.
        assertTrue(fewest < 20_000, "allocated " + fewest + " bytes for 480 000 feeds");
        assertEquals(6 * 20_000 * 4, checksum);
    }
}

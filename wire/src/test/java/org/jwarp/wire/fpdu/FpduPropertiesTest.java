package org.jwarp.wire.fpdu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jwarp.wire.ddp.DdpSegmenter;
import org.jwarp.wire.rdmap.AtomicRequestHeader;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateError;
import org.junit.jupiter.api.Test;

/**
 * Property tests over seeded random input (see {@link Seeds}): each failure names its case seed.
 */
class FpduPropertiesTest {

    static final int CASES = 2000;

    /** A random valid stream: every message type, random sizes, MULPDU, CRC and marker settings. */
    static FrameStream randomStream(RandomGenerator r, boolean crc, boolean markers, long start, int messages) {
        FrameStream s = new FrameStream(crc, markers, start);
        int mulpdu = r.nextInt(40, 3000);
        for (int m = 0; m < messages; m++) {
            int msn = r.nextInt();
            switch (r.nextInt(9)) {
                case 0 -> s.write(RdmapOpcode.RDMA_WRITE, r.nextInt(), r.nextLong(), bytes(r, r.nextInt(0, 5000)), mulpdu);
                case 1 -> s.write(RdmapOpcode.RDMA_READ_RESPONSE, r.nextInt(), r.nextLong(), bytes(r, r.nextInt(0, 700)), mulpdu);
                case 2 -> s.send(sendOpcode(r), msn, r.nextInt(), bytes(r, r.nextInt(0, 5000)), mulpdu);
                case 3 -> s.readRequest(msn, r.nextInt(), r.nextLong(), r.nextLong(0, 1L << 32), r.nextInt(), r.nextLong());
                case 4 -> s.immediate(r.nextBoolean(), msn, r.nextLong());
                case 5 -> s.atomicRequest(msn, r.nextBoolean() ? AtomicRequestHeader.AOPCODE_FETCH_ADD
                                : AtomicRequestHeader.AOPCODE_COMPARE_SWAP, r.nextInt(), r.nextInt(), r.nextLong() & ~7L,
                        r.nextLong(), r.nextLong(), r.nextLong(), r.nextLong());
                case 6 -> s.atomicResponse(msn, r.nextInt(), r.nextLong());
                case 7 -> s.terminate(RdmapError.values()[r.nextInt(RdmapError.values().length)], r.nextInt(0, 65536),
                        bytes(r, r.nextBoolean() ? 18 : 0), null);
                default -> s.send(RdmapOpcode.SEND, msn, 0, bytes(r, r.nextInt(0, 40)), mulpdu);
            }
        }
        return s;
    }

    static RdmapOpcode sendOpcode(RandomGenerator r) {
        RdmapOpcode[] sends = {RdmapOpcode.SEND, RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SE,
                RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE};
        return sends[r.nextInt(sends.length)];
    }

    static byte[] bytes(RandomGenerator r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    @Test
    void anyValidStreamSplitAnywhereDecodesToTheSameFrames() {
        for (int i = 0; i < CASES; i++) {
            long seed = Seeds.caseSeed("split", i);
            RandomGenerator r = Seeds.random(seed);
            boolean crc = r.nextBoolean();
            boolean markers = r.nextInt(3) == 0;
            long start = 4L * r.nextInt(0, 1 << 20);
            FrameStream s = randomStream(r, crc, markers, start, r.nextInt(1, 8));
            byte[] wire = s.bytes();
            int maxWindow = r.nextInt(1, wire.length + 1);
            StreamDecoding.Outcome o = StreamDecoding.decode(wire, crc, markers, start, fed -> r.nextInt(1, maxWindow + 1));
            String msg = "seed " + seed;
            assertNull(o.error(), msg);
            assertTrue(o.atBoundary(), msg);
            assertEquals(s.frames(), o.frames(), msg);
        }
    }

    @Test
    void oneByteAtATimeDecodesEveryFrameType() {
        for (int i = 0; i < 200; i++) {
            long seed = Seeds.caseSeed("bytewise", i);
            RandomGenerator r = Seeds.random(seed);
            boolean markers = r.nextBoolean();
            FrameStream s = randomStream(r, true, markers, 0, 6);
            StreamDecoding.Outcome o = StreamDecoding.decodeByteByByte(s.bytes(), true, markers, 0);
            assertNull(o.error(), "seed " + seed);
            assertEquals(s.frames(), o.frames(), "seed " + seed);
        }
    }

    /** Where a single flipped bit lands, and the error it must produce. */
    @Test
    void anySingleFlippedBitIsReportedAsTheRightError() {
        Set<TerminateError> framingErrors = Set.of(MpaError.CRC_ERROR, RdmapError.CATASTROPHIC_STREAM,
                RdmapError.UNEXPECTED_OPCODE);
        for (int i = 0; i < CASES; i++) {
            long seed = Seeds.caseSeed("bitflip", i);
            RandomGenerator r = Seeds.random(seed);
            FrameStream first = randomStream(r, true, false, 0, 1);
            byte[] fpdu = first.bytes();
            int firstLength = (int) first.encoder().streamPosition();
            if (first.frames().size() != 1) {
                continue; // a multi-segment message; the single-FPDU cases are what this property is about
            }
            int bit = r.nextInt(firstLength * 8);
            int at = bit / 8;
            // A flip in ULPDU_Length may make the decoder read up to 64 KiB further: give it a tail.
            FrameStream tail = new FrameStream(true, false, firstLength);
            int tailLength = at < 2 ? 70_000 : 64;
            while (tail.encoder().streamPosition() - firstLength < tailLength) {
                tail.send(RdmapOpcode.SEND, 7, 0, bytes(r, 1400), 1442);
            }
            byte[] t = tail.bytes();
            byte[] wire = new byte[fpdu.length + t.length];
            System.arraycopy(fpdu, 0, wire, 0, fpdu.length);
            System.arraycopy(t, 0, wire, fpdu.length, t.length);
            wire[at] ^= (byte) (0x80 >>> (bit % 8));
            int maxWindow = r.nextInt(1, 3000);
            StreamDecoding.Outcome o = StreamDecoding.decode(wire, true, false, 0, fed -> r.nextInt(1, maxWindow + 1));
            String msg = "seed " + seed + ", bit " + bit + " of " + first.frames().getFirst();
            assertNotNull(o.error(), msg);
            assertEquals(0, o.frames().size(), msg);
            TerminateError expected = expectedError(fpdu, at, 0x80 >>> (bit % 8));
            if (expected != null) {
                assertSame(expected, o.error(), msg);
            } else {
                assertTrue(framingErrors.contains(o.error()), msg + ": " + o.error());
            }
        }
    }

    /**
     * The error a flip must produce, worked out from the RFC rules independently of the decoder;
     * null where several framing errors are possible (a changed length or opcode).
     */
    static TerminateError expectedError(byte[] fpdu, int at, int mask) {
        if (at < 2) {
            return null; // ULPDU_Length: the CRC lands elsewhere, or the length no longer fits the opcode
        }
        // RFC 5044 §4.4: with CRC negotiated an FPDU is judged by its CRC before any DDP or RDMAP
        // rule, so a flip anywhere past the length field is a CRC error, even where it also breaks
        // the DDP version, the RDMAP version, the opcode or the segment rules
        return MpaError.CRC_ERROR;
    }

    @Test
    void aFlippedMarkerIsAMarkerErrorUnlessItsBitsAreIgnored() {
        byte[] wire = Rfc5044FiguresTest.FPDU_2.clone();
        for (int bit = 0; bit < 32; bit++) {
            byte[] w = wire.clone();
            w[20 + bit / 8] ^= (byte) (0x80 >>> (bit % 8));
            StreamDecoding.Outcome o = StreamDecoding.decodeWhole(w, true, true, Rfc5044FiguresTest.FPDU_2_STREAM_POSITION);
            // RFC 5044 §4.3: the upper 16 bits are reserved and the 2 low bits of FPDUPTR are treated
            // as 0, so those flips pass the marker check and only the CRC (which covers markers) fails.
            boolean ignored = bit < 16 || bit >= 30;
            assertSame(ignored ? MpaError.CRC_ERROR : MpaError.MARKER_ERROR, o.error(), "marker bit " + bit);
        }
    }

    @Test
    void randomGarbageNeverThrowsNorLoops() {
        for (int i = 0; i < CASES; i++) {
            long seed = Seeds.caseSeed("garbage", i);
            RandomGenerator r = Seeds.random(seed);
            byte[] junk = bytes(r, r.nextInt(1, 4000));
            if (r.nextBoolean() && junk.length > 4) {
                junk[2] = (byte) (0x41 | (r.nextInt(2) << 7)); // plausible DDP control, to get past the first checks
                junk[3] = (byte) (0x40 | r.nextInt(16));
            }
            boolean markers = r.nextBoolean();
            int maxWindow = r.nextInt(1, junk.length + 1);
            StreamDecoding.Outcome o = StreamDecoding.decode(junk, r.nextBoolean(), markers, 4L * r.nextInt(200),
                    fed -> r.nextInt(1, maxWindow + 1));
            assertNotNull(o, "seed " + seed);
        }
    }

    @Test
    void segmenterNeverExceedsMulpduAndCoversTheMessage() {
        DdpSegmenter seg = new DdpSegmenter();
        for (int i = 0; i < CASES; i++) {
            long seed = Seeds.caseSeed("segmenter", i);
            RandomGenerator r = Seeds.random(seed);
            int mulpdu = r.nextInt(Mulpdu.MINIMUM, Fpdu.MAX_ULPDU_LENGTH + 1);
            long length = r.nextInt(4) == 0 ? r.nextLong(0, 1L << 24) : r.nextLong(0, 3L * mulpdu);
            boolean tagged = r.nextBoolean();
            long to = r.nextLong();
            if (tagged) {
                seg.tagged(RdmapOpcode.RDMA_WRITE, 1, to, length, mulpdu);
            } else {
                seg.untagged(RdmapOpcode.SEND, 1, 0, length, mulpdu);
            }
            long expectOffset = 0;
            int segments = 0;
            MemorySegment hdr = MemorySegment.ofArray(new byte[18]);
            String msg = "seed " + seed;
            while (seg.next()) {
                segments++;
                assertEquals(expectOffset, seg.messageOffset(), msg);
                assertTrue(seg.headerLength() + seg.payloadLength() <= mulpdu, msg);
                seg.writeHeader(hdr, 0);
                boolean lBit = (hdr.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0) & 0x40) != 0;
                assertEquals(seg.last(), lBit, msg);
                assertEquals(seg.last(), expectOffset + seg.payloadLength() == length, msg);
                if (!seg.last()) {
                    assertEquals(mulpdu - seg.headerLength(), seg.payloadLength(), msg + ": only the last segment is short");
                }
                expectOffset += seg.payloadLength();
            }
            assertEquals(length, expectOffset, msg);
            assertEquals(Math.max(1, (length + mulpdu - seg.headerLength() - 1) / (mulpdu - seg.headerLength())),
                    segments, msg);
        }
    }

    @Test
    void anFpduOfMulpduFitsTheEmssWithOrWithoutMarkers() {
        for (int i = 0; i < CASES; i++) {
            long seed = Seeds.caseSeed("mulpdu", i);
            RandomGenerator r = Seeds.random(seed);
            int emss = r.nextInt(256, 65536);
            long position = 4L * r.nextInt(0, 1 << 20);
            assertTrue(Fpdu.length(Mulpdu.of(emss, false)) <= emss, "seed " + seed);
            assertTrue(Fpdu.lengthWithMarkers(Mulpdu.of(emss, true), position) <= emss, "seed " + seed);
        }
    }
}

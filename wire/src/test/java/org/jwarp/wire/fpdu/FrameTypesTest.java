package org.jwarp.wire.fpdu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;
import org.jwarp.wire.rdmap.AtomicRequestHeader;
import org.jwarp.wire.rdmap.AtomicResponseHeader;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.ImmediateDataHeader;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateHeader;
import org.junit.jupiter.api.Test;

/**
 * Each frame type's header bytes, written out by hand from the RFC layouts, against what the
 * encoder produces and the decoder reads back (whole and one byte at a time).
 */
class FrameTypesTest {

    static FrameStream.Frame roundTrip(FrameStream s, String expectedHeaderHex) {
        FrameStream.Frame f = s.frames().getFirst();
        assertEquals(expectedHeaderHex.replace(" ", ""), f.header());
        StreamDecoding.Outcome whole = StreamDecoding.decodeWhole(s.bytes(), true, false, 0);
        assertNull(whole.error());
        assertEquals(s.frames(), whole.frames());
        assertEquals(whole, StreamDecoding.decodeByteByByte(s.bytes(), true, false, 0));
        return f;
    }

    static FrameStream stream() {
        return new FrameStream(true, false, 0);
    }

    @Test
    void sendVariants() {
        // RFC 5040 §4.3: the Invalidate STag travels in RsvdULP[8..39] for ops 4 and 6 only.
        roundTrip(stream().send(RdmapOpcode.SEND_WITH_SE, 3, 0, new byte[] {9}, 1442),
                "41 45 00000000 00000000 00000003 00000000");
        roundTrip(stream().send(RdmapOpcode.SEND_WITH_INVALIDATE, 4, 0xAABBCCDD, new byte[] {9}, 1442),
                "41 44 aabbccdd 00000000 00000004 00000000");
        roundTrip(stream().send(RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE, 5, 0x01020304, new byte[0], 1442),
                "41 46 01020304 00000000 00000005 00000000");
    }

    @Test
    void multiSegmentSendCarriesMsnAndAdvancingMo() {
        FrameStream s = stream().send(RdmapOpcode.SEND, 9, 0, new byte[100], 18 + 40);
        assertEquals(3, s.frames().size());
        assertEquals("0143" + "00000000" + "00000000" + "00000009" + "00000000", s.frames().get(0).header());
        assertEquals("0143" + "00000000" + "00000000" + "00000009" + "00000028", s.frames().get(1).header());
        assertEquals("4143" + "00000000" + "00000000" + "00000009" + "00000050", s.frames().get(2).header());
        assertEquals(s.frames(), StreamDecoding.decodeByteByByte(s.bytes(), true, false, 0).frames());
    }

    @Test
    void immediateData() {
        // RFC 7306 §4.2: untagged, QN 0, 8 bytes of immediate data, ULPDU_Length 26.
        FrameStream s = stream().immediate(false, 2, 0x0102030405060708L);
        roundTrip(s, "41 48 00000000 00000000 00000002 00000000 0102030405060708");
        assertEquals("00 1a", Wire.hex(MemorySegment.ofArray(s.bytes()), 0, 2));
        roundTrip(stream().immediate(true, 3, -1L), "41 49 00000000 00000000 00000003 00000000 ffffffffffffffff");
        assertEquals(0x0102030405060708L, ImmediateDataHeader.immediateData(MemorySegment.ofArray(s.bytes()), 20));
    }

    @Test
    void atomicRequestAndResponse() {
        // RFC 7306 §4.3: QN 1 (shares the Read Request MSN sequence), 52-byte header, ULPDU 70.
        FrameStream s = stream().atomicRequest(4, AtomicRequestHeader.AOPCODE_COMPARE_SWAP, 0x11, 0x2233, 0x40,
                5, -1, 6, -1);
        roundTrip(s, "41 4a 00000000 00000001 00000004 00000000 00000002 00000011 00002233 0000000000000040"
                + " 0000000000000005 ffffffffffffffff 0000000000000006 ffffffffffffffff");
        AtomicRequestHeader a = new AtomicRequestHeader().wrap(MemorySegment.ofArray(s.bytes()), 20);
        assertEquals(AtomicRequestHeader.AOPCODE_COMPARE_SWAP, a.atomicOpcode());
        assertEquals(0x11, a.requestId());
        assertEquals(0x2233, a.remoteStag());
        assertEquals(0x40, a.remoteTo());
        assertEquals(5, a.addOrSwapData());
        assertEquals(-1, a.addOrSwapMask());
        assertEquals(6, a.compareData());
        assertEquals(-1, a.compareMask());
        // RFC 7306 §4.4: QN 3, its own MSN sequence, 12-byte header, ULPDU 30.
        FrameStream resp = stream().atomicResponse(1, 0x11, 0x99);
        roundTrip(resp, "41 4b 00000000 00000003 00000001 00000000 00000011 0000000000000099");
        assertEquals(0x11, AtomicResponseHeader.requestId(MemorySegment.ofArray(resp.bytes()), 20));
        assertEquals(0x99, AtomicResponseHeader.originalValue(MemorySegment.ofArray(resp.bytes()), 20));
    }

    @Test
    void terminateWithDdpAndReadRequestHeaders() {
        // RFC 5040 §4.8: a remote protection error on a Read Request carries the segment length,
        // the 18-byte DDP header and the 28-byte Read Request header: ULPDU 18 + 52 = 70.
        byte[] ddp = Wire.unhex("41 41 00000000 00000001 00000001 00000000");
        byte[] rr = Wire.unhex("00005678 0000000000002000 00000008 00001234 0000000000000010");
        FrameStream s = stream().terminate(RdmapError.INVALID_STAG, 0, ddp, rr);
        roundTrip(s, "41 47 00000000 00000002 00000001 00000000 " + "0100e000 0000"
                + " 4141 00000000 00000001 00000001 00000000"
                + " 00005678 0000000000002000 00000008 00001234 0000000000000010");
        TerminateHeader t = new TerminateHeader().wrap(MemorySegment.ofArray(s.bytes()), 20, 52);
        assertSame(RdmapError.INVALID_STAG, t.error());
        assertTrue(t.segmentLengthValid() && t.hasDdpHeader() && t.hasRdmaHeader());
        assertEquals(18, t.terminatedDdpHeaderLength());
        assertEquals(0x00005678, Wire.i32(t.segment(), t.terminatedRdmaHeaderOffset()));
    }

    @Test
    void terminateWithTaggedDdpHeader() {
        byte[] ddp = Wire.unhex("c1 40 00001234 0000000000000010");
        FrameStream s = stream().terminate(DdpError.BASE_OR_BOUNDS_VIOLATION, 8, ddp, null);
        roundTrip(s, "41 47 00000000 00000002 00000001 00000000 1101c000 0008 c140 00001234 0000000000000010");
        TerminateHeader t = new TerminateHeader().wrap(MemorySegment.ofArray(s.bytes()), 20, 20);
        assertEquals(8, t.ddpSegmentLength());
        assertEquals(14, t.terminatedDdpHeaderLength());
        assertFalse(t.hasRdmaHeader());
    }

    @Test
    void siwTerminateWithRButNoRdmaHeaderIsReadFromItsLength() {
        // reference §8: siw may set R with no RDMA header following.
        byte[] body = Wire.unhex("0100e000 0000 4144 00000000 00000000 00000001 00000000");
        TerminateHeader t = new TerminateHeader().wrap(MemorySegment.ofArray(body), 0, body.length);
        assertTrue(t.rdmaHeaderFlag());
        assertTrue(t.hasDdpHeader());
        assertFalse(t.hasRdmaHeader());
    }

    @Test
    void zeroCopyFramingProducesTheSameBytesAsCopying() {
        for (boolean crc : new boolean[] {true, false}) {
            byte[] payload = new byte[1001];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = (byte) (i * 7);
            }
            FrameStream copying = new FrameStream(crc, false, 0).write(RdmapOpcode.RDMA_WRITE, 0x77, 0x1000, payload, 1442);
            byte[] expected = copying.bytes();

            FpduEncoder enc = new FpduEncoder().start(crc, false, 0);
            MemorySegment hdr = MemorySegment.ofArray(new byte[14]);
            org.jwarp.wire.ddp.DdpHeader.writeTagged(hdr, 0, true, RdmapOpcode.RDMA_WRITE, 0x77, 0x1000);
            MemorySegment out = MemorySegment.ofArray(new byte[expected.length]);
            int n = enc.encodePrefix(out, 0, hdr, 0, 14, payload.length);
            MemorySegment.copy(MemorySegment.ofArray(payload), 0, out, n, payload.length); // "the socket"
            enc.payload(MemorySegment.ofArray(payload), 0, payload.length);
            n += payload.length;
            n += enc.encodeTrailer(out, n);
            assertEquals(expected.length, n);
            assertArrayEquals(expected, out.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            assertEquals(expected.length, enc.streamPosition());
        }
    }

    @Test
    void payloadReadStraightFromTheSocketIsCheckedByTheCrc() {
        byte[] payload = new byte[3000];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 13);
        }
        byte[] wire = new FrameStream(true, false, 0).write(RdmapOpcode.RDMA_WRITE, 5, 0, payload, 4000).bytes();
        for (boolean corrupt : new boolean[] {false, true}) {
            FpduDecoder d = new FpduDecoder().start(true, false, true, 0);
            d.feed(MemorySegment.ofArray(wire), 0, 16 + 100); // header and 100 payload bytes arrive first
            assertEquals(FpduDecoder.HEADER, d.next());
            assertEquals(FpduDecoder.PAYLOAD, d.next());
            assertEquals(100, d.chunkLength());
            assertEquals(FpduDecoder.NEED_MORE, d.next());
            assertEquals(2900, d.externalPayloadLimit());
            // the engine reads the rest of the payload from the socket straight into the region
            MemorySegment region = MemorySegment.ofArray(new byte[2900]);
            MemorySegment.copy(MemorySegment.ofArray(wire), 116, region, 0, 2900);
            if (corrupt) {
                region.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 1234, (byte) 0x55);
            }
            d.payloadReceivedExternally(region, 0, 2900);
            assertEquals(0, d.externalPayloadLimit());
            d.feed(MemorySegment.ofArray(wire), 116 + 2900, wire.length - 116 - 2900);
            if (corrupt) {
                assertEquals(FpduDecoder.ERROR, d.next());
                assertSame(MpaError.CRC_ERROR, d.error());
            } else {
                assertEquals(FpduDecoder.END, d.next());
                assertEquals(FpduDecoder.NEED_MORE, d.next());
            }
        }
    }

    @Test
    void malformedFramesNameTheirTerminate() {
        // ULPDU shorter than any DDP header
        assertSame(RdmapError.CATASTROPHIC_STREAM, errorOf("00 0c c1 40 00000000 00000000 00000000"));
        // unassigned opcode 0xC
        assertSame(RdmapError.UNEXPECTED_OPCODE, errorOf("00 12 41 4c" + " 00".repeat(16) + " 00 00 00000000"));
        // a Write sent untagged
        assertSame(RdmapError.UNEXPECTED_OPCODE, errorOf("00 12 41 40" + " 00".repeat(16) + " 00 00 00000000"));
        // a Read Request that is not exactly 46 bytes
        assertSame(RdmapError.CATASTROPHIC_STREAM, errorOf("00 2f 41 41" + " 00".repeat(45) + " 00 00000000"));
        // a Read Request without the L bit
        assertSame(RdmapError.CATASTROPHIC_STREAM, errorOf("00 2e 01 41" + " 00".repeat(44) + " 00000000"));
        // DDP version 2, untagged and tagged
        assertSame(DdpError.UNTAGGED_INVALID_DDP_VERSION, errorOf("00 12 42 43" + " 00".repeat(16) + " 00 00 00000000"));
        assertSame(DdpError.TAGGED_INVALID_DDP_VERSION, errorOf("00 0e c2 40" + " 00".repeat(12) + " 00000000"));
        // RDMAP version 0 (the RDMA Consortium's)
        assertSame(RdmapError.INVALID_RDMAP_VERSION, errorOf("00 12 41 03" + " 00".repeat(16) + " 00 00 00000000"));
        // a Terminate longer than both headers it may carry
        assertSame(RdmapError.CATASTROPHIC_STREAM, errorOf("00 48 41 47" + " 00".repeat(70) + " 00000000"));
    }

    @Test
    void rfc7306OpcodesAreUnexpectedWhenNotEnabled() {
        byte[] wire = stream().immediate(false, 1, 42).bytes();
        FpduDecoder d = new FpduDecoder().start(true, false, false, 0);
        d.feed(MemorySegment.ofArray(wire), 0, wire.length);
        assertEquals(FpduDecoder.ERROR, d.next());
        assertSame(RdmapError.UNEXPECTED_OPCODE, d.error());
        // and after an error the decoder stays there, consuming nothing more
        assertEquals(FpduDecoder.ERROR, d.next());
        assertTrue(d.failed());
    }

    @Test
    void feedingBeforeTheWindowIsConsumedIsABug() {
        byte[] wire = stream().immediate(false, 1, 42).bytes();
        FpduDecoder d = new FpduDecoder().start(true, false, true, 0);
        d.feed(MemorySegment.ofArray(wire), 0, wire.length);
        assertEquals(FpduDecoder.HEADER, d.next());
        assertThrows(IllegalStateException.class, () -> d.feed(MemorySegment.ofArray(wire), 0, 4));
    }

    private static Object errorOf(String hex) {
        byte[] wire = Wire.unhex(hex);
        StreamDecoding.Outcome o = StreamDecoding.decodeWhole(wire, false, false, 0);
        assertEquals(o, StreamDecoding.decodeByteByByte(wire, false, false, 0));
        return o.error();
    }
}

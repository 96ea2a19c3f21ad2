package org.jwarp.wire.mpa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.jwarp.wire.Wire;
import org.jwarp.wire.WireSelfCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Byte-exact MPA Request/Reply and RFC 6581 header layouts against the reference's §7.6 frames. */
class MpaFrameTest {

    static Stream<MpaVectors.Vector> vectors() {
        return MpaVectors.ALL.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void encodesToExactBytes(MpaVectors.Vector v) {
        assertEquals(Wire.hex(MemorySegment.ofArray(v.bytes()), 0, v.bytes().length),
                Wire.hex(MemorySegment.ofArray(v.message().toBytes()), 0, v.message().frameLength()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void flyweightEncodesIntoNativeMemoryAtAnOffset(MpaVectors.Vector v) {
        try (Arena arena = Arena.ofConfined()) {
            MpaFrameType type = v.message().type();
            MemorySegment s = arena.allocate(v.bytes().length + 7);
            int n = v.message().encodeTo(s, 7);
            assertEquals(v.bytes().length, n);
            assertArrayEquals(v.bytes(), s.asSlice(7, n).toArray(Wire.BYTE));
            MpaFrame f = new MpaFrame().wrap(s, 7);
            assertEquals(type, f.type());
            assertEquals(v.message().revision(), f.revision());
            assertEquals(v.message().privateDataLength(), f.privateDataLength());
            assertEquals(n, f.frameLength());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void decodesBackToTheSameFields(MpaVectors.Vector v) {
        MpaFrame f = new MpaFrame().wrap(MemorySegment.ofArray(v.bytes()), 0);
        MpaMessage m = v.message();
        assertEquals(m.type(), f.type());
        assertEquals(m.markers(), f.markers());
        assertEquals(m.crc(), f.crc());
        assertEquals(m.reject(), f.reject());
        assertEquals(m.enhanced(), f.hasEnhancedHeader());
        assertEquals(0, f.reservedFlags());
        assertEquals(m, MpaMessage.decode(f));
    }

    @Test
    void siwDefaultRequestFieldByField() {
        byte[] b = MpaVectors.SIW_DEFAULT_REQUEST.bytes();
        MpaFrame f = new MpaFrame().wrap(MemorySegment.ofArray(b), 0);
        assertEquals(MpaFrameType.REQUEST, f.type());
        assertEquals(0x10, f.flags());
        assertFalse(f.markers());
        assertFalse(f.crc());
        assertFalse(f.reject());
        assertTrue(f.enhanced());
        assertEquals(2, f.revision());
        assertEquals(4, f.privateDataLength());
        assertEquals(20, f.privateDataOffset());
        MpaV2Header h = MpaV2Header.read(f.segment(), f.privateDataOffset());
        assertEquals(new MpaV2Header(false, false, 1, false, false, 1), h);
    }

    @Test
    void handBuiltWithTheFlyweightMatchesTheP2pReply() {
        byte[] out = new byte[24];
        MemorySegment s = MemorySegment.ofArray(out);
        MpaFrame f = new MpaFrame().wrap(s, 0)
                .encode(MpaFrameType.REPLY, MpaFrame.FLAG_CRC | MpaFrame.FLAG_ENHANCED, 2, 4);
        new MpaV2Header(true, false, 4, true, false, 4).writeTo(s, f.privateDataOffset());
        assertArrayEquals(MpaVectors.P2P_REPLY_WRITE.bytes(), out);
    }

    @Test
    void keysAreTheAsciiStringsAndDifferInByteNineOnly() {
        byte[] req = Wire.unhex(MpaVectors.REQUEST_KEY);
        byte[] rep = Wire.unhex(MpaVectors.REPLY_KEY);
        assertEquals("MPA ID Req Frame", new String(req, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("MPA ID Rep Frame", new String(rep, java.nio.charset.StandardCharsets.US_ASCII));
        for (int i = 0; i < 16; i++) {
            assertEquals(i != 9, req[i] == rep[i], "byte " + i);
            assertEquals(req[i] & 0xFF, MpaFrameType.REQUEST.keyByte(i));
            assertEquals(rep[i] & 0xFF, MpaFrameType.REPLY.keyByte(i));
        }
        assertNull(new MpaFrame().wrap(MemorySegment.ofArray(new byte[20]), 0).type());
    }

    @Test
    void writerRefusesReservedBitsRejectInRequestAndOversizedPrivateData() {
        MpaFrame f = new MpaFrame().wrap(MemorySegment.ofArray(new byte[600]), 0);
        assertThrows(IllegalArgumentException.class, () -> f.encode(MpaFrameType.REQUEST, 0x08, 2, 0));
        assertThrows(IllegalArgumentException.class,
                () -> f.encode(MpaFrameType.REQUEST, MpaFrame.FLAG_REJECT, 2, 0));
        assertThrows(IllegalArgumentException.class, () -> f.encode(MpaFrameType.REPLY, 0, 2, 513));
        f.encode(MpaFrameType.REPLY, MpaFrame.FLAG_REJECT, 1, 512);
        assertEquals(532, f.frameLength());
        assertThrows(IllegalArgumentException.class,
                () -> f.putPrivateData(510, MemorySegment.ofArray(new byte[3]), 0, 3));
    }

    @Test
    void reservedBitsAreReadButNeverWrittenBack() {
        // siw's experimental GSO flag 0x08 next to S.
        byte[] b = Wire.unhex(MpaVectors.REQUEST_KEY + " 18 02 00 04 00 01 00 01");
        MpaFrame f = new MpaFrame().wrap(MemorySegment.ofArray(b), 0);
        assertEquals(0x08, f.reservedFlags());
        MpaMessage m = MpaMessage.decode(f);
        assertEquals(0x08, m.reservedFlags());
        assertArrayEquals(MpaVectors.SIW_DEFAULT_REQUEST.bytes(), m.toBytes());
    }

    @Test
    void sWithRevisionOneIsIgnoredAndPrivateDataPassedUnchanged() {
        byte[] b = Wire.unhex(MpaVectors.REQUEST_KEY + " 50 01 00 02 ab cd");
        MpaFrame f = new MpaFrame().wrap(MemorySegment.ofArray(b), 0);
        assertTrue(f.enhanced());
        assertFalse(f.hasEnhancedHeader());
        MpaMessage m = MpaMessage.decode(f);
        assertFalse(m.enhanced());
        assertArrayEquals(new byte[] {(byte) 0xab, (byte) 0xcd}, m.privateData());
    }

    @Test
    void rejectBitInARequestIsNotChecked() {
        byte[] b = Wire.unhex(MpaVectors.REQUEST_KEY + " 60 01 00 00");
        MpaMessage m = MpaMessage.decode(new MpaFrame().wrap(MemorySegment.ofArray(b), 0));
        assertFalse(m.reject());
        assertTrue(m.crc());
    }

    @Test
    void messageValidatesItsFields() {
        MpaV2Header h = new MpaV2Header(false, false, 1, false, false, 1);
        assertThrows(IllegalArgumentException.class,
                () -> MpaMessage.of(MpaFrameType.REQUEST, false, false, false, 1, h, new byte[0]));
        assertThrows(IllegalArgumentException.class,
                () -> MpaMessage.of(MpaFrameType.REQUEST, false, false, true, 2, null, new byte[0]));
        assertThrows(IllegalArgumentException.class,
                () -> MpaMessage.of(MpaFrameType.REPLY, false, false, false, 3, null, new byte[0]));
        assertThrows(IllegalArgumentException.class,
                () -> MpaMessage.of(MpaFrameType.REPLY, false, false, false, 2, h, new byte[509]));
        assertEquals(532, MpaMessage.of(MpaFrameType.REPLY, false, false, false, 2, h, new byte[508])
                .frameLength());
    }

    @Test
    void v2HeaderRoundTripsEveryFlagCombinationAndTheLimits() {
        int[] values = {0, 1, 4, 16, 128, 0x3FFE, MpaV2Header.NO_NEGOTIATION};
        byte[] buf = new byte[4];
        MemorySegment s = MemorySegment.ofArray(buf);
        for (int bits = 0; bits < 16; bits++) {
            for (int ird : values) {
                for (int ord : values) {
                    MpaV2Header h = new MpaV2Header((bits & 8) != 0, (bits & 4) != 0, ird,
                            (bits & 2) != 0, (bits & 1) != 0, ord);
                    h.writeTo(s, 0);
                    int w0 = ((bits & 8) != 0 ? 0x8000 : 0) | ((bits & 4) != 0 ? 0x4000 : 0) | ird;
                    int w1 = ((bits & 2) != 0 ? 0x8000 : 0) | ((bits & 1) != 0 ? 0x4000 : 0) | ord;
                    assertEquals(w0, Wire.u16(s, 0));
                    assertEquals(w1, Wire.u16(s, 2));
                    assertEquals(h, MpaV2Header.read(s, 0));
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new MpaV2Header(false, false, 0x4000, false, false, 0));
        assertThrows(IllegalArgumentException.class, () -> new MpaV2Header(false, false, 0, false, false, -1));
    }

    @Test
    void rtrOptionsWithoutPeerToPeerAreIgnored() {
        assertEquals(EnumSet.noneOf(RtrType.class), new MpaV2Header(false, true, 1, true, true, 1).rtrTypes());
        assertEquals(EnumSet.allOf(RtrType.class), new MpaV2Header(true, true, 1, true, true, 1).rtrTypes());
        assertEquals(EnumSet.of(RtrType.READ), new MpaV2Header(true, false, 1, false, true, 1).rtrTypes());
    }

    @Test
    void selfCheckVectorsAllPass() {
        List<WireSelfCheck.Result> out = new ArrayList<>();
        MpaVectors.addTo(out);
        assertEquals(2 * MpaVectors.ALL.size() + 7, out.size());
        for (WireSelfCheck.Result r : out) {
            assertTrue(r.passed(), r.name() + ": " + r.detail());
        }
    }
}

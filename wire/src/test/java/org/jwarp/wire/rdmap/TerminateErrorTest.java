package org.jwarp.wire.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The error tables of RFC 5040 Figure 9, RFC 5041 §7.2, RFC 5044 §8 and RFC 6581 §8. */
class TerminateErrorTest {

    static List<TerminateError> all() {
        List<TerminateError> all = new ArrayList<>(List.of(RdmapError.values()));
        all.addAll(List.of(DdpError.values()));
        all.addAll(List.of(MpaError.values()));
        return all;
    }

    @Test
    void everyTripleIsUniqueAndLooksItselfUp() {
        var seen = new HashSet<Integer>();
        for (TerminateError e : all()) {
            assertTrue(seen.add(e.controlBits()), "duplicate " + e);
            assertSame(e, TerminateError.of(e.layer(), e.errorType(), e.errorCode()));
        }
        assertEquals(14 + 12 + 7, seen.size());
    }

    @Test
    void wireValuesMatchTheRfcTables() {
        assertEquals(0x02060000, RdmapError.UNEXPECTED_OPCODE.controlBits());
        assertEquals(0x20020000, MpaError.CRC_ERROR.controlBits());
        assertEquals(0x12020000, DdpError.NO_BUFFER_AVAILABLE.controlBits());
        assertEquals(0x11040000, DdpError.TAGGED_INVALID_DDP_VERSION.controlBits());
        assertEquals(0x12060000, DdpError.UNTAGGED_INVALID_DDP_VERSION.controlBits());
        assertEquals(0x01020000, RdmapError.ACCESS_RIGHTS_VIOLATION.controlBits());
        assertEquals(0x01FF0000, RdmapError.PROTECTION_UNSPECIFIED.controlBits());
        assertEquals(0x02070000, RdmapError.CATASTROPHIC_STREAM.controlBits());
        assertEquals(0x20070000, MpaError.NO_MATCHING_RTR.controlBits());
    }

    @Test
    void localCatastrophicCodesAreVendorDefinedAndUnknownTriplesAreNull() {
        assertSame(RdmapError.LOCAL_CATASTROPHIC, TerminateError.of(0, 0, 0x42));
        assertSame(DdpError.LOCAL_CATASTROPHIC, TerminateError.of(1, 0, 0x17));
        assertNull(TerminateError.of(0, 1, 0x05));
        assertNull(TerminateError.of(2, 1, 0x01));
        assertNull(TerminateError.of(3, 0, 0));
    }

    @Test
    void headerInclusionFollowsRfc5040Figure10() {
        assertTrue(RdmapError.INVALID_STAG.includesDdpHeader());
        assertTrue(RdmapError.INVALID_STAG.includesRdmaHeader());
        assertTrue(RdmapError.UNEXPECTED_OPCODE.includesDdpHeader());
        assertFalse(RdmapError.UNEXPECTED_OPCODE.includesRdmaHeader());
        assertFalse(RdmapError.LOCAL_CATASTROPHIC.includesDdpHeader());
        assertTrue(DdpError.INVALID_MO.includesDdpHeader());
        assertFalse(DdpError.INVALID_MO.includesRdmaHeader());
        assertFalse(DdpError.LOCAL_CATASTROPHIC.includesDdpHeader());
        assertFalse(MpaError.CRC_ERROR.includesDdpHeader());
    }

    @Test
    void opcodeTable() {
        for (RdmapOpcode op : RdmapOpcode.values()) {
            assertSame(op, RdmapOpcode.fromCode(op.code()));
            assertEquals(0x40 | op.code(), op.controlByte());
        }
        for (int c = 0xC; c <= 0xF; c++) {
            assertNull(RdmapOpcode.fromCode(c));
        }
        assertEquals(1, RdmapOpcode.ATOMIC_REQUEST.queueNumber());
        assertEquals(3, RdmapOpcode.ATOMIC_RESPONSE.queueNumber());
        assertEquals(2, RdmapOpcode.TERMINATE.queueNumber());
        assertTrue(RdmapOpcode.IMMEDIATE_DATA_WITH_SE.solicitedEvent());
        assertTrue(RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE.invalidates());
    }
}

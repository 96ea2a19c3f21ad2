package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkCompletionTest {

    @Test
    void statusValuesAreLibibverbs() {
        assertEquals(0, WcStatus.SUCCESS.ibvValue());
        assertEquals(1, WcStatus.LOC_LEN_ERR.ibvValue());
        assertEquals(2, WcStatus.LOC_QP_OP_ERR.ibvValue());
        assertEquals(4, WcStatus.LOC_PROT_ERR.ibvValue());
        assertEquals(5, WcStatus.WR_FLUSH_ERR.ibvValue());
        assertEquals(6, WcStatus.MW_BIND_ERR.ibvValue());
        assertEquals(7, WcStatus.BAD_RESP_ERR.ibvValue());
        assertEquals(8, WcStatus.LOC_ACCESS_ERR.ibvValue());
        assertEquals(9, WcStatus.REM_INV_REQ_ERR.ibvValue());
        assertEquals(10, WcStatus.REM_ACCESS_ERR.ibvValue());
        assertEquals(11, WcStatus.REM_OP_ERR.ibvValue());
        assertEquals(12, WcStatus.RETRY_EXC_ERR.ibvValue());
        assertEquals(13, WcStatus.RNR_RETRY_EXC_ERR.ibvValue());
        assertEquals(19, WcStatus.FATAL_ERR.ibvValue());
        assertEquals(20, WcStatus.RESP_TIMEOUT_ERR.ibvValue());
        assertEquals(21, WcStatus.GENERAL_ERR.ibvValue());
        for (WcStatus s : WcStatus.values()) {
            assertSame(s, WcStatus.ofIbv(s.ibvValue()));
            assertFalse(s.description().isBlank());
        }
        assertNull(WcStatus.ofIbv(-1));
        assertNull(WcStatus.ofIbv(WcStatus.values().length));
        assertEquals("Work Request Flushed Error", WcStatus.WR_FLUSH_ERR.description());
    }

    @Test
    void opcodeValuesAreLibibverbs() {
        assertEquals(0, WcOpcode.SEND.ibvValue());
        assertEquals(1, WcOpcode.RDMA_WRITE.ibvValue());
        assertEquals(2, WcOpcode.RDMA_READ.ibvValue());
        assertEquals(3, WcOpcode.COMP_SWAP.ibvValue());
        assertEquals(4, WcOpcode.FETCH_ADD.ibvValue());
        assertEquals(5, WcOpcode.BIND_MW.ibvValue());
        assertEquals(6, WcOpcode.LOCAL_INV.ibvValue());
        assertEquals(0x40, WcOpcode.REG_MR.ibvValue(), "not a libibverbs value; below the receive bit");
        assertEquals(128, WcOpcode.RECV.ibvValue());
        assertEquals(129, WcOpcode.RECV_RDMA_WITH_IMM.ibvValue());
        for (WcOpcode op : WcOpcode.values()) {
            assertSame(op, WcOpcode.ofIbv(op.ibvValue()));
            assertEquals(op.ibvValue() >= 128, op.isRecv());
        }
    }

    @Test
    void settersFlagsAndTerminateLayout() {
        WorkCompletion wc = new WorkCompletion().wrId(42).status(WcStatus.REM_ACCESS_ERR)
                .opcode(WcOpcode.RDMA_READ).byteLen(0).qpNum(17).terminate(1, 0, 0x02, true);
        assertFalse(wc.isSuccess());
        assertFalse(wc.hasImm());
        assertFalse(wc.hasInvalidate());
        assertEquals(0x1002_0001, wc.vendorErr(), "layer<<28 | type<<24 | code<<16 | remote bit");
        assertEquals(1, wc.terminateLayer());
        assertEquals(0, wc.terminateErrorType());
        assertEquals(2, wc.terminateErrorCode());
        assertTrue(wc.terminateFromPeer());
        wc.terminate(0, 2, 0x06, false);
        assertEquals(0x0206_0000, wc.vendorErr());
        assertFalse(wc.terminateFromPeer());
        assertTrue(wc.toString().contains("terminate=sent layer 0 type 2 code 0x06"), wc.toString());

        wc.reset().opcode(WcOpcode.RECV_RDMA_WITH_IMM).immData(0xFFFF_FFFF_1234_5678L).invalidatedRkey(0x1234);
        assertTrue(wc.hasImm());
        assertTrue(wc.hasInvalidate());
        assertEquals(WorkCompletion.WITH_IMM | WorkCompletion.WITH_INV, wc.flags());
        assertEquals(0x1234_5678, wc.immData32());
        assertEquals(0x1234, wc.invalidatedRkey());
    }

    @Test
    void copyAndReset() {
        WorkCompletion a = new WorkCompletion().wrId(1).status(WcStatus.LOC_LEN_ERR).opcode(WcOpcode.RECV)
                .byteLen(99).immData(5).invalidatedRkey(6).qpNum(7).vendorErr(8);
        WorkCompletion b = new WorkCompletion().copyFrom(a);
        assertEquals(a.toString(), b.toString());
        assertEquals(a.wrId(), b.wrId());
        assertEquals(a.status(), b.status());
        assertEquals(a.opcode(), b.opcode());
        assertEquals(a.byteLen(), b.byteLen());
        assertEquals(a.immData(), b.immData());
        assertEquals(a.flags(), b.flags());
        assertEquals(a.qpNum(), b.qpNum());
        assertEquals(a.invalidatedRkey(), b.invalidatedRkey());
        assertEquals(a.vendorErr(), b.vendorErr());
        b.reset();
        assertEquals(new WorkCompletion().toString(), b.toString());
        assertTrue(b.isSuccess());
        assertEquals(0, b.flags());
        assertEquals(0, b.vendorErr());
        assertEquals(WcStatus.LOC_LEN_ERR, a.status(), "copy is independent");
    }
}

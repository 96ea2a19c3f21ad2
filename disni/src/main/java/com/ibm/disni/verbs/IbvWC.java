package com.ibm.disni.verbs;

/**
 * A work completion ({@code struct ibv_wc}) with OFED's status and opcode values. A poll call fills
 * the program's objects in place ({@link SVCPollCq}), so polling allocates nothing.
 */
public class IbvWC {
    /** The size of {@code struct ibv_wc} in DiSNI's native layout; kept for programs that size buffers by it. */
    public static int CSIZE = 48;
    public static int CQ_OK = 0;
    public static int CQ_EMPTY = -1;
    public static int CQ_POLL_ERR = -2;
    protected long wr_id;
    protected int status;
    protected int opcode;
    protected int vendor_err;
    protected int byte_len;
    protected int imm_data;
    protected int qp_num;
    protected int src_qp;
    protected int wc_flags;
    protected short pkey_index;
    protected short slid;
    protected short sl;
    protected short dlid_path_bits;
    protected int err;
    protected boolean isSend;
    protected short wqIndex;
    protected short tail1;
    protected short tail2;
    protected short tail3;
    protected short diff;
    protected int wrIndex;
    protected int sqcqn;

    /** OFED's {@code enum ibv_wc_status}: {@code ordinal()} is the status value. */
    public enum IbvWcStatus {
        IBV_WC_SUCCESS, IBV_WC_LOC_LEN_ERR, IBV_WC_LOC_QP_OP_ERR, IBV_WC_LOC_EEC_OP_ERR, IBV_WC_LOC_PROT_ERR,
        IBV_WC_WR_FLUSH_ERR, IBV_WC_MW_BIND_ERR, IBV_WC_BAD_RESP_ERR, IBV_WC_LOC_ACCESS_ERR, IBV_WC_REM_INV_REQ_ERR,
        IBV_WC_REM_ACCESS_ERR, IBV_WC_REM_OP_ERR, IBV_WC_RETRY_EXC_ERR, IBV_WC_RNR_RETRY_EXC_ERR,
        IBV_WC_LOC_RDD_VIOL_ERR, IBV_WC_REM_INV_RD_REQ_ERR, IBV_WC_REM_ABORT_ERR, IBV_WC_INV_EECN_ERR,
        IBV_WC_INV_EEC_STATE_ERR, IBV_WC_FATAL_ERR, IBV_WC_RESP_TIMEOUT_ERR, IBV_WC_GENERAL_ERR;

        private static final IbvWcStatus[] VALUES = values();

        /** The status with OFED value {@code value}. */
        public static IbvWcStatus valueOf(int value) {
            if (value < 0 || value >= VALUES.length) {
                throw new IllegalArgumentException("no work completion status " + value);
            }
            return VALUES[value];
        }
    }

    /** OFED's {@code enum ibv_wc_opcode}; receive opcodes have bit 7 set. */
    public enum IbvWcOpcode {
        IBV_WC_SEND(0), IBV_WC_RDMA_WRITE(1), IBV_WC_RDMA_READ(2), IBV_WC_COMP_SWAP(3), IBV_WC_FETCH_ADD(4),
        IBV_WC_BIND_MW(5), IBV_WC_RECV(128), IBV_WC_RECV_RDMA_WITH_IMM(129);

        private final int opcode;

        IbvWcOpcode(int opcode) {
            this.opcode = opcode;
        }

        public int getOpcode() {
            return opcode;
        }

        /** The opcode with OFED value {@code value}. */
        public static IbvWcOpcode valueOf(int value) {
            for (IbvWcOpcode o : values()) {
                if (o.opcode == value) {
                    return o;
                }
            }
            throw new IllegalArgumentException("no work completion opcode " + value);
        }
    }

    public IbvWC() {
        wqIndex = -1;
    }

    /** A copy of this completion. */
    @Override
    public IbvWC clone() {
        IbvWC c = new IbvWC();
        c.wr_id = wr_id;
        c.status = status;
        c.opcode = opcode;
        c.vendor_err = vendor_err;
        c.byte_len = byte_len;
        c.imm_data = imm_data;
        c.qp_num = qp_num;
        c.src_qp = src_qp;
        c.wc_flags = wc_flags;
        c.pkey_index = pkey_index;
        c.slid = slid;
        c.sl = sl;
        c.dlid_path_bits = dlid_path_bits;
        c.err = err;
        c.isSend = isSend;
        c.wqIndex = wqIndex;
        c.tail1 = tail1;
        c.tail2 = tail2;
        c.tail3 = tail3;
        c.diff = diff;
        c.wrIndex = wrIndex;
        c.sqcqn = sqcqn;
        return c;
    }

    public long getWr_id() {
        return wr_id;
    }

    public void setWr_id(long wr_id) {
        this.wr_id = wr_id;
    }

    public int getStatus() {
        return status;
    }

    public void setStatus(int status) {
        this.status = status;
    }

    public int getOpcode() {
        return opcode;
    }

    public void setOpcode(int opcode) {
        this.opcode = opcode;
    }

    public int getVendor_err() {
        return vendor_err;
    }

    public void setVendor_err(int vendor_err) {
        this.vendor_err = vendor_err;
    }

    public int getByte_len() {
        return byte_len;
    }

    public void setByte_len(int byte_len) {
        this.byte_len = byte_len;
    }

    public int getImm_data() {
        return imm_data;
    }

    public void setImm_data(int imm_data) {
        this.imm_data = imm_data;
    }

    public int getQp_num() {
        return qp_num;
    }

    public void setQp_num(int qp_num) {
        this.qp_num = qp_num;
    }

    public int getSrc_qp() {
        return src_qp;
    }

    public void setSrc_qp(int src_qp) {
        this.src_qp = src_qp;
    }

    public int getWc_flags() {
        return wc_flags;
    }

    public void setWc_flags(int wc_flags) {
        this.wc_flags = wc_flags;
    }

    public short getPkey_index() {
        return pkey_index;
    }

    public void setPkey_index(short pkey_index) {
        this.pkey_index = pkey_index;
    }

    public short getSlid() {
        return slid;
    }

    public void setSlid(short slid) {
        this.slid = slid;
    }

    public short getSl() {
        return sl;
    }

    public void setSl(short sl) {
        this.sl = sl;
    }

    public short getDlid_path_bits() {
        return dlid_path_bits;
    }

    public void setDlid_path_bits(short dlid_path_bits) {
        this.dlid_path_bits = dlid_path_bits;
    }

    public String getClassName() {
        return IbvWC.class.getName();
    }

    public int getErr() {
        return err;
    }

    public void setErr(int err) {
        this.err = err;
    }

    public boolean isSend() {
        return isSend;
    }

    public void setSend(boolean isSend) {
        this.isSend = isSend;
    }

    public short getWqIndex() {
        return wqIndex;
    }

    public void setWqIndex(short wqIndex) {
        this.wqIndex = wqIndex;
    }

    public short getTail1() {
        return tail1;
    }

    public void setTail1(short tail1) {
        this.tail1 = tail1;
    }

    public short getTail2() {
        return tail2;
    }

    public void setTail2(short tail2) {
        this.tail2 = tail2;
    }

    public short getTail3() {
        return tail3;
    }

    public void setTail3(short tail3) {
        this.tail3 = tail3;
    }

    public void setDiff(short diff) {
        this.diff = diff;
    }

    public short getDiff() {
        return diff;
    }

    public int getSqcqn() {
        return sqcqn;
    }

    public void setSqcqn(int sqcqn) {
        this.sqcqn = sqcqn;
    }
}

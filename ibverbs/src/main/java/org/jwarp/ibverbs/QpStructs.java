package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.jwarp.ibverbs.Structs.INT;
import static org.jwarp.ibverbs.Structs.PTR;
import static org.jwarp.ibverbs.Structs.U64;
import static org.jwarp.ibverbs.Structs.cond;
import static org.jwarp.ibverbs.Structs.mutex;
import static org.jwarp.ibverbs.Structs.offset;
import static org.jwarp.ibverbs.Structs.pad;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.util.List;

/**
 * The queue pair and work structures of {@code <infiniband/verbs.h>} (rdma-core):
 * {@code ibv_qp_cap}, {@code ibv_qp_init_attr}, {@code ibv_qp}, {@code ibv_qp_attr} (with
 * {@code ibv_ah_attr}), {@code ibv_sge}, {@code ibv_send_wr}, {@code ibv_recv_wr} and
 * {@code ibv_wc}, in header order and names. Anonymous unions are named after the member the
 * provider uses, which C reaches by the same name.
 */
final class QpStructs {

    /** {@code struct ibv_qp_cap} (verbs.h). */
    static final StructLayout QP_CAP = MemoryLayout.structLayout(
            INT.withName("max_send_wr"),
            INT.withName("max_recv_wr"),
            INT.withName("max_send_sge"),
            INT.withName("max_recv_sge"),
            INT.withName("max_inline_data")).withName("ibv_qp_cap");

    /** {@code struct ibv_qp_init_attr} (verbs.h). */
    static final StructLayout QP_INIT_ATTR = MemoryLayout.structLayout(
            PTR.withName("qp_context"),
            PTR.withName("send_cq"),
            PTR.withName("recv_cq"),
            PTR.withName("srq"),
            QP_CAP.withName("cap"),
            INT.withName("qp_type"),
            INT.withName("sq_sig_all"),
            pad(4)).withName("ibv_qp_init_attr");

    /** {@code struct ibv_srq_attr} (verbs.h). */
    static final StructLayout SRQ_ATTR = MemoryLayout.structLayout(
            INT.withName("max_wr"),
            INT.withName("max_sge"),
            INT.withName("srq_limit")).withName("ibv_srq_attr");

    /** {@code struct ibv_srq_init_attr} (verbs.h). */
    static final StructLayout SRQ_INIT_ATTR = MemoryLayout.structLayout(
            PTR.withName("srq_context"),
            SRQ_ATTR.withName("attr"),
            pad(4)).withName("ibv_srq_init_attr");

    /** {@code struct ibv_qp} (verbs.h). */
    static final StructLayout QP = MemoryLayout.structLayout(
            PTR.withName("context"),
            PTR.withName("qp_context"),
            PTR.withName("pd"),
            PTR.withName("send_cq"),
            PTR.withName("recv_cq"),
            PTR.withName("srq"),
            INT.withName("handle"),
            INT.withName("qp_num"),
            INT.withName("state"),
            INT.withName("qp_type"),
            mutex("mutex"),
            cond("cond"),
            INT.withName("events_completed"),
            pad(4)).withName("ibv_qp");

    /** {@code struct ibv_global_route} (verbs.h); {@code union ibv_gid} is 16 bytes, 8-aligned. */
    static final StructLayout GLOBAL_ROUTE = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(2, U64).withName("dgid"),
            INT.withName("flow_label"),
            JAVA_BYTE.withName("sgid_index"),
            JAVA_BYTE.withName("hop_limit"),
            JAVA_BYTE.withName("traffic_class"),
            pad(1)).withName("ibv_global_route");

    /** {@code struct ibv_ah_attr} (verbs.h). */
    static final StructLayout AH_ATTR = MemoryLayout.structLayout(
            GLOBAL_ROUTE.withName("grh"),
            JAVA_SHORT.withName("dlid"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("src_path_bits"),
            JAVA_BYTE.withName("static_rate"),
            JAVA_BYTE.withName("is_global"),
            JAVA_BYTE.withName("port_num"),
            pad(1)).withName("ibv_ah_attr");

    /** {@code struct ibv_qp_attr} (verbs.h), for {@code ibv_modify_qp}. */
    static final StructLayout QP_ATTR = MemoryLayout.structLayout(
            INT.withName("qp_state"),
            INT.withName("cur_qp_state"),
            INT.withName("path_mtu"),
            INT.withName("path_mig_state"),
            INT.withName("qkey"),
            INT.withName("rq_psn"),
            INT.withName("sq_psn"),
            INT.withName("dest_qp_num"),
            INT.withName("qp_access_flags"),
            QP_CAP.withName("cap"),
            AH_ATTR.withName("ah_attr"),
            AH_ATTR.withName("alt_ah_attr"),
            JAVA_SHORT.withName("pkey_index"),
            JAVA_SHORT.withName("alt_pkey_index"),
            JAVA_BYTE.withName("en_sqd_async_notify"),
            JAVA_BYTE.withName("sq_draining"),
            JAVA_BYTE.withName("max_rd_atomic"),
            JAVA_BYTE.withName("max_dest_rd_atomic"),
            JAVA_BYTE.withName("min_rnr_timer"),
            JAVA_BYTE.withName("port_num"),
            JAVA_BYTE.withName("timeout"),
            JAVA_BYTE.withName("retry_cnt"),
            JAVA_BYTE.withName("rnr_retry"),
            JAVA_BYTE.withName("alt_port_num"),
            JAVA_BYTE.withName("alt_timeout"),
            pad(1),
            INT.withName("rate_limit"),
            pad(4)).withName("ibv_qp_attr");

    /** {@code struct ibv_sge} (verbs.h). */
    static final StructLayout SGE = MemoryLayout.structLayout(
            U64.withName("addr"),
            INT.withName("length"),
            INT.withName("lkey")).withName("ibv_sge");

    /** {@code struct ibv_mw_bind_info} (verbs.h). */
    static final StructLayout MW_BIND_INFO = MemoryLayout.structLayout(
            PTR.withName("mr"),
            U64.withName("addr"),
            U64.withName("length"),
            INT.withName("mw_access_flags"),
            pad(4)).withName("ibv_mw_bind_info");

    /** {@code union wr} of {@code struct ibv_send_wr}: its {@code rdma} and {@code atomic} members. */
    static final UnionLayout SEND_WR_WR = MemoryLayout.unionLayout(
            MemoryLayout.structLayout(
                    U64.withName("remote_addr"),
                    INT.withName("rkey"),
                    pad(4)).withName("rdma"),
            MemoryLayout.structLayout(
                    U64.withName("remote_addr"),
                    U64.withName("compare_add"),
                    U64.withName("swap"),
                    INT.withName("rkey"),
                    pad(4)).withName("atomic"));

    /** {@code struct ibv_send_wr} (verbs.h). */
    static final StructLayout SEND_WR = MemoryLayout.structLayout(
            U64.withName("wr_id"),
            PTR.withName("next"),
            PTR.withName("sg_list"),
            INT.withName("num_sge"),
            INT.withName("opcode"),
            INT.withName("send_flags"),
            INT.withName("imm_data"),                  // union { __be32 imm_data; uint32_t invalidate_rkey; }
            SEND_WR_WR.withName("wr"),
            INT.withName("qp_type"),                   // union { struct { uint32_t remote_srqn; } xrc; }
            pad(4),
            MemoryLayout.structLayout(                 // union { bind_mw; tso; }: bind_mw is the larger
                    PTR.withName("mw"),
                    INT.withName("rkey"),
                    pad(4),
                    MW_BIND_INFO.withName("bind_info")).withName("bind_mw")).withName("ibv_send_wr");

    /** {@code struct ibv_recv_wr} (verbs.h). */
    static final StructLayout RECV_WR = MemoryLayout.structLayout(
            U64.withName("wr_id"),
            PTR.withName("next"),
            PTR.withName("sg_list"),
            INT.withName("num_sge"),
            pad(4)).withName("ibv_recv_wr");

    /** {@code struct ibv_wc} (verbs.h). */
    static final StructLayout WC = MemoryLayout.structLayout(
            U64.withName("wr_id"),
            INT.withName("status"),
            INT.withName("opcode"),
            INT.withName("vendor_err"),
            INT.withName("byte_len"),
            INT.withName("imm_data"),                  // union { __be32 imm_data; uint32_t invalidated_rkey; }
            INT.withName("qp_num"),
            INT.withName("src_qp"),
            INT.withName("wc_flags"),
            JAVA_SHORT.withName("pkey_index"),
            JAVA_SHORT.withName("slid"),
            JAVA_BYTE.withName("sl"),
            JAVA_BYTE.withName("dlid_path_bits"),
            pad(2)).withName("ibv_wc");

    static final long QP_NUM = offset(QP, "qp_num");
    static final long QP_CONTEXT = offset(QP, "context");
    static final long SGE_ADDR = offset(SGE, "addr");
    static final long SGE_LENGTH = offset(SGE, "length");
    static final long SGE_LKEY = offset(SGE, "lkey");
    static final long SWR_WR_ID = offset(SEND_WR, "wr_id");
    static final long SWR_NEXT = offset(SEND_WR, "next");
    static final long SWR_SG_LIST = offset(SEND_WR, "sg_list");
    static final long SWR_NUM_SGE = offset(SEND_WR, "num_sge");
    static final long SWR_OPCODE = offset(SEND_WR, "opcode");
    static final long SWR_SEND_FLAGS = offset(SEND_WR, "send_flags");
    static final long SWR_IMM_DATA = offset(SEND_WR, "imm_data");
    static final long SWR_REMOTE_ADDR = offset(SEND_WR, "wr.rdma.remote_addr");
    static final long SWR_RKEY = offset(SEND_WR, "wr.rdma.rkey");
    static final long SWR_ATOMIC_REMOTE_ADDR = offset(SEND_WR, "wr.atomic.remote_addr");
    static final long SWR_ATOMIC_COMPARE_ADD = offset(SEND_WR, "wr.atomic.compare_add");
    static final long SWR_ATOMIC_SWAP = offset(SEND_WR, "wr.atomic.swap");
    static final long SWR_ATOMIC_RKEY = offset(SEND_WR, "wr.atomic.rkey");
    static final long RWR_WR_ID = offset(RECV_WR, "wr_id");
    static final long RWR_NEXT = offset(RECV_WR, "next");
    static final long RWR_SG_LIST = offset(RECV_WR, "sg_list");
    static final long RWR_NUM_SGE = offset(RECV_WR, "num_sge");
    static final long WC_WR_ID = offset(WC, "wr_id");
    static final long WC_STATUS = offset(WC, "status");
    static final long WC_OPCODE = offset(WC, "opcode");
    static final long WC_VENDOR_ERR = offset(WC, "vendor_err");
    static final long WC_BYTE_LEN = offset(WC, "byte_len");
    static final long WC_IMM_DATA = offset(WC, "imm_data");
    static final long WC_QP_NUM = offset(WC, "qp_num");
    static final long WC_FLAGS = offset(WC, "wc_flags");

    /** {@code enum ibv_qp_type}: IBV_QPT_RC. */
    static final int IBV_QPT_RC = 2;
    /** {@code enum ibv_qp_attr_mask}. */
    static final int IBV_QP_STATE = 1;
    static final int IBV_QP_ACCESS_FLAGS = 1 << 3;
    static final int IBV_QP_PKEY_INDEX = 1 << 4;
    static final int IBV_QP_PORT = 1 << 5;

    private QpStructs() {
    }

    /** Every layout here, for the layouts test. */
    static List<StructLayout> all() {
        return List.of(QP_CAP, QP_INIT_ATTR, SRQ_ATTR, SRQ_INIT_ATTR, QP, GLOBAL_ROUTE, AH_ATTR, QP_ATTR, SGE, MW_BIND_INFO, SEND_WR, RECV_WR, WC);
    }
}

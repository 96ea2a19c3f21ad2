package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.jwarp.ibverbs.Structs.INT;
import static org.jwarp.ibverbs.Structs.PTR;
import static org.jwarp.ibverbs.Structs.U64;
import static org.jwarp.ibverbs.Structs.chars;
import static org.jwarp.ibverbs.Structs.cond;
import static org.jwarp.ibverbs.Structs.mutex;
import static org.jwarp.ibverbs.Structs.offset;
import static org.jwarp.ibverbs.Structs.pad;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The device, context and resource structures of {@code <infiniband/verbs.h>} (rdma-core) that the
 * provider reads: {@code ibv_context} with its ops table, {@code ibv_device_attr},
 * {@code ibv_port_attr}, {@code ibv_pd}, {@code ibv_mr}, {@code ibv_comp_channel} and
 * {@code ibv_cq}, in header order and names.
 */
final class VerbsStructs {

    /**
     * {@code struct ibv_context_ops} (verbs.h): the function pointers the header's static inline
     * {@code ibv_post_send}, {@code ibv_post_recv}, {@code ibv_poll_cq}, {@code ibv_req_notify_cq}
     * and {@code ibv_post_srq_recv} call through; the {@code _compat_*} slots are unused.
     */
    static final StructLayout CONTEXT_OPS = opsLayout();

    /** {@code struct ibv_context} (verbs.h). */
    static final StructLayout CONTEXT = MemoryLayout.structLayout(
            PTR.withName("device"),
            CONTEXT_OPS.withName("ops"),
            INT.withName("cmd_fd"),
            INT.withName("async_fd"),
            INT.withName("num_comp_vectors"),
            pad(4),
            mutex("mutex"),
            PTR.withName("abi_compat")).withName("ibv_context");

    /** {@code struct ibv_device_attr} (verbs.h), filled by {@code ibv_query_device}. */
    static final StructLayout DEVICE_ATTR = MemoryLayout.structLayout(
            chars("fw_ver", 64),
            U64.withName("node_guid"),
            U64.withName("sys_image_guid"),
            U64.withName("max_mr_size"),
            U64.withName("page_size_cap"),
            INT.withName("vendor_id"),
            INT.withName("vendor_part_id"),
            INT.withName("hw_ver"),
            INT.withName("max_qp"),
            INT.withName("max_qp_wr"),
            INT.withName("device_cap_flags"),
            INT.withName("max_sge"),
            INT.withName("max_sge_rd"),
            INT.withName("max_cq"),
            INT.withName("max_cqe"),
            INT.withName("max_mr"),
            INT.withName("max_pd"),
            INT.withName("max_qp_rd_atom"),
            INT.withName("max_ee_rd_atom"),
            INT.withName("max_res_rd_atom"),
            INT.withName("max_qp_init_rd_atom"),
            INT.withName("max_ee_init_rd_atom"),
            INT.withName("atomic_cap"),
            INT.withName("max_ee"),
            INT.withName("max_rdd"),
            INT.withName("max_mw"),
            INT.withName("max_raw_ipv6_qp"),
            INT.withName("max_raw_ethy_qp"),
            INT.withName("max_mcast_grp"),
            INT.withName("max_mcast_qp_attach"),
            INT.withName("max_total_mcast_qp_attach"),
            INT.withName("max_ah"),
            INT.withName("max_fmr"),
            INT.withName("max_map_per_fmr"),
            INT.withName("max_srq"),
            INT.withName("max_srq_wr"),
            INT.withName("max_srq_sge"),
            JAVA_SHORT.withName("max_pkeys"),
            JAVA_BYTE.withName("local_ca_ack_delay"),
            JAVA_BYTE.withName("phys_port_cnt"),
            pad(4)).withName("ibv_device_attr");

    /** {@code struct ibv_port_attr} (verbs.h), filled by {@code ibv_query_port}. */
    static final StructLayout PORT_ATTR = MemoryLayout.structLayout(
            INT.withName("state"),
            INT.withName("max_mtu"),
            INT.withName("active_mtu"),
            INT.withName("gid_tbl_len"),
            INT.withName("port_cap_flags"),
            INT.withName("max_msg_sz"),
            INT.withName("bad_pkey_cntr"),
            INT.withName("qkey_viol_cntr"),
            JAVA_SHORT.withName("pkey_tbl_len"),
            JAVA_SHORT.withName("lid"),
            JAVA_SHORT.withName("sm_lid"),
            JAVA_BYTE.withName("lmc"),
            JAVA_BYTE.withName("max_vl_num"),
            JAVA_BYTE.withName("sm_sl"),
            JAVA_BYTE.withName("subnet_timeout"),
            JAVA_BYTE.withName("init_type_reply"),
            JAVA_BYTE.withName("active_width"),
            JAVA_BYTE.withName("active_speed"),
            JAVA_BYTE.withName("phys_state"),
            JAVA_BYTE.withName("link_layer"),
            JAVA_BYTE.withName("flags"),
            JAVA_SHORT.withName("port_cap_flags2"),
            pad(2)).withName("ibv_port_attr");

    /** {@code struct ibv_pd} (verbs.h). */
    static final StructLayout PD = MemoryLayout.structLayout(
            PTR.withName("context"),
            INT.withName("handle"),
            pad(4)).withName("ibv_pd");

    /** {@code struct ibv_mr} (verbs.h). */
    static final StructLayout MR = MemoryLayout.structLayout(
            PTR.withName("context"),
            PTR.withName("pd"),
            PTR.withName("addr"),
            U64.withName("length"),
            INT.withName("handle"),
            INT.withName("lkey"),
            INT.withName("rkey"),
            pad(4)).withName("ibv_mr");

    /** {@code struct ibv_comp_channel} (verbs.h). */
    static final StructLayout COMP_CHANNEL = MemoryLayout.structLayout(
            PTR.withName("context"),
            INT.withName("fd"),
            INT.withName("refcnt")).withName("ibv_comp_channel");

    /** {@code struct ibv_cq} (verbs.h). */
    static final StructLayout CQ = MemoryLayout.structLayout(
            PTR.withName("context"),
            PTR.withName("channel"),
            PTR.withName("cq_context"),
            INT.withName("handle"),
            INT.withName("cqe"),
            mutex("mutex"),
            cond("cond"),
            INT.withName("comp_events_completed"),
            INT.withName("async_events_completed")).withName("ibv_cq");

    static final long CONTEXT_POLL_CQ = offset(CONTEXT, "ops.poll_cq");
    static final long CONTEXT_REQ_NOTIFY_CQ = offset(CONTEXT, "ops.req_notify_cq");
    static final long CONTEXT_POST_SEND = offset(CONTEXT, "ops.post_send");
    static final long CONTEXT_POST_RECV = offset(CONTEXT, "ops.post_recv");
    static final long CONTEXT_POST_SRQ_RECV = offset(CONTEXT, "ops.post_srq_recv");
    static final long MR_LKEY = offset(MR, "lkey");
    static final long MR_RKEY = offset(MR, "rkey");
    static final long MR_HANDLE = offset(MR, "handle");
    static final long PD_HANDLE = offset(PD, "handle");
    static final long COMP_CHANNEL_FD = offset(COMP_CHANNEL, "fd");
    static final long CQ_CQE = offset(CQ, "cqe");
    static final long CQ_HANDLE = offset(CQ, "handle");
    static final long CQ_CONTEXT = offset(CQ, "context");

    private VerbsStructs() {
    }

    /** Every layout here, for the layouts test. */
    static List<StructLayout> all() {
        return List.of(CONTEXT, DEVICE_ATTR, PORT_ATTR, PD, MR, COMP_CHANNEL, CQ);
    }

    private static StructLayout opsLayout() {
        String[] names = {"_compat_query_device", "_compat_query_port", "_compat_alloc_pd", "_compat_dealloc_pd",
            "_compat_reg_mr", "_compat_rereg_mr", "_compat_dereg_mr", "alloc_mw", "bind_mw", "dealloc_mw",
            "_compat_create_cq", "poll_cq", "req_notify_cq", "_compat_cq_event", "_compat_resize_cq",
            "_compat_destroy_cq", "_compat_create_srq", "_compat_modify_srq", "_compat_query_srq",
            "_compat_destroy_srq", "post_srq_recv", "_compat_create_qp", "_compat_query_qp", "_compat_modify_qp",
            "_compat_destroy_qp", "post_send", "post_recv", "_compat_create_ah", "_compat_destroy_ah",
            "_compat_attach_mcast", "_compat_detach_mcast", "_compat_async_event"};
        List<MemoryLayout> members = new ArrayList<>();
        for (String n : names) {
            members.add(PTR.withName(n));
        }
        return MemoryLayout.structLayout(members.toArray(MemoryLayout[]::new)).withName("ibv_context_ops");
    }
}

package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.jwarp.ibverbs.Structs.INT;
import static org.jwarp.ibverbs.Structs.PTR;
import static org.jwarp.ibverbs.Structs.U64;
import static org.jwarp.ibverbs.Structs.offset;
import static org.jwarp.ibverbs.Structs.pad;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.List;

/**
 * The connection manager's structures of {@code <rdma/rdma_cma.h>} (rdma-core's librdmacm):
 * {@code rdma_event_channel}, {@code rdma_cm_id} with its route and addresses,
 * {@code rdma_conn_param}, {@code rdma_ud_param} and {@code rdma_cm_event}, in header order and
 * names. Socket addresses are {@code struct sockaddr_storage} (128 bytes, 8-aligned).
 */
final class CmStructs {

    /** {@code struct rdma_event_channel} (rdma_cma.h). */
    static final StructLayout EVENT_CHANNEL = MemoryLayout.structLayout(INT.withName("fd")).withName("rdma_event_channel");

    /** {@code struct rdma_ib_addr} (rdma_cma.h). */
    static final StructLayout IB_ADDR = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(2, U64).withName("sgid"),
            MemoryLayout.sequenceLayout(2, U64).withName("dgid"),
            JAVA_SHORT.withName("pkey"),
            pad(6)).withName("rdma_ib_addr");

    /** {@code struct rdma_addr} (rdma_cma.h): the anonymous unions by their sockaddr_storage member. */
    static final StructLayout ADDR = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(16, U64).withName("src_storage"),
            MemoryLayout.sequenceLayout(16, U64).withName("dst_storage"),
            MemoryLayout.unionLayout(IB_ADDR.withName("ibaddr")).withName("addr")).withName("rdma_addr");

    /** {@code struct rdma_route} (rdma_cma.h). */
    static final StructLayout ROUTE = MemoryLayout.structLayout(
            ADDR.withName("addr"),
            PTR.withName("path_rec"),
            INT.withName("num_paths"),
            pad(4)).withName("rdma_route");

    /** {@code struct rdma_cm_id} (rdma_cma.h). */
    static final StructLayout CM_ID = MemoryLayout.structLayout(
            PTR.withName("verbs"),
            PTR.withName("channel"),
            PTR.withName("context"),
            PTR.withName("qp"),
            ROUTE.withName("route"),
            INT.withName("ps"),
            JAVA_BYTE.withName("port_num"),
            pad(3),
            PTR.withName("event"),
            PTR.withName("send_cq_channel"),
            PTR.withName("send_cq"),
            PTR.withName("recv_cq_channel"),
            PTR.withName("recv_cq"),
            PTR.withName("srq"),
            PTR.withName("pd"),
            INT.withName("qp_type"),
            pad(4)).withName("rdma_cm_id");

    /** {@code struct rdma_conn_param} (rdma_cma.h). */
    static final StructLayout CONN_PARAM = MemoryLayout.structLayout(
            PTR.withName("private_data"),
            JAVA_BYTE.withName("private_data_len"),
            JAVA_BYTE.withName("responder_resources"),
            JAVA_BYTE.withName("initiator_depth"),
            JAVA_BYTE.withName("flow_control"),
            JAVA_BYTE.withName("retry_count"),
            JAVA_BYTE.withName("rnr_retry_count"),
            JAVA_BYTE.withName("srq"),
            pad(1),
            INT.withName("qp_num"),
            pad(4)).withName("rdma_conn_param");

    /** {@code struct rdma_ud_param} (rdma_cma.h): the larger member of the event's param union. */
    static final StructLayout UD_PARAM = MemoryLayout.structLayout(
            PTR.withName("private_data"),
            JAVA_BYTE.withName("private_data_len"),
            pad(7),
            QpStructs.AH_ATTR.withName("ah_attr"),
            INT.withName("qp_num"),
            INT.withName("qkey")).withName("rdma_ud_param");

    /** {@code struct rdma_cm_event} (rdma_cma.h). */
    static final StructLayout CM_EVENT = MemoryLayout.structLayout(
            PTR.withName("id"),
            PTR.withName("listen_id"),
            INT.withName("event"),
            INT.withName("status"),
            MemoryLayout.unionLayout(CONN_PARAM.withName("conn"), UD_PARAM.withName("ud")).withName("param"))
            .withName("rdma_cm_event");

    static final long CHANNEL_FD = offset(EVENT_CHANNEL, "fd");
    static final long ID_VERBS = offset(CM_ID, "verbs");
    static final long ID_SRC = offset(CM_ID, "route.addr.src_storage");
    static final long ID_DST = offset(CM_ID, "route.addr.dst_storage");
    static final long EVENT_ID = offset(CM_EVENT, "id");
    static final long EVENT_LISTEN_ID = offset(CM_EVENT, "listen_id");
    static final long EVENT_TYPE = offset(CM_EVENT, "event");
    static final long EVENT_STATUS = offset(CM_EVENT, "status");
    static final long EVENT_PDATA = offset(CM_EVENT, "param.conn.private_data");
    static final long EVENT_PDATA_LEN = offset(CM_EVENT, "param.conn.private_data_len");
    static final long EVENT_RESPONDER_RESOURCES = offset(CM_EVENT, "param.conn.responder_resources");
    static final long EVENT_INITIATOR_DEPTH = offset(CM_EVENT, "param.conn.initiator_depth");
    static final long PARAM_PDATA = offset(CONN_PARAM, "private_data");
    static final long PARAM_PDATA_LEN = offset(CONN_PARAM, "private_data_len");
    static final long PARAM_RESPONDER_RESOURCES = offset(CONN_PARAM, "responder_resources");
    static final long PARAM_INITIATOR_DEPTH = offset(CONN_PARAM, "initiator_depth");
    static final long PARAM_RETRY_COUNT = offset(CONN_PARAM, "retry_count");
    static final long PARAM_QP_NUM = offset(CONN_PARAM, "qp_num");

    /** {@code enum rdma_port_space}: RDMA_PS_TCP. */
    static final int RDMA_PS_TCP = 0x0106;

    private CmStructs() {
    }

    /** Every layout here, for the layouts test. */
    static List<StructLayout> all() {
        return List.of(EVENT_CHANNEL, IB_ADDR, ADDR, ROUTE, CM_ID, CONN_PARAM, UD_PARAM, CM_EVENT);
    }
}

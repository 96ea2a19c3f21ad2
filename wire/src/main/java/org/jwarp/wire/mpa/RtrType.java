package org.jwarp.wire.mpa;

/**
 * The zero-length message an initiator sends as its first FPDU in peer-to-peer mode, the RTR
 * (RFC 6581 §5, §9.2). Declared in the order this implementation prefers when it has a choice:
 * Write first (no side effect at the responder: STag and TO of a zero-length tagged message are
 * not checked, RFC 5041 §5.2; siw picks it too), then Read (costs an IRD slot, needed by cxgb4,
 * which offers nothing else), then Send last (it uses up a receive buffer the ULP posted and
 * shifts the MSN of the ULP's first Send to 2; siw never chooses it).
 */
public enum RtrType {
    /** C: zero-length RDMA Write. */
    WRITE,
    /** D: zero-length RDMA Read Request (needs initiator ORD and responder IRD of at least 1). */
    READ,
    /** B: zero-length Send. */
    SEND
}

package org.jwarp.verbs;

/**
 * A work completion ({@code ibv_wc}), mutable and reusable: the application allocates an array of
 * them once and {@link CompletionQueue#poll(WorkCompletion[], int)} overwrites them, so polling
 * allocates nothing.
 *
 * <p>The setters are for providers filling a completion; applications read the getters. One
 * thread at a time (the one polling). Every field is written on every fill: a provider calls
 * {@link #reset()} or sets all fields, so no value leaks from an earlier completion.
 *
 * <p>{@link #vendorErr()}: when an error status was caused by a Terminate (sent or received),
 * this holds the Terminate's error triple in the same layout as the upper half of the RFC 5040
 * §4.8 Terminate Control word, {@code layer << 28 | errorType << 24 | errorCode << 16} (layer 0 =
 * RDMAP, 1 = DDP, 2 = MPA), with bit 0 telling whether the Terminate was received from the peer
 * ({@link #VENDOR_ERR_REMOTE}) or sent by us. 0 when there was no Terminate.
 */
public final class WorkCompletion {

    /** {@link #flags()} bit: {@link #immData()} is valid ({@code IBV_WC_WITH_IMM}). */
    public static final int WITH_IMM = 1 << 1;
    /** {@link #flags()} bit: the peer's Send with Invalidate invalidated {@link #invalidatedRkey()} ({@code IBV_WC_WITH_INV}). */
    public static final int WITH_INV = 1 << 3;
    /** {@link #vendorErr()} bit: the Terminate came from the peer (else we sent it). */
    public static final int VENDOR_ERR_REMOTE = 1;

    private long wrId;
    private WcStatus status = WcStatus.SUCCESS;
    private WcOpcode opcode = WcOpcode.SEND;
    private long byteLen;
    private long immData;
    private int flags;
    private int qpNum;
    private int invalidatedRkey;
    private int vendorErr;

    /** A blank completion, for the array an application polls into. */
    public WorkCompletion() {
    }

    /**
     * Restores the initial values: SUCCESS, SEND, all numbers 0. Returns {@code this}.
     *
     * @return this completion
     */
    public WorkCompletion reset() {
        wrId = 0;
        status = WcStatus.SUCCESS;
        opcode = WcOpcode.SEND;
        byteLen = 0;
        immData = 0;
        flags = 0;
        qpNum = 0;
        invalidatedRkey = Stag.INVALID;
        vendorErr = 0;
        return this;
    }

    /**
     * Copies every field of {@code other}; returns {@code this}.
     *
     * @param other the completion to copy
     * @return this completion
     */
    public WorkCompletion copyFrom(WorkCompletion other) {
        wrId = other.wrId;
        status = other.status;
        opcode = other.opcode;
        byteLen = other.byteLen;
        immData = other.immData;
        flags = other.flags;
        qpNum = other.qpNum;
        invalidatedRkey = other.invalidatedRkey;
        vendorErr = other.vendorErr;
        return this;
    }

    // ---- provider setters ---------------------------------------------------------------------

    /**
     * Sets the {@code wrId} of the completed work request.
     * @param wrId the request's identifier
     * @return this completion
     */
    public WorkCompletion wrId(long wrId) {
        this.wrId = wrId;
        return this;
    }

    /**
     * Sets the status.
     * @param status how the request ended
     * @return this completion
     */
    public WorkCompletion status(WcStatus status) {
        this.status = status;
        return this;
    }

    /**
     * Sets the completed operation.
     * @param opcode the operation
     * @return this completion
     */
    public WorkCompletion opcode(WcOpcode opcode) {
        this.opcode = opcode;
        return this;
    }

    /**
     * Sets the bytes transferred.
     * @param byteLen the byte count
     * @return this completion
     */
    public WorkCompletion byteLen(long byteLen) {
        this.byteLen = byteLen;
        return this;
    }

    /**
     * Sets the immediate data and the {@link #WITH_IMM} flag.
     *
     * @param immData the 64-bit immediate data
     * @return this completion
     */
    public WorkCompletion immData(long immData) {
        this.immData = immData;
        this.flags |= WITH_IMM;
        return this;
    }

    /**
     * Sets the invalidated STag and the {@link #WITH_INV} flag.
     *
     * @param rkey the invalidated STag
     * @return this completion
     */
    public WorkCompletion invalidatedRkey(int rkey) {
        this.invalidatedRkey = rkey;
        this.flags |= WITH_INV;
        return this;
    }

    /**
     * Replaces the flags.
     * @param flags {@link #WITH_IMM} and {@link #WITH_INV} bits
     * @return this completion
     */
    public WorkCompletion flags(int flags) {
        this.flags = flags;
        return this;
    }

    /**
     * Sets the queue pair's number.
     * @param qpNum the number
     * @return this completion
     */
    public WorkCompletion qpNum(int qpNum) {
        this.qpNum = qpNum;
        return this;
    }

    /**
     * Sets {@link #vendorErr()} from a Terminate's (layer, type, code).
     *
     * @param layer     0 RDMAP, 1 DDP, 2 MPA
     * @param errorType the Terminate's error type
     * @param errorCode the Terminate's error code
     * @param fromPeer  whether the peer sent the Terminate
     * @return this completion
     */
    public WorkCompletion terminate(int layer, int errorType, int errorCode, boolean fromPeer) {
        this.vendorErr = (layer & 0xF) << 28 | (errorType & 0xF) << 24 | (errorCode & 0xFF) << 16
                | (fromPeer ? VENDOR_ERR_REMOTE : 0);
        return this;
    }

    /**
     * Sets {@link #vendorErr()}.
     * @param vendorErr the value, in the layout of the class comment
     * @return this completion
     */
    public WorkCompletion vendorErr(int vendorErr) {
        this.vendorErr = vendorErr;
        return this;
    }

    // ---- getters -----------------------------------------------------------------------------

    /** {@return the {@code wrId} of the work request this completes} */
    public long wrId() {
        return wrId;
    }

    /** {@return how the request ended} */
    public WcStatus status() {
        return status;
    }

    /** {@return whether the status is SUCCESS} */
    public boolean isSuccess() {
        return status == WcStatus.SUCCESS;
    }

    /**
     * The completed operation. Valid for errors too where the provider knows it (it always does for
     * the send queue); for flushed receives it is {@link WcOpcode#RECV}.
     *
     * @return the operation
     */
    public WcOpcode opcode() {
        return opcode;
    }

    /**
     * Bytes transferred: the received message length for RECV, the bytes read for RDMA_READ, 8 for
     * atomics, the request length for SEND and RDMA_WRITE. 0 for RECV_RDMA_WITH_IMM (see
     * {@link WcOpcode#RECV_RDMA_WITH_IMM}).
     *
     * @return the byte count
     */
    public long byteLen() {
        return byteLen;
    }

    /** {@return the 64-bit RFC 7306 immediate data; valid if {@link #hasImm()}} */
    public long immData() {
        return immData;
    }

    /** {@return the low 32 bits of {@link #immData()}: OFED's {@code imm_data} (see {@link SendWr})} */
    public int immData32() {
        return (int) immData;
    }

    /** {@return whether the completion carries immediate data} */
    public boolean hasImm() {
        return (flags & WITH_IMM) != 0;
    }

    /** {@return the local STag invalidated by the peer's Send with Invalidate; valid if {@link #hasInvalidate()}} */
    public int invalidatedRkey() {
        return invalidatedRkey;
    }

    /** {@return whether the peer's Send with Invalidate invalidated a local STag} */
    public boolean hasInvalidate() {
        return (flags & WITH_INV) != 0;
    }

    /** {@return the {@link #WITH_IMM} and {@link #WITH_INV} bits} */
    public int flags() {
        return flags;
    }

    /** {@return the number of the queue pair this completion belongs to ({@link QueuePair#qpNum()})} */
    public int qpNum() {
        return qpNum;
    }

    /** {@return the Terminate that caused an error (layout in the class comment), or 0} */
    public int vendorErr() {
        return vendorErr;
    }

    /** {@return the Terminate layer from {@link #vendorErr()} (0 RDMAP, 1 DDP, 2 MPA)} */
    public int terminateLayer() {
        return vendorErr >>> 28;
    }

    /** {@return the Terminate error type from {@link #vendorErr()}} */
    public int terminateErrorType() {
        return (vendorErr >>> 24) & 0xF;
    }

    /** {@return the Terminate error code from {@link #vendorErr()}} */
    public int terminateErrorCode() {
        return (vendorErr >>> 16) & 0xFF;
    }

    /** {@return whether {@link #vendorErr()} describes a Terminate received from the peer} */
    public boolean terminateFromPeer() {
        return (vendorErr & VENDOR_ERR_REMOTE) != 0;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("WorkCompletion{wrId=").append(wrId).append(", status=").append(status)
                .append(", opcode=").append(opcode).append(", byteLen=").append(byteLen).append(", qp=").append(qpNum);
        if (hasImm()) {
            sb.append(", imm=0x").append(Long.toHexString(immData));
        }
        if (hasInvalidate()) {
            sb.append(", inv=").append(Stag.toString(invalidatedRkey));
        }
        if (vendorErr != 0) {
            sb.append(String.format(", terminate=%s layer %d type %d code 0x%02x",
                    terminateFromPeer() ? "received" : "sent", terminateLayer(), terminateErrorType(),
                    terminateErrorCode()));
        }
        return sb.append('}').toString();
    }
}

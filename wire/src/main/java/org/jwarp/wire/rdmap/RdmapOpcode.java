package org.jwarp.wire.rdmap;

/**
 * RDMAP opcodes (RFC 5040 §4.1–4.2, RFC 6580 §3, RFC 7306 §4.1), with what each implies for the
 * DDP layer: buffer model, queue number (RFC 5040 §4.1 and RFC 7306 §10.2), the length of the RDMAP
 * header that follows the DDP header, and whether the message carries ULP payload.
 *
 * <p>There is no "RDMA Write with Immediate Data" opcode: RFC 7306 §6 sends an RDMA Write followed
 * by an {@link #IMMEDIATE_DATA} message.
 */
public enum RdmapOpcode {
    RDMA_WRITE(0x0, true, -1, 0, Size.PAYLOAD),
    RDMA_READ_REQUEST(0x1, false, 1, ReadRequestHeader.LENGTH, Size.EXACT),
    RDMA_READ_RESPONSE(0x2, true, -1, 0, Size.PAYLOAD),
    SEND(0x3, false, 0, 0, Size.PAYLOAD),
    SEND_WITH_INVALIDATE(0x4, false, 0, 0, Size.PAYLOAD),
    SEND_WITH_SE(0x5, false, 0, 0, Size.PAYLOAD),
    SEND_WITH_SE_AND_INVALIDATE(0x6, false, 0, 0, Size.PAYLOAD),
    TERMINATE(0x7, false, 2, TerminateHeader.MIN_LENGTH, Size.AT_LEAST),
    IMMEDIATE_DATA(0x8, false, 0, ImmediateDataHeader.LENGTH, Size.EXACT),
    IMMEDIATE_DATA_WITH_SE(0x9, false, 0, ImmediateDataHeader.LENGTH, Size.EXACT),
    ATOMIC_REQUEST(0xA, false, 1, AtomicRequestHeader.LENGTH, Size.EXACT),
    ATOMIC_RESPONSE(0xB, false, 3, AtomicResponseHeader.LENGTH, Size.EXACT);

    /** Queue numbers of the untagged buffer model (RFC 5040 §4.1; RFC 7306 §10.2 adds QN 3). */
    public static final int QN_SEND = 0;
    public static final int QN_READ_REQUEST = 1;
    public static final int QN_TERMINATE = 2;
    public static final int QN_ATOMIC_RESPONSE = 3;

    /** How the RDMAP header length relates to the message. */
    enum Size {
        /** No RDMAP header; any amount of ULP payload, any number of segments. */
        PAYLOAD,
        /** A fixed-size RDMAP header, no payload, exactly one segment. */
        EXACT,
        /** A header of at least the given size and at most {@link TerminateHeader#MAX_LENGTH}, one segment. */
        AT_LEAST
    }

    private static final RdmapOpcode[] BY_CODE = new RdmapOpcode[16];

    static {
        for (RdmapOpcode op : values()) {
            BY_CODE[op.code] = op;
        }
    }

    private final int code;
    private final boolean tagged;
    private final int queueNumber;
    private final int headerLength;
    private final Size size;

    RdmapOpcode(int code, boolean tagged, int queueNumber, int headerLength, Size size) {
        this.code = code;
        this.tagged = tagged;
        this.queueNumber = queueNumber;
        this.headerLength = headerLength;
        this.size = size;
    }

    /** The 4-bit opcode on the wire. */
    public int code() {
        return code;
    }

    /** True for messages of the tagged buffer model (RDMA Write, RDMA Read Response). */
    public boolean tagged() {
        return tagged;
    }

    /** The untagged queue number this message uses, or -1 for tagged messages. */
    public int queueNumber() {
        return queueNumber;
    }

    /** Length of the RDMAP header after the DDP header (the minimum, for Terminate). */
    public int headerLength() {
        return headerLength;
    }

    /** True for the Send family and Write/Read Response: messages that carry ULP payload. */
    public boolean carriesPayload() {
        return size == Size.PAYLOAD;
    }

    /** True for messages that are always one DDP segment with L=1 and no payload. */
    public boolean singleSegment() {
        return size != Size.PAYLOAD;
    }

    /** True if the message has exactly {@link #headerLength()} bytes after the DDP header. */
    public boolean fixedLength() {
        return size == Size.EXACT;
    }

    /** True for Send with Invalidate and Send with SE and Invalidate (RFC 5040 §5.3). */
    public boolean invalidates() {
        return this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE_AND_INVALIDATE;
    }

    /** True for the variants that ask for a solicited event (RFC 5040 §5.3, RFC 7306 §4.1). */
    public boolean solicitedEvent() {
        return this == SEND_WITH_SE || this == SEND_WITH_SE_AND_INVALIDATE || this == IMMEDIATE_DATA_WITH_SE;
    }

    /** True for RFC 7306 opcodes, which a peer without RFC 7306 (e.g. siw) answers with a Terminate. */
    public boolean rfc7306() {
        return code >= 0x8;
    }

    /** The opcode for a 4-bit wire value, or {@code null} for unassigned values 0xC–0xF. */
    public static RdmapOpcode fromCode(int code) {
        return BY_CODE[code & 0xF];
    }

    /** The RDMAP control byte (RFC 5040 §4.1): RV = 01b, reserved 0, opcode. */
    public int controlByte() {
        return RdmapControl.RV_IETF << 6 | code;
    }
}

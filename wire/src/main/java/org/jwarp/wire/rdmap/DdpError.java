package org.jwarp.wire.rdmap;

/**
 * DDP error codes, Terminate layer 1 (RFC 5041 §7.2; RFC 6580 §3.2). DDP has no "access rights"
 * code: a tagged placement that lacks the right is reported as {@link #INVALID_STAG}, as siw does.
 */
public enum DdpError implements TerminateError {
    /** Error type 0: local catastrophic. */
    LOCAL_CATASTROPHIC(0x0, 0x00, "local catastrophic"),

    /** Error type 1: tagged buffer error. */
    INVALID_STAG(0x1, 0x00, "invalid STag"),
    BASE_OR_BOUNDS_VIOLATION(0x1, 0x01, "base or bounds violation"),
    STAG_NOT_ASSOCIATED(0x1, 0x02, "STag not associated with DDP stream"),
    TO_WRAP(0x1, 0x03, "TO wrap"),
    TAGGED_INVALID_DDP_VERSION(0x1, 0x04, "invalid DDP version"),

    /** Error type 2: untagged buffer error. */
    INVALID_QN(0x2, 0x01, "invalid QN"),
    NO_BUFFER_AVAILABLE(0x2, 0x02, "invalid MSN, no buffer available"),
    MSN_RANGE_NOT_VALID(0x2, 0x03, "invalid MSN, MSN range is not valid"),
    INVALID_MO(0x2, 0x04, "invalid MO"),
    MESSAGE_TOO_LONG(0x2, 0x05, "DDP message too long for available buffer"),
    UNTAGGED_INVALID_DDP_VERSION(0x2, 0x06, "invalid DDP version");

    public static final int TYPE_LOCAL_CATASTROPHIC = 0x0;
    public static final int TYPE_TAGGED_BUFFER = 0x1;
    public static final int TYPE_UNTAGGED_BUFFER = 0x2;
    /** Error type 3 is reserved for the LLP to report its own errors through DDP (RFC 5041 §7.2). */
    public static final int TYPE_RESERVED_FOR_LLP = 0x3;

    private final Code code;

    DdpError(int errorType, int errorCode, String description) {
        this.code = new Code(errorType, errorCode, description);
    }

    @Override
    public int layer() {
        return LAYER_DDP;
    }

    @Override
    public Code code() {
        return code;
    }

    static DdpError of(int errorType, int errorCode) {
        return TerminateError.find(values(), errorType, errorCode, TYPE_LOCAL_CATASTROPHIC, LOCAL_CATASTROPHIC);
    }
}

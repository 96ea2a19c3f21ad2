package org.jwarp.wire.rdmap;

/**
 * RDMAP error codes, Terminate layer 0 (RFC 5040 §4.8 Figure 9; RFC 6580 §3.3; RFC 7306 §8 adds no
 * new codes but uses remote-operation 0x07 for an unaligned atomic).
 */
public enum RdmapError implements TerminateError {
    /** Error type 0: local catastrophic error (code vendor-defined, sent as 0). */
    LOCAL_CATASTROPHIC(0x0, 0x00, "local catastrophic error"),

    /** Error type 1: remote protection error. */
    INVALID_STAG(0x1, 0x00, "invalid STag"),
    BASE_OR_BOUNDS_VIOLATION(0x1, 0x01, "base or bounds violation"),
    ACCESS_RIGHTS_VIOLATION(0x1, 0x02, "access rights violation"),
    STAG_NOT_ASSOCIATED(0x1, 0x03, "STag not associated with RDMAP stream"),
    TO_WRAP(0x1, 0x04, "TO wrap"),
    PROTECTION_STAG_CANNOT_BE_INVALIDATED(0x1, 0x09, "STag cannot be invalidated"),
    PROTECTION_UNSPECIFIED(0x1, 0xFF, "unspecified protection error"),

    /** Error type 2: remote operation error. */
    INVALID_RDMAP_VERSION(0x2, 0x05, "invalid RDMAP version"),
    UNEXPECTED_OPCODE(0x2, 0x06, "unexpected opcode"),
    CATASTROPHIC_STREAM(0x2, 0x07, "catastrophic error, localized to RDMAP stream"),
    CATASTROPHIC_GLOBAL(0x2, 0x08, "catastrophic error, global"),
    OPERATION_STAG_CANNOT_BE_INVALIDATED(0x2, 0x09, "STag cannot be invalidated"),
    OPERATION_UNSPECIFIED(0x2, 0xFF, "unspecified remote operation error");

    public static final int TYPE_LOCAL_CATASTROPHIC = 0x0;
    public static final int TYPE_REMOTE_PROTECTION = 0x1;
    public static final int TYPE_REMOTE_OPERATION = 0x2;

    private final Code code;

    RdmapError(int errorType, int errorCode, String description) {
        this.code = new Code(errorType, errorCode, description);
    }

    @Override
    public int layer() {
        return LAYER_RDMAP;
    }

    @Override
    public Code code() {
        return code;
    }

    static RdmapError of(int errorType, int errorCode) {
        return TerminateError.find(values(), errorType, errorCode, TYPE_LOCAL_CATASTROPHIC, LOCAL_CATASTROPHIC);
    }
}

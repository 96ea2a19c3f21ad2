package org.jwarp.wire.rdmap;

/**
 * MPA errors as reported in a Terminate: layer 2 (LLP), error type 0 (RFC 5044 §8; RFC 6580 §3.1;
 * codes 5 to 7 added by RFC 6581 §8).
 */
public enum MpaError implements TerminateError {
    TCP_CONNECTION_CLOSED(0x01, "TCP connection closed, terminated or lost"),
    CRC_ERROR(0x02, "MPA CRC error"),
    MARKER_ERROR(0x03, "MPA marker and ULPDU length fields do not agree on the start of an FPDU"),
    INVALID_REQUEST_OR_REPLY(0x04, "invalid MPA request or reply frame"),
    LOCAL_CATASTROPHIC(0x05, "local catastrophic error"),
    INSUFFICIENT_IRD(0x06, "insufficient IRD resources"),
    NO_MATCHING_RTR(0x07, "no matching RTR option");

    public static final int TYPE_MPA = 0x0;

    private final Code code;

    MpaError(int errorCode, String description) {
        this.code = new Code(TYPE_MPA, errorCode, description);
    }

    @Override
    public int layer() {
        return LAYER_LLP;
    }

    @Override
    public Code code() {
        return code;
    }

    static MpaError of(int errorType, int errorCode) {
        return errorType != TYPE_MPA ? null : TerminateError.find(values(), errorType, errorCode, -1, null);
    }
}

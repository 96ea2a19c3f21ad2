package org.jwarp.wire.rdmap;

/**
 * An error that a Terminate message reports: the (layer, error type, error code) triple of the
 * Terminate Control field (RFC 5040 §4.8, Figure 9), as registered in RFC 6580 §3.
 *
 * <p>Three enums implement it, one per layer ({@link RdmapError}, {@link DdpError},
 * {@link MpaError}), so that a decoder can return "the Terminate to send" as a constant with no
 * allocation, and a received Terminate can be named by {@link #of(int, int, int)}.
 */
public sealed interface TerminateError permits RdmapError, DdpError, MpaError {

    /** Layer values of the Terminate Control field (RFC 5040 §4.8). */
    int LAYER_RDMAP = 0;
    int LAYER_DDP = 1;
    int LAYER_LLP = 2;

    /** The (error type, error code) pair of one error and its meaning, as the RFC words it. */
    record Code(int errorType, int errorCode, String description) {
    }

    int layer();

    /** This error's type, code and description. */
    Code code();

    default int errorType() {
        return code().errorType();
    }

    default int errorCode() {
        return code().errorCode();
    }

    /** Human-readable meaning, as the RFC words it. */
    default String description() {
        return code().description();
    }

    /**
     * RFC 5040 §4.8, Figure 10: which headers a Terminate for this error carries. DDP errors and
     * RDMAP remote-operation errors carry the DDP header (and its segment length); RDMAP
     * remote-protection errors also carry the RDMA header when the message had one (Read Request,
     * Send with Invalidate). Local catastrophic and LLP errors carry none.
     */
    default boolean includesDdpHeader() {
        return switch (layer()) {
            case LAYER_DDP -> errorType() != DdpError.TYPE_LOCAL_CATASTROPHIC;
            case LAYER_RDMAP -> errorType() != RdmapError.TYPE_LOCAL_CATASTROPHIC;
            default -> false;
        };
    }

    /** True for RDMAP remote-protection errors, whose Terminate includes the RDMA header (RFC 5040 §4.8). */
    default boolean includesRdmaHeader() {
        return layer() == LAYER_RDMAP && errorType() == RdmapError.TYPE_REMOTE_PROTECTION;
    }

    /** The upper 16 bits of the Terminate Control word: layer(4) | type(4) | code(8). */
    default int controlBits() {
        return (layer() & 0xF) << 28 | (errorType() & 0xF) << 24 | (errorCode() & 0xFF) << 16;
    }

    /**
     * The named error for a received (layer, type, code), or {@code null} if the triple is not one
     * the RFCs define (the caller reports it raw). Local-catastrophic codes are vendor-specific
     * (RFC 5040 §4.8), so any code of that type maps to the local-catastrophic constant.
     */
    /** The error of {@code values} with this type and code, or null; any code of {@code catastrophicType} is {@code catastrophic}. */
    static <E extends TerminateError> E find(E[] values, int errorType, int errorCode, int catastrophicType,
                                             E catastrophic) {
        if (errorType == catastrophicType && catastrophic != null) {
            return catastrophic;
        }
        for (E e : values) {
            if (e.errorType() == errorType && e.errorCode() == errorCode) {
                return e;
            }
        }
        return null;
    }

    static TerminateError of(int layer, int errorType, int errorCode) {
        return switch (layer) {
            case LAYER_RDMAP -> RdmapError.of(errorType, errorCode);
            case LAYER_DDP -> DdpError.of(errorType, errorCode);
            case LAYER_LLP -> MpaError.of(errorType, errorCode);
            default -> null;
        };
    }
}

package org.jwarp.verbs;

/**
 * Result codes of {@link QueuePair#postSend} and {@link QueuePair#postRecv}: an {@code int} so that
 * the data path neither throws nor allocates.
 *
 * <p>{@link #OK} ({@code 0}) means every work request was accepted. A negative value means the
 * request at {@link #badIndex(int)} was rejected for reason {@link #code(int)}; as with OFED's
 * {@code bad_wr}, the requests before it were posted (and will complete), that one and those after
 * it were not. The encoding is {@code -(index << 8 | code)} with {@code code} in 1..255.
 *
 * <p>A rejected request produces no completion. Conditions found after the post returns (bad
 * lkey, remote errors, flushes) are reported as {@link WcStatus} values instead.
 */
public final class PostStatus {

    /** All work requests were posted. */
    public static final int OK = 0;
    /** The send or receive queue has no free slot ({@code maxSendWr} / {@code maxRecvWr} outstanding); OFED's ENOMEM. */
    public static final int QUEUE_FULL = 1;
    /** The queue pair's state does not accept this kind of post (see {@link QpState#acceptsSend()}); OFED's EINVAL. */
    public static final int INVALID_STATE = 2;
    /** More SGEs than the queue pair's {@code maxSendSge} / {@code maxRecvSge}. */
    public static final int TOO_MANY_SGE = 3;
    /** {@link SendFlags#INLINE} with more payload than the queue pair's {@code maxInlineData}. */
    public static final int INLINE_TOO_LONG = 4;
    /** An opcode this provider or connection does not carry (e.g. RFC 7306 atomics when disabled). */
    public static final int UNSUPPORTED_OPCODE = 5;
    /** A malformed request: no opcode, unknown flag bits, inline with a non-inline opcode, an atomic without exactly one 8-byte SGE, an unregistered SGE without INLINE. */
    public static final int INVALID_WR = 6;
    /** The queue pair has been destroyed. */
    public static final int QP_DESTROYED = 7;
    /** The device failed ({@link RdmaDevice#failure()}, OFED's fatal device event): nothing it holds will complete; close it. */
    public static final int DEVICE_FATAL = 8;

    private PostStatus() {
    }

    /**
     * Encodes a rejection of the request at {@code index} (0-based within the posted array) for {@code code}.
     *
     * @param code  the reason, 1..255
     * @param index the request's index, 0..0x7FFFFF
     * @return the status
     */
    public static int error(int code, int index) {
        if (code < 1 || code > 0xFF) {
            throw new IllegalArgumentException("post error code must be in 1..255: " + code);
        }
        if (index < 0 || index > 0x7F_FFFF) {
            throw new IllegalArgumentException("post error index must be in 0..0x7FFFFF: " + index);
        }
        return -(index << 8 | code);
    }

    /**
     * True for {@link #OK}.
     *
     * @param status a post's result
     * @return whether every request was posted
     */
    public static boolean isOk(int status) {
        return status == OK;
    }

    /**
     * The reason code of a failed post, or {@link #OK} if {@code status} is OK.
     *
     * @param status a post's result
     * @return the reason code
     */
    public static int code(int status) {
        return status >= 0 ? OK : (-status) & 0xFF;
    }

    /**
     * Index of the first request not posted, or -1 if {@code status} is OK.
     *
     * @param status a post's result
     * @return the index, or -1
     */
    public static int badIndex(int status) {
        return status >= 0 ? -1 : (-status) >>> 8;
    }

    /**
     * The number of requests that were posted, given the number offered.
     *
     * @param status  a post's result
     * @param offered the number of requests offered
     * @return the number posted
     */
    public static int postedCount(int status, int offered) {
        return status >= 0 ? offered : badIndex(status);
    }

    /**
     * Name of a reason code.
     *
     * @param code a reason code
     * @return its name
     */
    public static String codeName(int code) {
        return switch (code) {
            case OK -> "OK";
            case QUEUE_FULL -> "QUEUE_FULL";
            case INVALID_STATE -> "INVALID_STATE";
            case TOO_MANY_SGE -> "TOO_MANY_SGE";
            case INLINE_TOO_LONG -> "INLINE_TOO_LONG";
            case UNSUPPORTED_OPCODE -> "UNSUPPORTED_OPCODE";
            case INVALID_WR -> "INVALID_WR";
            case QP_DESTROYED -> "QP_DESTROYED";
            case DEVICE_FATAL -> "DEVICE_FATAL";
            default -> "code " + code;
        };
    }

    /**
     * Diagnostic text, e.g. {@code QUEUE_FULL at index 3}; allocates, not for the data path.
     *
     * @param status a post's result
     * @return the text
     */
    public static String toString(int status) {
        return status >= 0 ? "OK" : codeName(code(status)) + " at index " + badIndex(status);
    }
}

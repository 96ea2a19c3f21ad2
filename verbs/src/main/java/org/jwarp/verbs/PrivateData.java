package org.jwarp.verbs;

/**
 * Limits on MPA private data, the bytes an application exchanges in the MPA Request and Reply
 * (connect, accept, reject).
 *
 * <p>RFC 5044 §7.1.1 allows up to 512 bytes. In RFC 6581 enhanced mode (MPA revision 2) the first
 * 4 bytes of the private data field carry IRD/ORD, so the application gets 508. Linux siw and
 * Chelsio cxgb4 refuse frames whose private data exceeds 256 bytes (their {@code MPA_MAX_PRIVDATA}),
 * so keep to 252 (revision 2) or 256 (revision 1) when the peer may be one of them.
 */
public final class PrivateData {

    /** RFC 5044 §7.1.1: most private-data bytes in an MPA revision 1 frame. */
    public static final int MAX_V1 = 512;
    /** RFC 6581 §7: most application bytes in a revision 2 frame (512 minus the 4-byte IRD/ORD header). */
    public static final int MAX_V2 = 508;
    /** Most bytes siw and cxgb4 accept in a revision 1 frame. */
    public static final int SIW_MAX_V1 = 256;
    /** Most application bytes siw and cxgb4 accept in a revision 2 frame. */
    public static final int SIW_MAX_V2 = 252;

    private static final byte[] EMPTY = new byte[0];

    private PrivateData() {
    }

    /**
     * Most application private-data bytes for an MPA revision.
     *
     * @param mpaRevision 1 or 2
     * @return the limit
     * @throws IllegalArgumentException for another revision
     */
    public static int max(int mpaRevision) {
        return switch (mpaRevision) {
            case 1 -> MAX_V1;
            case 2 -> MAX_V2;
            default -> throw new IllegalArgumentException("MPA revision must be 1 or 2: " + mpaRevision);
        };
    }

    /**
     * A private copy of {@code data} ({@code null} becomes empty).
     *
     * @throws IllegalArgumentException if longer than {@link #MAX_V1}
     * @param data the private data, or {@code null}
     * @return the copy
     */
    public static byte[] copyOf(byte[] data) {
        if (data == null || data.length == 0) {
            return EMPTY;
        }
        if (data.length > MAX_V1) {
            throw new IllegalArgumentException("MPA private data is at most " + MAX_V1 + " bytes (RFC 5044 §7.1.1): "
                    + data.length);
        }
        return data.clone();
    }

    /**
     * Checks a length against the revision in use.
     *
     * @throws IllegalArgumentException if {@code length} exceeds {@link #max(int)}
     * @param length      the private data's length
     * @param mpaRevision 1 or 2
     */
    public static void checkLength(int length, int mpaRevision) {
        if (length > max(mpaRevision)) {
            throw new IllegalArgumentException("MPA revision " + mpaRevision + " carries at most " + max(mpaRevision)
                    + " bytes of private data" + (mpaRevision == 2 ? " (512 minus the 4-byte RFC 6581 header)" : "")
                    + ": " + length);
        }
    }
}

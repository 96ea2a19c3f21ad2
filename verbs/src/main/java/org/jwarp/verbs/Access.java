package org.jwarp.verbs;

/**
 * Memory-region access flags, as {@code int} bits with the values of libibverbs'
 * {@code enum ibv_access_flags}. Local read access is always granted.
 *
 * <p>OFED rule, enforced by {@link #validate(int)}: {@link #REMOTE_WRITE} and {@link #REMOTE_ATOMIC}
 * require {@link #LOCAL_WRITE}, because the RNIC writes into the region on the peer's behalf
 * (an atomic writes the result back).
 *
 * <p>Where the engine checks them: an RDMA Write or Read Response placed into a region needs
 * {@link #REMOTE_WRITE} (else DDP tagged "access rights violation"); an RDMA Read Request served
 * from a region needs {@link #REMOTE_READ} (else RDMAP remote protection "access rights
 * violation", RFC 5040 §5.2); an RFC 7306 Atomic Request needs {@link #REMOTE_ATOMIC}; a receive
 * buffer, the local sink of an RDMA Read and the result buffer of an atomic need
 * {@link #LOCAL_WRITE} (else {@link WcStatus#LOC_PROT_ERR}).
 */
public final class Access {

    /** The RNIC may write into the region for local operations (receive buffers, Read sinks). */
    public static final int LOCAL_WRITE = 1;
    /** A peer may RDMA Write into the region. Requires {@link #LOCAL_WRITE}. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** A peer may RDMA Read from the region. */
    public static final int REMOTE_READ = 1 << 2;
    /** A peer may perform RFC 7306 atomics on the region. Requires {@link #LOCAL_WRITE}. */
    public static final int REMOTE_ATOMIC = 1 << 3;

    /** All flags defined here. */
    public static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;

    private Access() {
    }

    /**
     * True if {@code flags} contains every bit of {@code required}.
     *
     * @param flags    access flags
     * @param required the bits asked for
     * @return whether {@code flags} contains every bit of {@code required}
     */
    public static boolean has(int flags, int required) {
        return (flags & required) == required;
    }

    /**
     * True if {@code flags} uses only defined bits and respects the LOCAL_WRITE rule.
     *
     * @param flags access flags
     * @return whether they use only defined bits and respect the LOCAL_WRITE rule
     */
    public static boolean isValid(int flags) {
        return reasonInvalid(flags) == null;
    }

    /**
     * Returns {@code flags} if valid.
     *
     * @throws IllegalArgumentException naming the broken rule
     * @param flags access flags
     * @return {@code flags}
     */
    public static int validate(int flags) {
        String reason = reasonInvalid(flags);
        if (reason != null) {
            throw new IllegalArgumentException(reason);
        }
        return flags;
    }

    private static String reasonInvalid(int flags) {
        if ((flags & ~ALL) != 0) {
            return String.format("unknown access bits 0x%x (defined: 0x%x)", flags & ~ALL, ALL);
        }
        if ((flags & (REMOTE_WRITE | REMOTE_ATOMIC)) != 0 && (flags & LOCAL_WRITE) == 0) {
            return "access " + toString(flags) + ": REMOTE_WRITE and REMOTE_ATOMIC require LOCAL_WRITE (OFED rule)";
        }
        return null;
    }

    /**
     * Names of the bits, e.g. {@code LOCAL_WRITE|REMOTE_READ}; {@code LOCAL_READ_ONLY} for 0.
     *
     * @param flags access flags
     * @return the names
     */
    public static String toString(int flags) {
        if (flags == 0) {
            return "LOCAL_READ_ONLY";
        }
        StringBuilder sb = new StringBuilder();
        append(sb, flags, LOCAL_WRITE, "LOCAL_WRITE");
        append(sb, flags, REMOTE_WRITE, "REMOTE_WRITE");
        append(sb, flags, REMOTE_READ, "REMOTE_READ");
        append(sb, flags, REMOTE_ATOMIC, "REMOTE_ATOMIC");
        if ((flags & ~ALL) != 0) {
            append(sb, flags, flags & ~ALL, String.format("0x%x", flags & ~ALL));
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, int flags, int bit, String name) {
        if ((flags & bit) != 0) {
            if (!sb.isEmpty()) {
                sb.append('|');
            }
            sb.append(name);
        }
    }
}

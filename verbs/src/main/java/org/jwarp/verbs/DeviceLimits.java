package org.jwarp.verbs;

/**
 * Resource limits of a device ({@code ibv_device_attr}'s role). Creating a resource beyond them
 * fails with {@link IllegalArgumentException} at setup, never on the data path.
 *
 * @param maxQps       queue pairs per device
 * @param maxMrs       registered memory regions per device (STag indexes; at most {@link Stag#MAX_INDEX})
 * @param maxMrSize    bytes per memory region
 * @param maxQpWr      send or receive queue depth per queue pair
 * @param maxSge       SGEs per work request
 * @param maxInline    inline payload bytes per send work request
 * @param maxCqDepth   entries per completion queue
 * @param maxOrd       outbound RDMA Read / atomic depth per queue pair (RFC 5040 §5.5); below 0x3FFF,
 *                     which RFC 6581 reserves for "no negotiation"
 * @param maxIrd       inbound RDMA Read / atomic depth per queue pair; below 0x3FFF
 */
public record DeviceLimits(int maxQps, int maxMrs, long maxMrSize, int maxQpWr, int maxSge, int maxInline,
                           int maxCqDepth, int maxOrd, int maxIrd) {

    /** RFC 6581 §9.1: the IRD/ORD value meaning "no automatic negotiation". */
    public static final int ORD_IRD_NO_NEGOTIATION = 0x3FFF;

    /**
     * Defaults: 1024 QPs, 65536 MRs of up to 1 TiB, queues of 16384 WRs, 16 SGEs, 256 inline bytes
     * (the cache-line-sized messages where seed 003 measured inline to pay off), CQs of 65536, and
     * ORD/IRD 128 (siw's {@code SIW_MAX_ORD_QP}/{@code SIW_MAX_IRD_QP}).
     */
    public static final DeviceLimits DEFAULT = new DeviceLimits(1024, 65536, 1L << 40, 16384, 16, 256, 65536, 128, 128);

    /**
     * Validates the limits.
     *
     * @throws IllegalArgumentException if a limit is not positive, or above its STag, SGE or ORD/IRD bound
     */
    public DeviceLimits {
        positive("maxQps", maxQps);
        positive("maxMrs", maxMrs);
        if (maxMrs > Stag.MAX_INDEX) {
            throw new IllegalArgumentException("maxMrs must be <= 0xFFFFFF (24-bit STag index): " + maxMrs);
        }
        if (maxMrSize <= 0) {
            throw new IllegalArgumentException("maxMrSize must be > 0: " + maxMrSize);
        }
        positive("maxQpWr", maxQpWr);
        positive("maxSge", maxSge);
        if (maxSge > 0xFFFF) {
            throw new IllegalArgumentException("maxSge must be <= 65535: " + maxSge);
        }
        if (maxInline < 0) {
            throw new IllegalArgumentException("maxInline must be >= 0: " + maxInline);
        }
        positive("maxCqDepth", maxCqDepth);
        ordIrd("maxOrd", maxOrd);
        ordIrd("maxIrd", maxIrd);
    }

    private static void positive(String name, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(name + " must be > 0: " + v);
        }
    }

    private static void ordIrd(String name, int v) {
        if (v < 0 || v >= ORD_IRD_NO_NEGOTIATION) {
            throw new IllegalArgumentException(name + " must be in 0..0x3FFE (0x3FFF means 'no negotiation', RFC 6581 §9.1): " + v);
        }
    }

    /**
     * These limits with another {@link #maxQps()}.
     *
     * @param v queue pairs per device
     * @return the new limits
     */
    public DeviceLimits withMaxQps(int v) {
        return new DeviceLimits(v, maxMrs, maxMrSize, maxQpWr, maxSge, maxInline, maxCqDepth, maxOrd, maxIrd);
    }

    /**
     * These limits with another {@link #maxMrs()}.
     *
     * @param v registered memory regions per device
     * @return the new limits
     */
    public DeviceLimits withMaxMrs(int v) {
        return new DeviceLimits(maxQps, v, maxMrSize, maxQpWr, maxSge, maxInline, maxCqDepth, maxOrd, maxIrd);
    }

    /**
     * These limits with another {@link #maxMrSize()}.
     *
     * @param v bytes per memory region
     * @return the new limits
     */
    public DeviceLimits withMaxMrSize(long v) {
        return new DeviceLimits(maxQps, maxMrs, v, maxQpWr, maxSge, maxInline, maxCqDepth, maxOrd, maxIrd);
    }

    /**
     * These limits with another {@link #maxQpWr()}.
     *
     * @param v send or receive queue depth per queue pair
     * @return the new limits
     */
    public DeviceLimits withMaxQpWr(int v) {
        return new DeviceLimits(maxQps, maxMrs, maxMrSize, v, maxSge, maxInline, maxCqDepth, maxOrd, maxIrd);
    }

    /**
     * These limits with another {@link #maxSge()}.
     *
     * @param v SGEs per work request
     * @return the new limits
     */
    public DeviceLimits withMaxSge(int v) {
        return new DeviceLimits(maxQps, maxMrs, maxMrSize, maxQpWr, v, maxInline, maxCqDepth, maxOrd, maxIrd);
    }

    /**
     * These limits with another {@link #maxInline()}.
     *
     * @param v inline payload bytes per send work request
     * @return the new limits
     */
    public DeviceLimits withMaxInline(int v) {
        return new DeviceLimits(maxQps, maxMrs, maxMrSize, maxQpWr, maxSge, v, maxCqDepth, maxOrd, maxIrd);
    }

    /**
     * These limits with another {@link #maxCqDepth()}.
     *
     * @param v entries per completion queue
     * @return the new limits
     */
    public DeviceLimits withMaxCqDepth(int v) {
        return new DeviceLimits(maxQps, maxMrs, maxMrSize, maxQpWr, maxSge, maxInline, v, maxOrd, maxIrd);
    }

    /**
     * These limits with another {@link #maxOrd()}.
     *
     * @param v outbound RDMA Read / atomic depth per queue pair
     * @return the new limits
     */
    public DeviceLimits withMaxOrd(int v) {
        return new DeviceLimits(maxQps, maxMrs, maxMrSize, maxQpWr, maxSge, maxInline, maxCqDepth, v, maxIrd);
    }

    /**
     * These limits with another {@link #maxIrd()}.
     *
     * @param v inbound RDMA Read / atomic depth per queue pair
     * @return the new limits
     */
    public DeviceLimits withMaxIrd(int v) {
        return new DeviceLimits(maxQps, maxMrs, maxMrSize, maxQpWr, maxSge, maxInline, maxCqDepth, maxOrd, v);
    }
}

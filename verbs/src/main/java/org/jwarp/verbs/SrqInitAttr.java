package org.jwarp.verbs;

/**
 * Creation attributes of a shared receive queue ({@code ibv_srq_init_attr}).
 *
 * @param maxWr  receives the queue can hold
 * @param maxSge SGEs per receive
 * @param limit  the limit armed at creation (0: none); see {@link SharedReceiveQueue#armLimit}
 */
public record SrqInitAttr(int maxWr, int maxSge, int limit) {

    /**
     * Validates the attributes that do not depend on a device.
     *
     * @throws IllegalArgumentException if {@code maxWr} or {@code maxSge} is below 1, or the limit is outside 0..maxWr
     */
    public SrqInitAttr {
        if (maxWr < 1 || maxSge < 1) {
            throw new IllegalArgumentException("maxWr and maxSge must be >= 1: " + maxWr + ", " + maxSge);
        }
        if (limit < 0 || limit > maxWr) {
            throw new IllegalArgumentException("limit must be 0 to maxWr (" + maxWr + "), not " + limit);
        }
    }

    /**
     * Checks these attributes against a device's limits.
     *
     * @throws IllegalArgumentException naming the attribute above its limit
     * @param limits the device's limits
     * @return these attributes
     */
    public SrqInitAttr checkAgainst(DeviceLimits limits) {
        if (maxWr > limits.maxQpWr()) {
            throw new IllegalArgumentException("maxWr " + maxWr + " exceeds the device's maxQpWr " + limits.maxQpWr());
        }
        if (maxSge > limits.maxSge()) {
            throw new IllegalArgumentException("maxSge " + maxSge + " exceeds the device's maxSge " + limits.maxSge());
        }
        return this;
    }
}

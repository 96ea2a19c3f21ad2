package org.jwarp.verbs;

/**
 * Creation attributes of an RC queue pair ({@code ibv_qp_init_attr}). Build with
 * {@link #builder(CompletionQueue, CompletionQueue)}; the provider checks the values against its
 * {@link DeviceLimits} when the queue pair is created.
 *
 * @param sendCq        CQ for send-queue completions
 * @param recvCq        CQ for receive-queue completions (may be the same as {@code sendCq})
 * @param maxSendWr     send queue depth: outstanding send work requests, including unsignaled ones
 *                      not yet covered by a later signaled completion
 * @param maxRecvWr     receive queue depth
 * @param maxSendSge    SGEs per send work request
 * @param maxRecvSge    SGEs per receive work request
 * @param maxInlineData inline payload bytes per send work request (0 = no inline)
 * @param signalAll     every send work request completes with a work completion, as if each had
 *                      {@link SendFlags#SIGNALED} ({@code sq_sig_all})
 * @param srq           the shared receive queue this queue pair's incoming messages consume, or null
 *                      for a receive queue of its own ({@code ibv_qp_init_attr.srq}); with one,
 *                      {@code maxRecvWr} and {@code maxRecvSge} are not used and
 *                      {@link QueuePair#postRecv} is refused
 */
public record QpInitAttr(CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr, int maxRecvWr,
                         int maxSendSge, int maxRecvSge, int maxInlineData, boolean signalAll,
                         SharedReceiveQueue srq) {

    /**
     * Attributes with a receive queue of the queue pair's own.
     *
     * @param sendCq        CQ for send-queue completions
     * @param recvCq        CQ for receive-queue completions
     * @param maxSendWr     send queue depth
     * @param maxRecvWr     receive queue depth
     * @param maxSendSge    SGEs per send work request
     * @param maxRecvSge    SGEs per receive work request
     * @param maxInlineData inline payload bytes per send work request
     * @param signalAll     whether every send work request completes with a work completion
     */
    public QpInitAttr(CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr, int maxRecvWr, int maxSendSge,
                      int maxRecvSge, int maxInlineData, boolean signalAll) {
        this(sendCq, recvCq, maxSendWr, maxRecvWr, maxSendSge, maxRecvSge, maxInlineData, signalAll, null);
    }

    /**
     * Validates the attributes that do not depend on a device.
     *
     * @throws IllegalArgumentException if a CQ is null or a depth, SGE count or inline size is out of range
     */
    public QpInitAttr {
        if (sendCq == null || recvCq == null) {
            throw new IllegalArgumentException("a queue pair needs a send CQ and a receive CQ");
        }
        if (maxSendWr < 1 || maxRecvWr < 1) {
            throw new IllegalArgumentException("maxSendWr and maxRecvWr must be >= 1: " + maxSendWr + ", " + maxRecvWr);
        }
        if (maxSendSge < 1 || maxRecvSge < 1) {
            throw new IllegalArgumentException("maxSendSge and maxRecvSge must be >= 1: " + maxSendSge + ", " + maxRecvSge);
        }
        if (maxInlineData < 0) {
            throw new IllegalArgumentException("maxInlineData must be >= 0: " + maxInlineData);
        }
    }

    /**
     * Checks these attributes against a device's limits (providers call this in {@code createQp}).
     *
     * @throws IllegalArgumentException naming the attribute above its limit
     * @param limits the device's limits
     * @return these attributes
     */
    public QpInitAttr checkAgainst(DeviceLimits limits) {
        above("maxSendWr", maxSendWr, "maxQpWr", limits.maxQpWr());
        above("maxRecvWr", maxRecvWr, "maxQpWr", limits.maxQpWr());
        above("maxSendSge", maxSendSge, "maxSge", limits.maxSge());
        above("maxRecvSge", maxRecvSge, "maxSge", limits.maxSge());
        above("maxInlineData", maxInlineData, "maxInline", limits.maxInline());
        return this;
    }

    private static void above(String name, int value, String limitName, int limit) {
        if (value > limit) {
            throw new IllegalArgumentException(name + " " + value + " exceeds the device's " + limitName + " " + limit);
        }
    }

    /**
     * Defaults: 128 send and receive WRs, 4 SGEs each, 64 inline bytes, selective signaling.
     *
     * @param sendCq CQ for send-queue completions
     * @param recvCq CQ for receive-queue completions (may be the same)
     * @return the builder
     */
    public static Builder builder(CompletionQueue sendCq, CompletionQueue recvCq) {
        return new Builder(sendCq, recvCq);
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private final CompletionQueue sendCq;
        private final CompletionQueue recvCq;
        private int maxSendWr = 128;
        private int maxRecvWr = 128;
        private int maxSendSge = 4;
        private int maxRecvSge = 4;
        private int maxInlineData = 64;
        private boolean signalAll;
        private SharedReceiveQueue srq;

        private Builder(CompletionQueue sendCq, CompletionQueue recvCq) {
            this.sendCq = sendCq;
            this.recvCq = recvCq;
        }

        /**
         * Sets the send queue depth.
         * @param v outstanding send work requests
         * @return this builder
         */
        public Builder maxSendWr(int v) {
            maxSendWr = v;
            return this;
        }

        /**
         * Sets the receive queue depth.
         * @param v outstanding receive work requests
         * @return this builder
         */
        public Builder maxRecvWr(int v) {
            maxRecvWr = v;
            return this;
        }

        /**
         * Sets the SGEs per send work request.
         * @param v the SGE count
         * @return this builder
         */
        public Builder maxSendSge(int v) {
            maxSendSge = v;
            return this;
        }

        /**
         * Sets the SGEs per receive work request.
         * @param v the SGE count
         * @return this builder
         */
        public Builder maxRecvSge(int v) {
            maxRecvSge = v;
            return this;
        }

        /**
         * Sets the inline payload bytes per send work request.
         * @param v bytes, 0 for no inline
         * @return this builder
         */
        public Builder maxInlineData(int v) {
            maxInlineData = v;
            return this;
        }

        /**
         * Sets whether every send work request completes with a work completion ({@code sq_sig_all}).
         * @param v true: every request is signaled
         * @return this builder
         */
        public Builder signalAll(boolean v) {
            signalAll = v;
            return this;
        }

        /**
         * Incoming messages consume receives from {@code srq} (null: the queue pair's own receive queue).
         *
         * @param srq the shared receive queue, or {@code null}
         * @return this builder
         */
        public Builder srq(SharedReceiveQueue srq) {
            this.srq = srq;
            return this;
        }

        /** {@return the attributes} */
        public QpInitAttr build() {
            return new QpInitAttr(sendCq, recvCq, maxSendWr, maxRecvWr, maxSendSge, maxRecvSge, maxInlineData,
                    signalAll, srq);
        }
    }
}

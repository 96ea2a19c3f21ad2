package org.jwarp.verbs;

import java.time.Duration;

/**
 * Parameters of {@link ConnectionManager#connect} ({@code rdma_conn_param} for the active side).
 *
 * @param privateData sent in the MPA Request (copied; at most {@link PrivateData#max(int)} bytes for
 *                    the device's MPA revision, 252 if the peer may be siw)
 * @param timeout     for the whole setup: TCP connect, MPA Request/Reply and, in peer-to-peer mode,
 *                    sending the RTR; at its end the attempt fails with
 *                    {@link CmEvent.ConnectError.Kind#TIMEOUT}. Also bounded by the device's
 *                    {@link MpaTimeouts#awaitReply()} for the Reply.
 * @param ord         outbound RDMA Read depth we ask for ({@code initiator_depth}); at most the
 *                    device's {@link DeviceLimits#maxOrd()}; the negotiated value may be lower
 * @param ird         inbound RDMA Read depth we offer ({@code responder_resources}); at most
 *                    {@link DeviceLimits#maxIrd()}
 */
public record ConnectParams(byte[] privateData, Duration timeout, int ord, int ird) {

    /** Default ORD and IRD: 16 each. */
    public static final int DEFAULT_DEPTH = 16;
    /** Default timeout: 15 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

    /**
     * Keeps a copy of the private data and checks the timeout and depths.
     *
     * @throws IllegalArgumentException if the private data is longer than {@link PrivateData#MAX_V1}, the
     *                                  timeout is not positive, or a depth is outside 0..0x3FFE
     */
    public ConnectParams {
        privateData = PrivateData.copyOf(privateData);
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("connect timeout must be > 0: " + timeout);
        }
        AcceptParams.checkDepth("ord", ord);
        AcceptParams.checkDepth("ird", ird);
    }

    /**
     * Private data with the default timeout and depths.
     *
     * @param privateData the Request's private data, or {@code null}
     * @return the parameters
     */
    public static ConnectParams of(byte[] privateData) {
        return new ConnectParams(privateData, DEFAULT_TIMEOUT, DEFAULT_DEPTH, DEFAULT_DEPTH);
    }

    /** {@return a copy of the private data} */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /** {@return the length of the private data, without copying it} */
    public int privateDataLength() {
        return privateData.length;
    }

    /** Equal if every component is, comparing the private data by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ConnectParams p && java.util.Arrays.equals(privateData, p.privateData)
                && timeout.equals(p.timeout) && ord == p.ord && ird == p.ird;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(java.util.Arrays.hashCode(privateData), timeout, ord, ird);
    }

    @Override
    public String toString() {
        return "ConnectParams[privateData=" + privateData.length + " bytes, timeout=" + timeout + ", ord=" + ord
                + ", ird=" + ird + "]";
    }

    /**
     * These parameters with another setup timeout.
     *
     * @param t the timeout, positive
     * @return the new parameters
     */
    public ConnectParams withTimeout(Duration t) {
        return new ConnectParams(privateData, t, ord, ird);
    }

    /**
     * These parameters with other RDMA Read depths.
     *
     * @param newOrd the outbound depth asked for
     * @param newIrd the inbound depth offered
     * @return the new parameters
     */
    public ConnectParams withDepths(int newOrd, int newIrd) {
        return new ConnectParams(privateData, timeout, newOrd, newIrd);
    }
}

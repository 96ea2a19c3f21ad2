package org.jwarp.verbs;

/**
 * Parameters of {@link ConnectionRequest#accept} ({@code rdma_conn_param} for the passive side).
 *
 * @param privateData sent in the MPA Reply (copied; limits as in {@link PrivateData})
 * @param ord         our outbound RDMA Read depth; the provider lowers it to the initiator's IRD
 *                    (RFC 6581 §9.1: responder ORD ≤ initiator IRD)
 * @param ird         our inbound RDMA Read depth; the provider raises it to the initiator's ORD if it
 *                    can (up to {@link DeviceLimits#maxIrd()}), else rejects with MPA error 0x06
 *                    "insufficient IRD resources" (RFC 6581 §8)
 */
public record AcceptParams(byte[] privateData, int ord, int ird) {

    /**
     * Keeps a copy of the private data and checks the depths.
     *
     * @throws IllegalArgumentException if the private data is longer than {@link PrivateData#MAX_V1}, or a
     *                                  depth is outside 0..0x3FFE
     */
    public AcceptParams {
        privateData = PrivateData.copyOf(privateData);
        checkDepth("ord", ord);
        checkDepth("ird", ird);
    }

    /**
     * Private data with ORD and IRD {@link ConnectParams#DEFAULT_DEPTH}.
     *
     * @param privateData the Reply's private data, or {@code null}
     * @return the parameters
     */
    public static AcceptParams of(byte[] privateData) {
        return new AcceptParams(privateData, ConnectParams.DEFAULT_DEPTH, ConnectParams.DEFAULT_DEPTH);
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
        return o instanceof AcceptParams p && java.util.Arrays.equals(privateData, p.privateData) && ord == p.ord
                && ird == p.ird;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(java.util.Arrays.hashCode(privateData), ord, ird);
    }

    @Override
    public String toString() {
        return "AcceptParams[privateData=" + privateData.length + " bytes, ord=" + ord + ", ird=" + ird + "]";
    }

    static void checkDepth(String name, int v) {
        if (v < 0 || v >= DeviceLimits.ORD_IRD_NO_NEGOTIATION) {
            throw new IllegalArgumentException(name + " must be in 0..0x3FFE: " + v);
        }
    }
}

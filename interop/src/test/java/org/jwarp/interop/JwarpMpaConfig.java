package org.jwarp.interop;

import java.util.List;

/**
 * A jwarp-side MPA configuration of the matrix, as {@code jwarp rping} options (they become the
 * device's {@code DeviceConfig}: mpaRevision, peerToPeer, rtrKinds, CRC policy).
 *
 * @param name short column name
 * @param args the options
 */
record JwarpMpaConfig(String name, List<String> args) {

    static JwarpMpaConfig of(String name, String... args) {
        return new JwarpMpaConfig(name, List.of(args));
    }

    /** MPA v2 with the enhanced RTR exchange (peer-to-peer, Write or Read RTR), CRC asked for. */
    static final JwarpMpaConfig V2_RTR_CRC = of("v2+rtr crc", "--mpa-rev", "2", "--p2p", "--crc", "preferred");
    static final JwarpMpaConfig V2_RTR_NOCRC = of("v2+rtr nocrc", "--mpa-rev", "2", "--p2p", "--crc", "off");
    /** MPA v2 client/server (IRD/ORD header, no RTR). */
    static final JwarpMpaConfig V2_CRC = of("v2 crc", "--mpa-rev", "2", "--no-p2p", "--crc", "preferred");
    static final JwarpMpaConfig V2_NOCRC = of("v2 nocrc", "--mpa-rev", "2", "--no-p2p", "--crc", "off");
    /** MPA v1 (RFC 5044, no IRD/ORD negotiation). */
    static final JwarpMpaConfig V1_CRC = of("v1 crc", "--mpa-rev", "1", "--crc", "preferred");
    static final JwarpMpaConfig V1_NOCRC = of("v1 nocrc", "--mpa-rev", "1", "--crc", "off");

    /** Asks siw for markers (M=1), which it cannot send. */
    static final JwarpMpaConfig MARKERS = of("markers", "--markers");
    /** As responder, accepts only a Read RTR: siw then sends a zero-length Read (sink STag 0 / TO 0). */
    static final JwarpMpaConfig RTR_READ = of("rtr=read", "--rtr", "read");
    /** As responder, accepts only a Send RTR, which siw cannot send. */
    static final JwarpMpaConfig RTR_SEND = of("rtr=send", "--rtr", "send");

    /**
     * Not jwarp's rping but {@code org.jwarp.disni.rping.DisniRping}: rping written against DiSNI's
     * API, on jwarp-disni with the device's defaults.
     */
    static final JwarpMpaConfig DISNI = of("disni rping");

    /** True for {@link #DISNI}. */
    boolean disni() {
        return equals(DISNI);
    }

    /** As initiator every knob counts. */
    static final List<JwarpMpaConfig> CLIENT = List.of(V2_RTR_CRC, V2_RTR_NOCRC, V2_CRC, V2_NOCRC, V1_CRC, V1_NOCRC);
    /**
     * As responder jwarp follows the Request (revision, enhanced or not, the RTR siw offers); what
     * it decides itself is CRC (C=1 or C=0 in the Reply).
     */
    static final List<JwarpMpaConfig> SERVER = List.of(V2_RTR_CRC, V2_RTR_NOCRC);
}

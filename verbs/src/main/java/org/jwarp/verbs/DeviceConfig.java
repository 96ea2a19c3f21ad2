package org.jwarp.verbs;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.jwarp.verbs.spi.ProviderConfig;
import org.jwarp.verbs.spi.RdmaProvider;

/**
 * What a device is opened with, in terms every RDMA provider accepts: which provider, MPA
 * negotiation, setup timeouts, resource limits, RFC 7306 and the peer timeout; passed to
 * {@link RdmaDevice#open(DeviceConfig)}. A provider's own settings (the jwarp engine's threads, how
 * they idle, its socket I/O layer, CPU pinning, RSS) travel in one slot beside them,
 * {@link #providerConfig()}, as the provider's own {@link ProviderConfig}. OFED has no counterpart:
 * there a driver's settings are module parameters. Immutable; build it with {@link #builder()}, or
 * take {@link #defaults()}.
 *
 * <h2>Defaults and why</h2>
 * <ul>
 *   <li><b>MPA</b>: revision 2 (RFC 6581) with peer-to-peer mode and an RTR (Write or Read, as cxgb4,
 *       irdma and siw can answer), CRC {@link CrcPolicy#PREFERRED} (we send C=1, RFC 5044 §4.4's
 *       "use CRC" default), markers {@link MarkerPolicy#NEVER_REQUEST} (siw rejects M=1; we still
 *       generate markers for a peer that asks, as RFC 5044 §4.3 requires).</li>
 *   <li><b>RFC 7306</b> immediate data and atomics enabled: they are posted only when the application
 *       asks for them, and siw does not know them (see {@link WrOpcode}).</li>
 *   <li><b>Provider configuration</b>: none, so the provider uses its own defaults.</li>
 * </ul>
 *
 * @param providerName   the {@link RdmaProvider#name()} to open; {@code null} for the one
 *                       {@code providerConfig} is for, else the jwarp engine if it is on the class path, else the first provider there
 * @param crcPolicy      MPA CRC negotiation (RFC 5044 §4.4, §7.1.1)
 * @param markerPolicy   MPA marker negotiation (RFC 5044 §4.2, §4.3)
 * @param mpaRevision    1 (RFC 5044) or 2 (RFC 6581 enhanced setup, IRD/ORD negotiation, RTR)
 * @param peerToPeer     RFC 6581 peer-to-peer mode (A bit): the initiator sends an RTR; revision 2 only
 * @param rtrKinds       RTR messages we offer as initiator and accept as responder; non-empty with peerToPeer
 * @param mpaTimeouts    MPA setup timers
 * @param limits         resource limits
 * @param rfc7306        whether RDMA_WRITE_WITH_IMM and the atomics may be posted
 * @param peerTimeout    how long a connection's peer may stay silent while data waits for its
 *                       acknowledgement, or while the connection is idle, before the connection is
 *                       lost (a peer whose host died sends no FIN or RST); {@link Duration#ZERO}
 *                       leaves it to TCP's retransmission limit
 * @param providerConfig the provider's own settings, or {@code null} for its defaults; it must be
 *                       for the provider {@code providerName} names
 */
public record DeviceConfig(String providerName, CrcPolicy crcPolicy, MarkerPolicy markerPolicy, int mpaRevision,
                           boolean peerToPeer, Set<RtrKind> rtrKinds, MpaTimeouts mpaTimeouts, DeviceLimits limits,
                           boolean rfc7306, Duration peerTimeout, ProviderConfig providerConfig) {

    /** The default {@link #peerTimeout()}: a vanished peer is noticed within a minute. */
    public static final Duration DEFAULT_PEER_TIMEOUT = Duration.ofSeconds(60);

    /**
     * MPA CRC negotiation. On the wire, CRC is on for a connection if either MPA frame has C=1
     * (RFC 5044 §7.1.1), so a peer can always turn it on.
     */
    public enum CrcPolicy {
        /** Send C=1, and refuse a peer whose frame has C=0 (initiator: abort; responder: reject). */
        REQUIRED,
        /** Send C=1 (so CRC is on), accept any peer: RFC 5044 §4.4's default. */
        PREFERRED,
        /** Send C=0; CRC is still on when the peer sets C=1. Only where something else guarantees integrity. */
        OFF
    }

    /** MPA marker negotiation; the M bit asks the peer to put markers in what it sends us. */
    public enum MarkerPolicy {
        /** Send M=0. Markers are still generated towards a peer that sends M=1 (RFC 5044 §4.3). */
        NEVER_REQUEST,
        /** Send M=1: receive with markers. siw rejects such a connection. */
        REQUEST
    }

    /** RFC 6581 §9.2 RTR message kinds. */
    public enum RtrKind {
        /** Zero-length Send (B bit): consumes a receive buffer at the responder. */
        SEND,
        /** Zero-length RDMA Write (C bit): siw's choice. */
        WRITE,
        /** Zero-length RDMA Read (D bit): cxgb4's only option; needs ORD/IRD of at least 1. */
        READ
    }

    /**
     * Validates the settings; with no {@code providerName}, the provider is the one
     * {@code providerConfig} is for.
     *
     * @throws IllegalArgumentException naming the first invalid setting
     */
    public DeviceConfig {
        if (providerName != null && providerName.isBlank()) {
            throw new IllegalArgumentException("providerName must be null (any provider) or non-blank");
        }
        if (providerConfig != null) {
            String owner = providerConfig.providerName();
            if (providerName == null) {
                providerName = owner;
            } else if (!providerName.equals(owner)) {
                throw new IllegalArgumentException("the provider configuration is for provider '" + owner
                        + "', but the device names provider '" + providerName + "'");
            }
        }
        requireNonNull("crcPolicy", crcPolicy);
        requireNonNull("markerPolicy", markerPolicy);
        requireNonNull("mpaTimeouts", mpaTimeouts);
        requireNonNull("limits", limits);
        requireNonNull("rtrKinds", rtrKinds);
        requireNonNull("peerTimeout", peerTimeout);
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new IllegalArgumentException("mpaRevision must be 1 (RFC 5044) or 2 (RFC 6581): " + mpaRevision);
        }
        if (peerToPeer && mpaRevision != 2) {
            throw new IllegalArgumentException("peer-to-peer mode and the RTR message need MPA revision 2 (RFC 6581)");
        }
        if (peerToPeer && rtrKinds.isEmpty()) {
            throw new IllegalArgumentException("peer-to-peer mode needs at least one RTR kind (RFC 6581 §9.2)");
        }
        if (peerTimeout.isNegative() || (!peerTimeout.isZero() && peerTimeout.toMillis() < 3000)) {
            throw new IllegalArgumentException("peerTimeout must be 0 (off) or at least 3 s: " + peerTimeout);
        }
        rtrKinds = rtrKinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(rtrKinds));
    }

    private static void requireNonNull(String name, Object v) {
        if (v == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }

    /** {@return the defaults ({@code builder().build()})} */
    public static DeviceConfig defaults() {
        return builder().build();
    }

    /** {@return a builder with the defaults of the class comment} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder starting from this configuration} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.providerName = providerName;
        b.crcPolicy = crcPolicy;
        b.markerPolicy = markerPolicy;
        b.mpaRevision = mpaRevision;
        b.peerToPeer = peerToPeer;
        b.rtrKinds = rtrKinds;
        b.mpaTimeouts = mpaTimeouts;
        b.limits = limits;
        b.rfc7306 = rfc7306;
        b.peerTimeout = peerTimeout;
        b.providerConfig = providerConfig;
        return b;
    }

    /** Builder with the defaults of the class comment. Not thread-safe. */
    public static final class Builder {
        private String providerName;
        private CrcPolicy crcPolicy = CrcPolicy.PREFERRED;
        private MarkerPolicy markerPolicy = MarkerPolicy.NEVER_REQUEST;
        private int mpaRevision = 2;
        private boolean peerToPeer = true;
        private Set<RtrKind> rtrKinds = EnumSet.of(RtrKind.WRITE, RtrKind.READ);
        private MpaTimeouts mpaTimeouts = MpaTimeouts.DEFAULT;
        private DeviceLimits limits = DeviceLimits.DEFAULT;
        private boolean rfc7306 = true;
        private Duration peerTimeout = DEFAULT_PEER_TIMEOUT;
        private ProviderConfig providerConfig;

        private Builder() {
        }

        /**
         * Sets {@link DeviceConfig#providerName()}.
         * @param providerName the provider to open, or {@code null} for the one the provider
         *                     configuration is for, else the only (or first) one
         * @return this builder
         */
        public Builder providerName(String providerName) {
            this.providerName = providerName;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#providerConfig()}: the provider's own settings.
         * @param providerConfig the provider's configuration, or {@code null} for its defaults
         * @return this builder
         */
        public Builder provider(ProviderConfig providerConfig) {
            this.providerConfig = providerConfig;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#crcPolicy()}.
         * @param crcPolicy the MPA CRC negotiation
         * @return this builder
         */
        public Builder crcPolicy(CrcPolicy crcPolicy) {
            this.crcPolicy = crcPolicy;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#markerPolicy()}.
         * @param markerPolicy the MPA marker negotiation
         * @return this builder
         */
        public Builder markerPolicy(MarkerPolicy markerPolicy) {
            this.markerPolicy = markerPolicy;
            return this;
        }

        /**
         * MPA revision 1 or 2; revision 1 also turns peer-to-peer mode off.
         *
         * @param mpaRevision 1 or 2
         * @return this builder
         */
        public Builder mpaRevision(int mpaRevision) {
            this.mpaRevision = mpaRevision;
            if (mpaRevision == 1) {
                this.peerToPeer = false;
            }
            return this;
        }

        /**
         * Sets {@link DeviceConfig#peerToPeer()}.
         * @param peerToPeer whether to use RFC 6581 peer-to-peer mode
         * @return this builder
         */
        public Builder peerToPeer(boolean peerToPeer) {
            this.peerToPeer = peerToPeer;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#rtrKinds()}.
         * @param rtrKinds the RTR messages offered and accepted
         * @return this builder
         */
        public Builder rtrKinds(Set<RtrKind> rtrKinds) {
            this.rtrKinds = rtrKinds;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#mpaTimeouts()}.
         * @param mpaTimeouts the MPA setup timers
         * @return this builder
         */
        public Builder mpaTimeouts(MpaTimeouts mpaTimeouts) {
            this.mpaTimeouts = mpaTimeouts;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#limits()}.
         * @param limits the resource limits
         * @return this builder
         */
        public Builder limits(DeviceLimits limits) {
            this.limits = limits;
            return this;
        }

        /**
         * Sets {@link DeviceConfig#rfc7306()}.
         * @param rfc7306 whether immediate data and atomics may be posted
         * @return this builder
         */
        public Builder rfc7306(boolean rfc7306) {
            this.rfc7306 = rfc7306;
            return this;
        }

        /**
         * How long a peer may stay silent before its connection is lost
         * ({@link DeviceConfig#peerTimeout()}): at least 3 s, or {@link Duration#ZERO} for TCP's own limit.
         *
         * @param peerTimeout the bound (default {@link DeviceConfig#DEFAULT_PEER_TIMEOUT})
         * @return this builder
         */
        public Builder peerTimeout(Duration peerTimeout) {
            this.peerTimeout = peerTimeout;
            return this;
        }

        /**
         * Validates.
         *
         * @throws IllegalArgumentException naming the first invalid setting
         * @return the configuration
         */
        public DeviceConfig build() {
            return new DeviceConfig(providerName, crcPolicy, markerPolicy, mpaRevision, peerToPeer, rtrKinds,
                    mpaTimeouts, limits, rfc7306, peerTimeout, providerConfig);
        }
    }
}

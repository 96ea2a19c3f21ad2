package org.jwarp.ibverbs;

import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.spi.RdmaProvider;

/**
 * The {@code ibverbs} provider: the verbs API over the kernel's RDMA stack (a real RNIC, siw, rxe)
 * through libibverbs, called with the FFM API. Nothing is loaded until {@link #open}: on a host
 * without libibverbs or without an RDMA device, {@code open} refuses in one line and no other
 * provider is affected.
 *
 * <p>The device is the one {@link IbverbsConfig#deviceName()} names in the configuration's
 * {@link DeviceConfig#providerConfig()}, or the first libibverbs lists.
 */
public final class IbverbsProvider implements RdmaProvider {

    /** This provider's {@link DeviceConfig#providerName()}. */
    public static final String NAME = "ibverbs";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public RdmaDevice open(DeviceConfig config) {
        return IbvDevice.open(config, of(config).deviceName());
    }

    /**
     * {@return the ibverbs settings in {@code config}, or the defaults (the first device) if it has none}
     *
     * @param config a device configuration
     * @throws IllegalArgumentException if it carries another provider's configuration
     */
    public static IbverbsConfig of(DeviceConfig config) {
        return switch (config.providerConfig()) {
            case null -> IbverbsConfig.FIRST_DEVICE;
            case IbverbsConfig c -> c;
            default -> throw new IllegalArgumentException("the " + NAME + " provider takes an IbverbsConfig, not a "
                    + config.providerConfig().getClass().getName() + " (provider '"
                    + config.providerConfig().providerName() + "')");
        };
    }
}

package org.jwarp.ibverbs;

import org.jwarp.verbs.spi.ProviderConfig;

/**
 * The {@code ibverbs} provider's own setting, carried in
 * {@link org.jwarp.verbs.DeviceConfig#providerConfig()}: which RDMA device to open, by the name
 * libibverbs gives it ({@code siw0}, {@code mlx5_0}, {@code irdma0}; what {@code ibv_devices} lists),
 * the device perftest's {@code -d} names.
 *
 * @param deviceName the device to open, or {@code null} for the first device libibverbs lists
 */
public record IbverbsConfig(String deviceName) implements ProviderConfig {

    /** The first device libibverbs lists. */
    public static final IbverbsConfig FIRST_DEVICE = new IbverbsConfig(null);

    /**
     * Checks the name.
     *
     * @throws IllegalArgumentException if {@code deviceName} is blank
     */
    public IbverbsConfig {
        if (deviceName != null && deviceName.isBlank()) {
            throw new IllegalArgumentException("the ibverbs device name must be null (the first device) or non-blank");
        }
    }

    /**
     * {@return the configuration for {@code deviceName}}
     *
     * @param deviceName the device to open, or {@code null} for the first one
     */
    public static IbverbsConfig device(String deviceName) {
        return new IbverbsConfig(deviceName);
    }

    /** {@return "device NAME", or "the first device"} */
    @Override
    public String toString() {
        return deviceName == null ? "the first device" : "device " + deviceName;
    }

    @Override
    public String providerName() {
        return IbverbsProvider.NAME;
    }
}

package org.jwarp.engine.provider;

import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.spi.RdmaProvider;

/**
 * The jwarp soft RNIC: iWARP over kernel TCP, run by engine threads (or the caller's, in invoker mode).
 * The service loader finds it for {@link RdmaDevice#open(DeviceConfig)}; a configuration selects it
 * by {@link #NAME} ({@link DeviceConfig.Builder#providerName(String)}), by carrying a
 * {@link JwarpConfig} ({@link DeviceConfig.Builder#provider}), or, as the only provider on the class
 * path, by default.
 */
public final class JwarpProvider implements RdmaProvider {

    /** The provider's name, for {@link DeviceConfig#providerName()}. */
    public static final String NAME = "jwarp";

    /** The instance the service loader makes; applications open devices through {@link RdmaDevice#open}. */
    public JwarpProvider() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Opens a device with the engine settings in {@code config}'s provider configuration, or
     * {@link JwarpConfig#defaults()} if it has none.
     *
     * @throws IllegalArgumentException if the provider configuration is not a {@link JwarpConfig}
     */
    @Override
    public RdmaDevice open(DeviceConfig config) {
        return new JwarpDevice(config, JwarpConfig.of(config));
    }
}

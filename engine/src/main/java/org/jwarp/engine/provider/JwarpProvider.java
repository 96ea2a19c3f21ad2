package org.jwarp.engine.provider;

import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.spi.RdmaProvider;

/**
 * The jwarp soft RNIC: iWARP over kernel TCP, run by engine threads (or the caller's, in invoker mode).
 * The service loader finds it for {@link RdmaDevice#open(DeviceConfig)}; a configuration selects it
 * by {@link #NAME} ({@link DeviceConfig.Builder#providerName(String)}) or, as the only provider on
 * the class path, by default.
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

    @Override
    public RdmaDevice open(DeviceConfig config) {
        return new JwarpDevice(config);
    }
}

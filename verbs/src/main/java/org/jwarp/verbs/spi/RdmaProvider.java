package org.jwarp.verbs.spi;

import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;

/**
 * A verbs implementation, found with {@link java.util.ServiceLoader}. It needs a public no-argument
 * constructor and an entry in {@code META-INF/services/org.jwarp.verbs.spi.RdmaProvider}.
 *
 * <p>Instances are created by the service loader on every lookup; keep the constructor cheap and
 * free of side effects (no threads, no sockets): work starts in {@link #open}.
 */
public interface RdmaProvider {

    /**
     * The provider's name, matched against {@link DeviceConfig#providerName()}: short, lower-case,
     * stable (the jwarp engine is {@code "jwarp"}).
     *
     * @return the name
     */
    String name();

    /**
     * Opens a device. The configuration has passed its own validation; the provider reads its own
     * settings from {@link DeviceConfig#providerConfig()} (its defaults if there are none) and
     * starts its engine.
     *
     * @throws IllegalArgumentException if the provider cannot honour a setting (naming it), or the
     *                                  provider configuration is not its own
     * @param config the configuration
     * @return the open device
     */
    RdmaDevice open(DeviceConfig config);
}

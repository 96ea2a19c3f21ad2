package org.jwarp.verbs.spi;

/**
 * A provider's own configuration: the settings only one implementation of the verbs API has (the
 * jwarp engine's threads, idling, socket I/O layer and Receive-Side Scaling, say), carried by
 * {@link org.jwarp.verbs.DeviceConfig#providerConfig()} beside the settings every provider accepts.
 * OFED's counterpart is a driver's module parameters.
 *
 * <p>A provider takes only its own type and rejects any other with an
 * {@link IllegalArgumentException}; a configuration without one gets the provider's defaults.
 * Implementations are immutable.
 */
public interface ProviderConfig {

    /**
     * The {@link RdmaProvider#name()} this configuration is for: a device configuration that names
     * no provider opens this one.
     *
     * @return the provider's name
     */
    String providerName();
}

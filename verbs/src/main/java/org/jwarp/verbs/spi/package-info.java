/**
 * The provider SPI: how an implementation of the verbs API plugs in.
 *
 * <p>An implementation (the jwarp engine, or another) implements
 * {@link org.jwarp.verbs.spi.RdmaProvider} and registers it for {@link java.util.ServiceLoader} in
 * {@code META-INF/services/org.jwarp.verbs.spi.RdmaProvider} (or with {@code provides} in a module
 * descriptor). {@link org.jwarp.verbs.RdmaDevice#open} then finds it.
 *
 * <h2>What a provider implements</h2>
 * Every interface of {@code org.jwarp.verbs}: {@code RdmaDevice}, {@code ProtectionDomain},
 * {@code MemoryRegion}, {@code CompletionQueue}, {@code CompletionChannel}, {@code QueuePair},
 * {@code ConnectionManager}, {@code Listener}, {@code ConnectionRequest}, with the contracts their
 * documentation states (threading, allocation-free data path, status codes). The value types
 * ({@code SendWr}, {@code RecvWr}, {@code WorkCompletion}, {@code Stag}, {@code Access},
 * {@code PostStatus}, {@code CounterSet}, the config records) are final and shared; providers use
 * their validation helpers ({@code SendWr#check}, {@code RecvWr#check},
 * {@code QpState#checkTransitionTo}, {@code QpInitAttr#checkAgainst}, {@code PrivateData#checkLength})
 * so that every provider accepts and rejects the same things.
 *
 * <h2>A provider's own settings</h2>
 * {@link org.jwarp.verbs.DeviceConfig} holds what every provider accepts; what only one provider has
 * is that provider's {@link org.jwarp.verbs.spi.ProviderConfig}, carried in
 * {@link org.jwarp.verbs.DeviceConfig#providerConfig()}. A provider reads its own type from there,
 * uses its defaults when there is none, and rejects another provider's with an
 * {@link java.lang.IllegalArgumentException}.
 */
package org.jwarp.verbs.spi;

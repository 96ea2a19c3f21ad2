/**
 * The jwarp provider: the soft iWARP RNIC behind the verbs API, iWARP (RDMAP, DDP, MPA) over kernel
 * TCP, run by engine threads or by the application's own calls.
 *
 * <p>An application does not name these classes: with the engine jar on the class path,
 * {@link org.jwarp.verbs.RdmaDevice#open(org.jwarp.verbs.DeviceConfig)} finds
 * {@link org.jwarp.engine.provider.JwarpProvider} through {@link java.util.ServiceLoader}, under the
 * name {@value org.jwarp.engine.provider.JwarpProvider#NAME}. Everything the provider is configured
 * with is in {@link org.jwarp.verbs.DeviceConfig}: who runs the engine
 * ({@link org.jwarp.verbs.DeviceConfig.ThreadingMode}), what an idle engine thread does
 * ({@link org.jwarp.verbs.DeviceConfig.IdleStrategyKind}), how connections' bytes reach their sockets
 * ({@link org.jwarp.verbs.DeviceConfig.SocketIo}), MPA negotiation, limits, CPU pinning and NUMA
 * placement, and Receive-Side Scaling over the engine threads ({@link org.jwarp.verbs.RssConfig}).
 */
package org.jwarp.engine.provider;

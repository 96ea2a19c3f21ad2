/**
 * The jwarp provider: the soft iWARP RNIC behind the verbs API, iWARP (RDMAP, DDP, MPA) over kernel
 * TCP, run by engine threads or by the application's own calls.
 *
 * <p>An application does not name these classes to open a device: with the engine jar on the class
 * path, {@link org.jwarp.verbs.RdmaDevice#open(org.jwarp.verbs.DeviceConfig)} finds
 * {@link org.jwarp.engine.provider.JwarpProvider} through {@link java.util.ServiceLoader}, under the
 * name {@value org.jwarp.engine.provider.JwarpProvider#NAME}. What every provider accepts (MPA
 * negotiation, limits, timeouts) is in {@link org.jwarp.verbs.DeviceConfig}; the engine's own
 * settings are a {@link org.jwarp.engine.provider.JwarpConfig} carried in its provider slot: who
 * runs the engine ({@link org.jwarp.engine.provider.JwarpConfig.ThreadingMode}), what an idle engine
 * thread does ({@link org.jwarp.engine.provider.JwarpConfig.IdleStrategyKind}), how connections'
 * bytes reach their sockets ({@link org.jwarp.engine.provider.JwarpConfig.SocketIo}), CPU pinning
 * and NUMA placement, Receive-Side Scaling over the engine threads
 * ({@link org.jwarp.engine.rss.RssConfig}) and the receive path's thresholds.
 */
package org.jwarp.engine.provider;

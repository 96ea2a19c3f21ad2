/**
 * The jwarp provider's offload-engine runtime: the parts of the soft RNIC that do not depend on
 * the protocol stack. The split follows the host/offload-engine interface of the TOAD paper
 * (seed 001): the host posts descriptors into rings in shared memory and writes a doorbell
 * "register"; the engine runs an event loop that polls the rings, the network and its timers; it
 * posts completion events back and raises an emulated interrupt only when the host asked for one.
 *
 * <ul>
 *   <li>{@link org.jwarp.engine.idle} — what an engine thread does between duty cycles;</li>
 *   <li>{@link org.jwarp.engine.agent} — duty-cycle agents, on a thread of their own or invoked;</li>
 *   <li>{@link org.jwarp.engine.ring} — the SQ/RQ and CQ rings;</li>
 *   <li>{@link org.jwarp.engine.notify} — doorbells and the completion-channel interrupt emulation;</li>
 *   <li>{@link org.jwarp.engine.affinity} — CPU pinning and the NUMA map, through FFM;</li>
 *   <li>{@link org.jwarp.engine.counters} — engine counters and the registry {@code jwarp stat} reads.</li>
 * </ul>
 */
package org.jwarp.engine;

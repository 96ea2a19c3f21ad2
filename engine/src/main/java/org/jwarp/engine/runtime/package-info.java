/**
 * The engine runtime: the engine threads of a device ({@link org.jwarp.engine.runtime.EngineThreads}:
 * dedicated, invoker, hybrid with its {@link org.jwarp.engine.runtime.StandbyEngine}), one duty cycle per
 * thread ({@link org.jwarp.engine.runtime.EngineWorker}) and the one class that decides which
 * connections a cycle visits and reads ({@link org.jwarp.engine.runtime.EngineScheduler}).
 */
package org.jwarp.engine.runtime;

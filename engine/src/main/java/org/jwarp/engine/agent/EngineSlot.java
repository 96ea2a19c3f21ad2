package org.jwarp.engine.agent;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.sys.NanoClock;

/**
 * One engine thread of a device, as a tenant ({@link EngineTenant}) sees it: where its work runs,
 * the doorbell that wakes it, and its I/O driver, which it sleeps in.
 */
public interface EngineSlot {

    /** Any thread: from the engine's next duty cycle on, {@code tenant} runs in it. */
    void attach(EngineTenant tenant);

    /** Any thread: the engine drops {@code tenant} and calls its {@link EngineTenant#shutdown()}. */
    void detach(EngineTenant tenant);

    /** Any thread: the doorbell — new work for the engine, waking it if it sleeps. */
    void ring();

    /**
     * Engine thread only: the engine's I/O driver, in the device's socket I/O layer. A tenant
     * opens its sockets' calls and registers them here, so that data arriving on them ends the
     * engine's sleep.
     */
    IoDriver driver();

    /**
     * Whether no engine thread of its own runs this slot (the device's invoker or hybrid mode):
     * then a host thread that waits must {@link #runUntil run the duty cycle} itself.
     */
    boolean hostRunsEngine();

    /**
     * Host thread, when {@link #hostRunsEngine()}: runs duty cycles (idling between them as the
     * device does) until {@code done} or the timeout.
     *
     * @return whether {@code done} became true
     */
    boolean runUntil(BooleanSupplier done, long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * The time the engine's rules read (the device's clock): a tenant's deadlines and its host
     * threads' timed waits use it, as the {@code now} of {@link EngineTenant#doWork} does.
     */
    NanoClock clock();

    /** The engine thread's name, for messages. */
    String name();
}

package org.jwarp.engine.toe;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.agent.EngineSlot;
import org.jwarp.engine.agent.EngineTenant;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoDrivers;
import org.jwarp.engine.provider.JwarpConfig;

/**
 * An engine slot with no thread: the duty cycle runs on whichever thread waits (as a device's
 * invoker mode), so a test drives host and engine from one thread, step by step.
 */
final class ManualSlot implements EngineSlot, AutoCloseable {

    private final IoDriver driver;
    private final List<EngineTenant> tenants = new ArrayList<>();
    private int rung;
    private long cycles;

    /** In the default socket I/O layer. */
    ManualSlot() {
        this(JwarpConfig.SocketIo.AUTO);
    }

    ManualSlot(JwarpConfig.SocketIo layer) {
        driver = IoDrivers.open(layer.resolve(), () -> 0L);
    }

    @Override
    public void attach(EngineTenant tenant) {
        tenants.add(tenant);
    }

    @Override
    public void detach(EngineTenant tenant) {
        if (tenants.remove(tenant)) {
            tenant.shutdown();
        }
    }

    @Override
    public void ring() {
        rung++;
    }

    @Override
    public IoDriver driver() {
        return driver;
    }

    @Override
    public org.jwarp.sys.NanoClock clock() {
        return org.jwarp.sys.NanoClock.SYSTEM;
    }

    @Override
    public boolean hostRunsEngine() {
        return true;
    }

    /** One duty cycle of every tenant; returns the work done. */
    int cycle() {
        cycles++;
        int work = 0;
        long now = System.nanoTime();
        for (int i = 0; i < tenants.size(); i++) {
            work += tenants.get(i).doWork(now);
        }
        return work;
    }

    @Override
    public boolean runUntil(BooleanSupplier done, long timeout, TimeUnit unit) {
        long nanos = unit.toNanos(timeout);
        long deadline = nanos == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + nanos;
        while (true) {
            int work = cycle();
            if (done.getAsBoolean()) {
                return true;
            }
            if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
                return false;
            }
            if (work == 0) {
                driver.sleep(1_000_000);            // until a socket is ready, at most 1 ms (timers)
            }
        }
    }

    int rung() {
        return rung;
    }

    long cycles() {
        return cycles;
    }

    @Override
    public String name() {
        return "manual";
    }

    @Override
    public void close() throws IOException {
        for (EngineTenant t : List.copyOf(tenants)) {
            detach(t);
        }
        driver.close();
    }
}

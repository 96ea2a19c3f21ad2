package org.jwarp.engine.provider;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.agent.EngineSlot;
import org.jwarp.engine.agent.EngineTenant;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.RdmaDevice;

/**
 * A jwarp device's engine threads as {@link EngineSlot}s, for a second personality that shares
 * them with the RDMA connections (the offloaded sockets of {@code org.jwarp.engine.toe}).
 */
public final class EngineAccess {

    private EngineAccess() {
    }

    /**
     * One slot per engine thread of {@code device} (one in invoker and hybrid modes).
     *
     * @throws IllegalArgumentException if {@code device} is not a jwarp device
     * @throws IllegalStateException    if it is closed or failed
     */
    public static List<EngineSlot> slots(RdmaDevice device) {
        if (!(device instanceof JwarpDevice d)) {
            throw new IllegalArgumentException("the offload engine runs on a jwarp device, not on provider "
                    + (device == null ? "null" : device.providerName()));
        }
        d.checkUsable();
        List<EngineSlot> slots = new ArrayList<>();
        for (EngineWorker w : d.engines().workers()) {
            slots.add(new WorkerSlot(d, w));
        }
        return List.copyOf(slots);
    }

    /** An engine worker seen as a slot. */
    private record WorkerSlot(JwarpDevice device, EngineWorker worker) implements EngineSlot {

        @Override
        public void attach(EngineTenant tenant) {
            worker.execute(() -> worker.addTenant(tenant));
        }

        @Override
        public void detach(EngineTenant tenant) {
            worker.execute(() -> worker.removeTenant(tenant));
        }

        @Override
        public void ring() {
            worker.doorbell().ring();
        }

        @Override
        public org.jwarp.engine.io.IoDriver driver() {
            return worker.driver();
        }

        @Override
        public boolean hostRunsEngine() {
            return device.invokerMode();
        }

        @Override
        public boolean runUntil(BooleanSupplier done, long timeout, TimeUnit unit) throws InterruptedException {
            return device.invokeUntil(done, timeout, unit);
        }

        @Override
        public org.jwarp.sys.NanoClock clock() {
            return device.clock();
        }

        @Override
        public String name() {
            return worker.roleName();
        }
    }
}

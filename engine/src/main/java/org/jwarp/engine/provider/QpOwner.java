package org.jwarp.engine.provider;

import java.util.function.Supplier;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.runtime.EngineWorker;

/**
 * Which engine thread owns a QP, and how a command reaches it there: chosen at creation, then by RSS
 * for the QP's connection, and changed by rebalancing. A command queued on a thread the QP has just
 * left follows it to the new one.
 */
final class QpOwner {

    private final JwarpDevice device;
    /** The owning engine thread; posters read it to ring the right doorbell. */
    private volatile EngineWorker worker;
    /** The RSS indirection-table entry of the QP's connection, or -1 (none, or steered round robin). */
    private volatile int rssEntry = -1;

    QpOwner(JwarpDevice device, EngineWorker worker) {
        this.device = device;
        this.worker = worker;
    }

    EngineWorker worker() {
        return worker;
    }

    int rssEntry() {
        return rssEntry;
    }

    /** Connect or accept, before the connection exists: RSS chose {@code owner} for it. */
    void adopt(EngineWorker owner, int entry) {
        worker = owner;
        rssEntry = entry;
    }

    /** Runs {@code command} on the owning engine thread when it runs there. */
    void onOwner(Runnable command) {
        EngineWorker w = worker;
        w.execute(() -> {
            if (worker != w) {
                onOwner(command);
            } else {
                command.run();
            }
        });
    }

    /** As {@link #onOwner}, and waits until it ran (setup path: {@code modify}). */
    void runOnOwner(Runnable command) {
        while (true) {
            EngineWorker w = worker;
            boolean[] ran = {false};
            device.runOnEngine(w, () -> {
                if (worker == w) {
                    command.run();
                    ran[0] = true;
                }
            });
            if (ran[0]) {
                return;
            }
        }
    }

    /**
     * Rebalancing: the QP and its connection (if any, read on the owning thread) move to
     * {@code target}; a no-op if already there, or if {@code target}'s command queue has no room. On
     * the old thread the connection leaves its duty cycle and readiness; posts from then on ring the
     * new thread, which takes the connection in with its next commands, before any of its cycles
     * touches the QP's rings: the rings' consumer changes hands through the command queue, so no
     * request or completion is lost, repeated or reordered.
     */
    void moveTo(EngineWorker target, Supplier<Connection> connection) {
        onOwner(() -> {
            EngineWorker from = worker;
            if (from == target || !target.reserveCommand()) {
                return;
            }
            Connection c = connection.get();
            if (c != null) {
                from.detach(c);
                c.owner(target);
            }
            worker = target;
            target.executeReserved(() -> {
                if (c != null) {
                    target.addConnection(c);
                }
                target.movedIn();
            });
        });
    }
}

package org.jwarp.engine.provider;

import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.MemoryWindow;
import org.jwarp.verbs.ProtectionDomain;

/**
 * A type 2 memory window: an STag index of the device's table whose binding the queue pairs'
 * engine threads change (BIND_MW, LOCAL_INV, a peer's Send with Invalidate); this object reads
 * the table for the current state.
 */
final class JwarpMw implements MemoryWindow {

    private final JwarpPd pd;
    private final int allocatedStag;
    private final AtomicBoolean closed = new AtomicBoolean();

    JwarpMw(JwarpPd pd, StagTable.Region window) {
        this.pd = pd;
        this.allocatedStag = window.stag();
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public int rkey() {
        StagTable.Region r = pd.stags().current(allocatedStag);
        return r != null && r.window() ? r.stag() : allocatedStag;
    }

    @Override
    public boolean isBound() {
        StagTable.Region r = pd.stags().current(allocatedStag);
        return r != null && r.window() && r.access() != 0;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            pd.stags().deregister(rkey());
            pd.engine().awaitEngineCycles();          // no engine still places through it
        }
    }

    @Override
    public String toString() {
        return "MemoryWindow{rkey=" + org.jwarp.verbs.Stag.toString(rkey()) + (isBound() ? ", bound" : "") + '}';
    }
}

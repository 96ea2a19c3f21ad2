package com.ibm.disni.verbs;

import java.io.IOException;
import org.jwarp.disni.RegionTable;

/** {@link SVCDeregMr}: takes the region out of the {@link RegionTable} and deregisters it. */
final class DeregMrCall extends SVCDeregMr {
    private final IbvMr mr;
    private boolean valid = true;

    DeregMrCall(IbvMr mr) {
        this.mr = mr;
    }

    static void deregister(IbvMr mr) {
        synchronized (mr) {
            if (!mr.isOpen) {
                return;
            }
            mr.isOpen = false;
        }
        if (mr.region != null) {
            RegionTable.INSTANCE.unregister(mr.region.lkey());
            mr.region.deregister();
        }
    }

    @Override
    public SVCDeregMr execute() throws IOException {
        if (!valid) {
            throw new IOException("SVCDeregMr.execute: the call was freed");
        }
        deregister(mr);
        return this;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public SVCDeregMr free() {
        valid = false;
        return this;
    }
}

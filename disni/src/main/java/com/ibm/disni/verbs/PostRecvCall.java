package com.ibm.disni.verbs;

import java.io.IOException;
import java.util.List;
import org.jwarp.disni.Sges;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RecvWr;

/** {@link SVCPostRecv}: receive requests copied when prepared, posted from preallocated jwarp {@link RecvWr}s. */
final class PostRecvCall extends SVCPostRecv {
    private final IbvQP qp;
    private final long[] wrIds;
    private final long[][] addrs;
    private final int[][] lengths;
    private final int[][] lkeys;
    private final RecvWr[] wrs;
    private final RecvWRMod[] mods;
    private boolean valid = true;

    PostRecvCall(IbvQP qp, List<IbvRecvWR> wrList) throws IOException {
        if (qp.qp == null) {
            throw new IOException("ibv_post_recv: the queue pair was never created");
        }
        this.qp = qp;
        int n = wrList.size();
        wrIds = new long[n];
        addrs = new long[n][];
        lengths = new int[n][];
        lkeys = new int[n][];
        wrs = new RecvWr[n];
        mods = new RecvWRMod[n];
        int i = 0;
        for (IbvRecvWR w : wrList) {
            List<IbvSge> sges = w.getSg_list();
            int m = sges == null ? 0 : sges.size();
            wrIds[i] = w.getWr_id();
            addrs[i] = new long[m];
            lengths[i] = new int[m];
            lkeys[i] = new int[m];
            for (int j = 0; j < m; j++) {
                IbvSge s = sges.get(j);
                addrs[i][j] = s.getAddr();
                lengths[i][j] = s.getLength();
                lkeys[i][j] = s.getLkey();
            }
            wrs[i] = new RecvWr(Math.max(1, m));
            long id = wrIds[i];
            mods[i] = () -> id;
            i++;
        }
    }

    @Override
    public SVCPostRecv execute() throws IOException {
        if (!valid) {
            throw new IOException("SVCPostRecv.execute: the call was freed");
        }
        for (int i = 0; i < wrs.length; i++) {
            RecvWr w = wrs[i].reset().wrId(wrIds[i]);
            for (int j = 0; j < addrs[i].length; j++) {
                Sges.add(w, addrs[i][j], lengths[i][j], lkeys[i][j]);
            }
        }
        int status;
        try {
            status = qp.qp.postRecv(wrs, wrs.length);
        } catch (RuntimeException e) {
            throw new IOException("ibv_post_recv: " + e.getMessage(), e);
        }
        if (!PostStatus.isOk(status)) {
            throw new IOException("ibv_post_recv failed: " + PostStatus.toString(status));
        }
        return this;
    }

    @Override
    public RecvWRMod getWrMod(int index) throws IOException {
        if (index < 0 || index >= mods.length) {
            throw new IOException("SVCPostRecv.getWrMod: no work request " + index + " of " + mods.length);
        }
        return mods[index];
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public SVCPostRecv free() {
        valid = false;
        return this;
    }
}

package com.ibm.disni.verbs;

import java.io.IOException;
import org.jwarp.verbs.MemoryRegion;

/**
 * A registered memory region ({@code struct ibv_mr}). {@link #getAddr()} is the memory's virtual
 * address, which jwarp also uses as the region's tagged offset base, so peers address it as they
 * would on hardware.
 */
public class IbvMr {
    public static int IBV_ACCESS_LOCAL_WRITE = 1;
    public static int IBV_ACCESS_REMOTE_WRITE = 2;
    public static int IBV_ACCESS_REMOTE_READ = 4;
    public static int IBV_ACCESS_REMOTE_ATOMIC = 8;
    public static int IBV_ACCESS_MW_BIND = 16;
    public static int IBV_ACCESS_ON_DEMAND = 64;

    protected IbvContext context;
    protected long addr;
    protected int length;
    protected int access;
    protected int lkey;
    protected int rkey;
    protected int handle;
    protected volatile boolean isOpen;
    MemoryRegion region;

    public IbvMr(IbvContext context, long addr, int length, int access, int lkey, int rkey, int handle)
            throws IOException {
        this.context = context;
        this.addr = addr;
        this.length = length;
        this.access = access;
        this.lkey = lkey;
        this.rkey = rkey;
        this.handle = handle;
        this.isOpen = true;
    }

    public long getAddr() {
        return addr;
    }

    public void setAddr(long addr) {
        this.addr = addr;
    }

    public int getLength() {
        return length;
    }

    public void setLength(int length) {
        this.length = length;
    }

    public int getLkey() {
        return lkey;
    }

    public void setLkey(int lkey) {
        this.lkey = lkey;
    }

    public int getRkey() {
        return rkey;
    }

    public void setRkey(int rkey) {
        this.rkey = rkey;
    }

    public int getHandle() {
        return handle;
    }

    @Override
    public String toString() {
        return "handle=" + handle + ", addr=" + addr + ", length=" + length + ", access=" + access + ", lkey=" + lkey
                + ", rkey=" + rkey;
    }

    public IbvContext getContext() {
        return context;
    }

    public boolean isOpen() {
        return isOpen;
    }

    /** Deregisters the region (as {@link #deregMr()} executed). */
    public void close() {
        DeregMrCall.deregister(this);
    }

    public SVCDeregMr deregMr() throws IOException {
        return new DeregMrCall(this);
    }

    /** jwarp has no on-demand paging. */
    public int expPrefetchMr(long address, int length) throws IOException {
        throw new IOException("IbvMr.expPrefetchMr is not supported: jwarp has no on-demand paging");
    }
}

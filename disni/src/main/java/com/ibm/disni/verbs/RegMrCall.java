package com.ibm.disni.verbs;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.jwarp.disni.RegionTable;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;

/** {@link SVCRegMr} over {@code ProtectionDomain.registerMemory}; the region is entered in the {@link RegionTable}. */
final class RegMrCall extends SVCRegMr {
    private static final int JWARP_ACCESS = Access.ALL;

    private final IbvPd pd;
    private final ByteBuffer buffer;
    private final long address;
    private final int length;
    private final int access;
    private IbvMr mr;
    private boolean valid = true;

    RegMrCall(IbvPd pd, ByteBuffer buffer, long address, int length, int access) throws IOException {
        if (buffer != null && !buffer.isDirect()) {
            throw new IOException("regMr needs a direct ByteBuffer: RDMA moves native memory");
        }
        if ((access & IbvMr.IBV_ACCESS_ON_DEMAND) != 0) {
            throw new IOException("regMr with IBV_ACCESS_ON_DEMAND is not supported: jwarp has no on-demand paging");
        }
        this.pd = pd;
        this.buffer = buffer;
        this.address = address;
        this.length = length;
        this.access = access;
    }

    @Override
    public SVCRegMr execute() throws IOException {
        if (!valid) {
            throw new IOException("SVCRegMr.execute: the call was freed");
        }
        MemorySegment segment = buffer != null
                ? MemorySegment.ofBuffer(buffer.duplicate().clear())
                : MemorySegment.ofAddress(address).reinterpret(length);
        MemoryRegion region;
        try {
            // MW_BIND only permits windows, which DiSNI's API cannot create: the other bits are jwarp's own.
            region = pd.pd.registerMemory(segment, access & JWARP_ACCESS);
        } catch (RuntimeException e) {
            throw new IOException("ibv_reg_mr: " + e.getMessage(), e);
        }
        IbvMr m = new IbvMr(pd.getContext(), segment.address(), (int) segment.byteSize(), access, region.lkey(),
                region.rkey(), region.lkey());
        m.region = region;
        RegionTable.INSTANCE.register(segment.address(), region);
        mr = m;
        return this;
    }

    @Override
    public IbvMr getMr() {
        return mr;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public SVCRegMr free() {
        valid = false;
        return this;
    }
}

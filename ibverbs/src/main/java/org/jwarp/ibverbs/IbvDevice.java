package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.jwarp.ibverbs.Structs.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectionManager;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SharedReceiveQueue;
import org.jwarp.verbs.SrqInitAttr;

/**
 * An open libibverbs device ({@code ibv_context}). The kernel and the device's provider library do
 * the work, so there are no engine threads: {@link #invoke()} does nothing. Counters are not kept
 * here (the kernel keeps its own, {@code rdma statistic}).
 */
final class IbvDevice implements RdmaDevice {

    private final IbvLib lib;
    private final String name;
    private final MemorySegment context;
    private final DeviceConfig config;
    private final DeviceAttributes attributes;
    private final CounterSet counters = CounterSet.standard("device");
    private final ConcurrentLinkedDeque<AutoCloseable> resources = new ConcurrentLinkedDeque<>();
    private final LkeyTable lkeys = new LkeyTable();
    private final ArenaHolds arenaHolds = new ArenaHolds();
    private volatile boolean closed;
    private IbvConnectionManager cm;

    private IbvDevice(IbvLib lib, DeviceList.Opened opened, DeviceConfig config) {
        this.lib = lib;
        this.name = opened.name();
        this.context = reinterpret(opened.context(), VerbsStructs.CONTEXT.byteSize());
        this.attributes = DeviceAttributes.query(lib, name, context, config.limits().maxInline());
        this.config = withLimits(config, attributes.limits());
    }

    /**
     * Opens {@code deviceName} (or the first device) with libibverbs.
     *
     * @throws IllegalStateException in one line if libibverbs or the device is missing
     */
    static IbvDevice open(DeviceConfig config, String deviceName) {
        IbvLib lib = IbvLib.get();
        DeviceList.Opened opened = DeviceList.open(lib, deviceName);
        try {
            return new IbvDevice(lib, opened, config);
        } catch (RuntimeException e) {
            IbvLib.call(lib.closeDevice, opened.context());
            throw e;
        }
    }

    private static DeviceConfig withLimits(DeviceConfig config, DeviceLimits limits) {
        try {
            return config.toBuilder().limits(limits).build();
        } catch (IllegalArgumentException e) {
            return config;                                  // the caller's configuration, as given
        }
    }

    @SuppressWarnings("restricted")
    static MemorySegment reinterpret(MemorySegment pointer, long size) {
        return pointer.reinterpret(size);
    }

    IbvLib lib() {
        return lib;
    }

    MemorySegment context() {
        return context;
    }

    LkeyTable lkeys() {
        return lkeys;
    }

    /** The arenas of this device's registered memory, held open until their regions are deregistered. */
    ArenaHolds arenaHolds() {
        return arenaHolds;
    }

    /** {@return the device's name ({@code siw0}, ...)} */
    String name() {
        return name;
    }

    /** {@return what {@code ibv_query_device} and {@code ibv_query_port} reported} */
    DeviceAttributes attributes() {
        return attributes;
    }

    void adopt(AutoCloseable resource) {
        requireOpen();
        resources.add(resource);
    }

    void release(AutoCloseable resource) {
        resources.remove(resource);
    }

    void requireOpen() {
        if (closed) {
            throw new IllegalStateException("ibverbs: device " + name + " is closed");
        }
    }

    /** "ibverbs: VERB is not supported by DEVICE (...)": what a device lacks, in one line. */
    String unsupported(String verb, String why) {
        return "ibverbs: " + verb + " is not supported by " + name + " (" + why + ")";
    }

    @Override
    public String providerName() {
        return IbverbsProvider.NAME;
    }

    @Override
    public DeviceConfig config() {
        return config;
    }

    @Override
    public String socketIoLayer() {
        return "kernel";
    }

    @Override
    public ProtectionDomain allocPd() {
        requireOpen();
        return new IbvPd(this);
    }

    @Override
    public CompletionChannel createCompletionChannel(Moderation moderation) {
        requireOpen();
        if (moderation != null && !moderation.isNone()) {
            throw new IllegalArgumentException(unsupported("completion moderation " + moderation,
                    "libibverbs moderates per CQ with ibv_modify_cq, which this provider does not call"));
        }
        return new IbvChannel(this);
    }

    @Override
    public CompletionQueue createCq(int depth, CompletionChannel channel) {
        requireOpen();
        if (depth < 1 || depth > attributes.limits().maxCqDepth()) {
            throw new IllegalArgumentException("CQ depth must be in 1.." + attributes.limits().maxCqDepth()
                    + " on " + name + ": " + depth);
        }
        if (channel != null && !(channel instanceof IbvChannel c && c.device() == this)) {
            throw new IllegalArgumentException("the completion channel belongs to another device");
        }
        return new IbvCq(this, depth, (IbvChannel) channel);
    }

    @Override
    public QueuePair createQp(ProtectionDomain pd, QpInitAttr attr) {
        requireOpen();
        if (!(pd instanceof IbvPd p) || p.device() != this) {
            throw new IllegalArgumentException("the protection domain belongs to another device");
        }
        return new IbvQp(p, attr);
    }

    /** The rdma_cm connection manager, made on first use (it loads librdmacm and starts its event thread). */
    @Override
    public synchronized ConnectionManager connectionManager() {
        requireOpen();
        if (cm == null) {
            cm = new IbvConnectionManager(this);
        }
        return cm;
    }

    @Override
    public SharedReceiveQueue createSrq(ProtectionDomain pd, SrqInitAttr attr) {
        requireOpen();
        if (!(pd instanceof IbvPd p) || p.device() != this) {
            throw new IllegalArgumentException("the protection domain belongs to another device");
        }
        return new IbvSrq(p, attr);
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public List<Counters> engineCounters() {
        return List.of();
    }

    @Override
    public int invoke() {
        return 0;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (this) {
            if (cm != null) {
                cm.close();                                 // ids before the queue pairs they name
            }
        }
        List<AutoCloseable> open = new ArrayList<>();
        for (Iterator<AutoCloseable> it = resources.descendingIterator(); it.hasNext(); ) {
            open.add(it.next());
        }
        for (AutoCloseable r : open) {
            try {
                r.close();
            } catch (Exception e) {
                // closing the device frees what is left; a resource that fails to close goes with the context
            }
        }
        IbvLib.call(lib.closeDevice, context);
        // the kernel has dropped what was left (closing the context's file descriptor); its memory may go
        arenaHolds.releaseAll();
    }

    /** {@code ibv_query_device} and {@code ibv_query_port} (port 1), as the verbs API's limits. */
    record DeviceAttributes(String firmware, int vendorId, int vendorPartId, int portState, int activeMtu,
                            int maxMw, int atomicCap, DeviceLimits limits) {

        /** {@code enum ibv_port_state}: IBV_PORT_ACTIVE. */
        static final int PORT_ACTIVE = 4;

        static DeviceAttributes query(IbvLib lib, String name, MemorySegment context, int maxInline) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment a = arena.allocate(VerbsStructs.DEVICE_ATTR);
                IbvLib.check("ibv_query_device(" + name + ")", lib.queryDevice, context, a);
                MemorySegment p = arena.allocate(VerbsStructs.PORT_ATTR);
                IbvLib.check("ibv_query_port(" + name + ", 1)", lib.queryPort, context, (byte) 1, p);
                var d = VerbsStructs.DEVICE_ATTR;
                var limits = new DeviceLimits(
                        positive(a.get(JAVA_INT, offset(d, "max_qp"))),
                        Math.min(positive(a.get(JAVA_INT, offset(d, "max_mr"))), 0xFFFFFF),
                        unsignedSize(a.get(JAVA_LONG, offset(d, "max_mr_size"))),
                        positive(a.get(JAVA_INT, offset(d, "max_qp_wr"))),
                        Math.min(positive(a.get(JAVA_INT, offset(d, "max_sge"))), 0xFFFF),
                        Math.max(0, maxInline),
                        positive(a.get(JAVA_INT, offset(d, "max_cqe"))),
                        ordIrd(a.get(JAVA_INT, offset(d, "max_qp_init_rd_atom"))),
                        ordIrd(a.get(JAVA_INT, offset(d, "max_qp_rd_atom"))));
                return new DeviceAttributes(a.asSlice(0, 64).getString(0),
                        a.get(JAVA_INT, offset(d, "vendor_id")), a.get(JAVA_INT, offset(d, "vendor_part_id")),
                        p.get(JAVA_INT, offset(VerbsStructs.PORT_ATTR, "state")),
                        p.get(JAVA_INT, offset(VerbsStructs.PORT_ATTR, "active_mtu")),
                        a.get(JAVA_INT, offset(d, "max_mw")), a.get(JAVA_INT, offset(d, "atomic_cap")), limits);
            }
        }

        /** A uint64_t size; above Long.MAX_VALUE (siw reports ~0) it is Long.MAX_VALUE. */
        private static long unsignedSize(long v) {
            return v < 0 ? Long.MAX_VALUE : Math.max(1, v);
        }

        private static int positive(int v) {
            return Math.max(1, v);
        }

        private static int ordIrd(int v) {
            return Math.clamp(v, 0, DeviceLimits.ORD_IRD_NO_NEGOTIATION - 1);
        }

        /** {@code enum ibv_port_state} by name, for messages. */
        String portStateName() {
            return switch (portState) {
                case 1 -> "DOWN";
                case 2 -> "INIT";
                case 3 -> "ARMED";
                case PORT_ACTIVE -> "ACTIVE";
                case 5 -> "ACTIVE_DEFER";
                default -> "NOP";
            };
        }
    }

}

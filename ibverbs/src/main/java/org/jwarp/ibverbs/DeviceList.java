package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.sys.Errno;

/** {@code ibv_get_device_list}: the RDMA devices of this host, and opening one by name. */
final class DeviceList {

    private DeviceList() {
    }

    /** The devices' names, in libibverbs' order; empty if there are none. */
    static List<String> names(IbvLib lib) {
        List<String> names = new ArrayList<>();
        withList(lib, (list, n) -> {
            for (int i = 0; i < n; i++) {
                names.add(name(lib, list.getAtIndex(ADDRESS, i)));
            }
            return null;
        });
        return names;
    }

    /**
     * Opens the device named {@code wanted}, or the first one if {@code wanted} is null.
     *
     * @return the {@code ibv_context}
     * @throws IllegalStateException in one line if there is no such device
     */
    static Opened open(IbvLib lib, String wanted) {
        return withList(lib, (list, n) -> {
            if (n == 0) {
                throw new IllegalStateException("ibverbs: no RDMA device on this host (libibverbs lists none;"
                        + " load an RDMA driver, e.g. 'rdma link add siw0 type siw netdev eth0')");
            }
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                MemorySegment dev = list.getAtIndex(ADDRESS, i);
                String name = name(lib, dev);
                if (wanted == null || wanted.equals(name)) {
                    MemorySegment ctx = IbvLib.pointer("ibv_open_device(" + name + ")", lib.openDevice, dev);
                    return new Opened(name, ctx);
                }
                seen.add(name);
            }
            throw new IllegalStateException("ibverbs: no RDMA device named '" + wanted + "'; this host has " + seen);
        });
    }

    /** An open device: its name and {@code ibv_context}. */
    record Opened(String name, MemorySegment context) {
    }

    private interface ListUser<T> {
        T use(MemorySegment list, int n);
    }

    @SuppressWarnings("restricted")
    private static <T> T withList(IbvLib lib, ListUser<T> user) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment num = arena.allocate(JAVA_INT);
            IbvLib.Result r = IbvLib.call(lib.getDeviceList, num);
            if (r.pointer().equals(MemorySegment.NULL)) {
                // ENOSYS: the kernel has no uverbs (no RDMA subsystem); anything else is passed on
                String why = r.errno() == Errno.ENOSYS ? "the kernel has no RDMA support" : Errno.describe(r.errno());
                throw new IllegalStateException("ibverbs: no RDMA device on this host (ibv_get_device_list: " + why + ")");
            }
            int n = num.get(JAVA_INT, 0);
            MemorySegment list = r.pointer().reinterpret(ADDRESS.byteSize() * (n + 1L));
            try {
                return user.use(list, n);
            } finally {
                IbvLib.call(lib.freeDeviceList, r.pointer());
            }
        }
    }

    @SuppressWarnings("restricted")
    private static String name(IbvLib lib, MemorySegment dev) {
        MemorySegment s = IbvLib.pointer("ibv_get_device_name", lib.getDeviceName, dev);
        return s.reinterpret(256).getString(0);
    }
}

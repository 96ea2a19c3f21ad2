package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.jwarp.sys.Errno;

/**
 * libibverbs' exported functions, bound once per JVM through the FFM API. Setup calls capture errno
 * (a NULL or non-zero return is turned into one line naming the call and the error); the data path
 * ({@code post_send}, {@code post_recv}, {@code poll_cq}, {@code req_notify_cq}) is not exported,
 * it goes through the context's ops table ({@link #POST}, {@link #POLL_CQ}, {@link #REQ_NOTIFY}).
 */
final class IbvLib {

    /** The soname libibverbs has carried since rdma-core's first release. */
    static final String LIBRARY = "libibverbs.so.1";

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** {@code int (*post_send)(qp, wr, bad_wr)} and {@code post_recv}: function pointer first. */
    static final MethodHandle POST = pointerCall(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    /** {@code int (*poll_cq)(cq, num_entries, wc)}: function pointer first. */
    static final MethodHandle POLL_CQ = pointerCall(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    /** {@code int (*req_notify_cq)(cq, solicited_only)}: function pointer first. */
    static final MethodHandle REQ_NOTIFY = pointerCall(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

    private static final NativeLibrary<IbvLib> LIB = new NativeLibrary<>(LIBRARY,
            "install libibverbs1 and ibverbs-providers, and run with --enable-native-access=ALL-UNNAMED", IbvLib::new);

    final MethodHandle getDeviceList;
    final MethodHandle freeDeviceList;
    final MethodHandle getDeviceName;
    final MethodHandle openDevice;
    final MethodHandle closeDevice;
    final MethodHandle queryDevice;
    final MethodHandle queryPort;
    final MethodHandle allocPd;
    final MethodHandle deallocPd;
    final MethodHandle regMr;
    final MethodHandle deregMr;
    final MethodHandle createCompChannel;
    final MethodHandle destroyCompChannel;
    final MethodHandle createCq;
    final MethodHandle destroyCq;
    final MethodHandle getCqEvent;
    final MethodHandle ackCqEvents;
    final MethodHandle createQp;
    final MethodHandle modifyQp;
    final MethodHandle destroyQp;
    final MethodHandle createSrq;
    final MethodHandle destroySrq;

    @SuppressWarnings("restricted")
    private IbvLib(NativeLibrary.Binder lib) {
        getDeviceList = lib.bind("ibv_get_device_list", FunctionDescriptor.of(ADDRESS, ADDRESS));
        freeDeviceList = lib.bind("ibv_free_device_list", FunctionDescriptor.ofVoid(ADDRESS));
        getDeviceName = lib.bind("ibv_get_device_name", FunctionDescriptor.of(ADDRESS, ADDRESS));
        openDevice = lib.bind("ibv_open_device", FunctionDescriptor.of(ADDRESS, ADDRESS));
        closeDevice = lib.bind("ibv_close_device", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        queryDevice = lib.bind("ibv_query_device", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        queryPort = lib.bind("ibv_query_port", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS));
        allocPd = lib.bind("ibv_alloc_pd", FunctionDescriptor.of(ADDRESS, ADDRESS));
        deallocPd = lib.bind("ibv_dealloc_pd", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        regMr = lib.bind("ibv_reg_mr", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        deregMr = lib.bind("ibv_dereg_mr", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCompChannel = lib.bind("ibv_create_comp_channel", FunctionDescriptor.of(ADDRESS, ADDRESS));
        destroyCompChannel = lib.bind("ibv_destroy_comp_channel", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCq = lib.bind("ibv_create_cq",
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        destroyCq = lib.bind("ibv_destroy_cq", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getCqEvent = lib.bind("ibv_get_cq_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        ackCqEvents = lib.bind("ibv_ack_cq_events", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT));
        createQp = lib.bind("ibv_create_qp", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        modifyQp = lib.bind("ibv_modify_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        destroyQp = lib.bind("ibv_destroy_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createSrq = lib.bind("ibv_create_srq", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        destroySrq = lib.bind("ibv_destroy_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    }

    /**
     * The bound library.
     *
     * @throws IllegalStateException in one line if libibverbs cannot be loaded here (not installed,
     *                               or native access denied)
     */
    static IbvLib get() {
        return LIB.get();
    }

    /** A call through a function pointer passed as the first argument; no errno capture (the data path). */
    @SuppressWarnings("restricted")
    private static MethodHandle pointerCall(FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(descriptor);
    }

    /** A call's result and the errno it left. */
    record Result(Object value, int errno) {
        MemorySegment pointer() {
            return (MemorySegment) value;
        }

        int code() {
            return (Integer) value;
        }
    }

    /** Calls a setup function, capturing errno. */
    static Result call(MethodHandle h, Object... args) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(CAPTURE);
            Object[] all = new Object[args.length + 1];
            all[0] = capture;
            System.arraycopy(args, 0, all, 1, args.length);
            Object v = h.invokeWithArguments(all);
            return new Result(v, (int) ERRNO.get(capture, 0L));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Calls a function returning a pointer; NULL is an error.
     *
     * @throws IllegalStateException "ibverbs: WHAT failed: strerror (errno N)"
     */
    static MemorySegment pointer(String what, MethodHandle h, Object... args) {
        Result r = call(h, args);
        if (r.pointer().equals(MemorySegment.NULL)) {
            throw new IllegalStateException("ibverbs: " + what + " failed: " + Errno.describe(r.errno()));
        }
        return r.pointer();
    }

    /**
     * Calls a function returning 0 or an errno (directly, or -1 with errno set).
     *
     * @throws IllegalStateException "ibverbs: WHAT failed: strerror (errno N)"
     */
    static void check(String what, MethodHandle h, Object... args) {
        Result r = call(h, args);
        if (r.code() != 0) {
            int errno = r.code() > 0 ? r.code() : r.errno();
            throw new IllegalStateException("ibverbs: " + what + " failed: " + Errno.describe(errno));
        }
    }

    /** The function pointer at {@code offset} in the context's ops table. */
    static MemorySegment op(MemorySegment context, long offset) {
        MemorySegment fn = context.get(ADDRESS, offset);
        if (fn.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("ibverbs: the device's provider library has no entry at ops offset " + offset);
        }
        return fn;
    }
}

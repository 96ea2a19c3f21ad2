package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * librdmacm's functions, bound once per JVM with errno captured (they return -1 and set errno, or
 * NULL). Called through {@link IbvLib#call}, {@link IbvLib#check} and {@link IbvLib#pointer}.
 */
final class RdmaCmLib {

    static final String LIBRARY = "librdmacm.so.1";

    private static final NativeLibrary<RdmaCmLib> LIB = new NativeLibrary<>(LIBRARY,
            "install librdmacm1", RdmaCmLib::new);

    final MethodHandle createEventChannel;
    final MethodHandle destroyEventChannel;
    final MethodHandle createId;
    final MethodHandle destroyId;
    final MethodHandle bindAddr;
    final MethodHandle listen;
    final MethodHandle resolveAddr;
    final MethodHandle resolveRoute;
    final MethodHandle connect;
    final MethodHandle accept;
    final MethodHandle reject;
    final MethodHandle disconnect;
    final MethodHandle getCmEvent;
    final MethodHandle ackCmEvent;
    final MethodHandle eventStr;

    private RdmaCmLib(NativeLibrary.Binder lib) {
        createEventChannel = lib.bind("rdma_create_event_channel", FunctionDescriptor.of(ADDRESS));
        destroyEventChannel = lib.bind("rdma_destroy_event_channel", FunctionDescriptor.ofVoid(ADDRESS));
        createId = lib.bind("rdma_create_id", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        destroyId = lib.bind("rdma_destroy_id", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        bindAddr = lib.bind("rdma_bind_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        listen = lib.bind("rdma_listen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        resolveAddr = lib.bind("rdma_resolve_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        resolveRoute = lib.bind("rdma_resolve_route", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        connect = lib.bind("rdma_connect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        accept = lib.bind("rdma_accept", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        reject = lib.bind("rdma_reject", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE));
        disconnect = lib.bind("rdma_disconnect", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getCmEvent = lib.bind("rdma_get_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        ackCmEvent = lib.bind("rdma_ack_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        eventStr = lib.bind("rdma_event_str", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /**
     * The bound library.
     *
     * @throws IllegalStateException in one line if librdmacm cannot be loaded here
     */
    static RdmaCmLib get() {
        return LIB.get();
    }

    /** {@code rdma_event_str}: "RDMA_CM_EVENT_ESTABLISHED", for messages. */
    @SuppressWarnings("restricted")
    String eventName(int event) {
        MemorySegment s = IbvLib.call(eventStr, event).pointer();
        return s.equals(MemorySegment.NULL) ? "event " + event : s.reinterpret(64).getString(0);
    }
}

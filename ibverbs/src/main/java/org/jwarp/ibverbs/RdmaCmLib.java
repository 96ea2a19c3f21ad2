package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * librdmacm's functions, bound once per JVM with errno captured (they return -1 and set errno, or
 * NULL). Called through {@link IbvLib#call}, {@link IbvLib#check} and {@link IbvLib#pointer}.
 */
final class RdmaCmLib {

    static final String LIBRARY = "librdmacm.so.1";

    private static volatile RdmaCmLib instance;
    private static volatile String refusal;

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

    private RdmaCmLib(SymbolLookup lib) {
        createEventChannel = bind(lib, "rdma_create_event_channel", FunctionDescriptor.of(ADDRESS));
        destroyEventChannel = bind(lib, "rdma_destroy_event_channel", FunctionDescriptor.ofVoid(ADDRESS));
        createId = bind(lib, "rdma_create_id", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        destroyId = bind(lib, "rdma_destroy_id", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        bindAddr = bind(lib, "rdma_bind_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        listen = bind(lib, "rdma_listen", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        resolveAddr = bind(lib, "rdma_resolve_addr", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));
        resolveRoute = bind(lib, "rdma_resolve_route", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
        connect = bind(lib, "rdma_connect", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        accept = bind(lib, "rdma_accept", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        reject = bind(lib, "rdma_reject", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE));
        disconnect = bind(lib, "rdma_disconnect", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getCmEvent = bind(lib, "rdma_get_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        ackCmEvent = bind(lib, "rdma_ack_cm_event", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        eventStr = bind(lib, "rdma_event_str", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /**
     * The bound library.
     *
     * @throws IllegalStateException in one line if librdmacm cannot be loaded here
     */
    static RdmaCmLib get() {
        RdmaCmLib lib = instance;
        if (lib != null) {
            return lib;
        }
        synchronized (RdmaCmLib.class) {
            if (instance == null && refusal == null) {
                try {
                    instance = new RdmaCmLib(lookup());
                } catch (IllegalArgumentException | IllegalCallerException e) {
                    refusal = "ibverbs: cannot use " + LIBRARY + " (" + e.getMessage().lines().findFirst().orElse("")
                            + "); install librdmacm1";
                }
            }
            if (instance == null) {
                throw new IllegalStateException(refusal);
            }
            return instance;
        }
    }

    @SuppressWarnings("restricted")
    private static SymbolLookup lookup() {
        return SymbolLookup.libraryLookup(LIBRARY, Arena.global());
    }

    @SuppressWarnings("restricted")
    private static MethodHandle bind(SymbolLookup lib, String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = lib.find(name).orElseThrow(
                () -> new IllegalArgumentException(LIBRARY + " has no " + name + "()"));
        return Linker.nativeLinker().downcallHandle(symbol, descriptor, Linker.Option.captureCallState("errno"));
    }

    /** {@code rdma_event_str}: "RDMA_CM_EVENT_ESTABLISHED", for messages. */
    @SuppressWarnings("restricted")
    String eventName(int event) {
        MemorySegment s = IbvLib.call(eventStr, event).pointer();
        return s.equals(MemorySegment.NULL) ? "event " + event : s.reinterpret(64).getString(0);
    }
}

package org.jwarp.ibverbs;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.function.Function;

/**
 * A shared library whose functions are bound once per JVM, or refused once: a host without it (or a
 * JVM without native access) gets the same one-line reason on every use, and nothing is retried.
 *
 * @param <T> the class holding the bound functions
 */
final class NativeLibrary<T> {

    /** Binds one function of the library, with errno captured (setup calls return -1 or NULL and set it). */
    static final class Binder {

        private final String library;
        private final SymbolLookup lookup;

        private Binder(String library, SymbolLookup lookup) {
            this.library = library;
            this.lookup = lookup;
        }

        @SuppressWarnings("restricted")
        MethodHandle bind(String name, FunctionDescriptor descriptor) {
            MemorySegment symbol = lookup.find(name).orElseThrow(
                    () -> new IllegalArgumentException(library + " has no " + name + "()"));
            return Linker.nativeLinker().downcallHandle(symbol, descriptor, Linker.Option.captureCallState("errno"));
        }
    }

    private final String soname;
    private final String remedy;
    private final Function<Binder, T> bindAll;
    private volatile T bound;
    private volatile String refusal;

    /**
     * @param soname  the library's file name ("libibverbs.so.1")
     * @param remedy  what a user does when it cannot be loaded ("install libibverbs1")
     * @param bindAll binds the functions the library's class holds
     */
    NativeLibrary(String soname, String remedy, Function<Binder, T> bindAll) {
        this.soname = soname;
        this.remedy = remedy;
        this.bindAll = bindAll;
    }

    /**
     * The bound functions.
     *
     * @throws IllegalStateException in one line if the library cannot be loaded here
     */
    T get() {
        T t = bound;
        if (t != null) {
            return t;
        }
        synchronized (this) {
            if (bound == null && refusal == null) {
                try {
                    bound = bindAll.apply(new Binder(soname, lookup()));
                } catch (IllegalArgumentException | IllegalCallerException | UnsatisfiedLinkError e) {
                    String why = e.getMessage() == null ? e.getClass().getSimpleName()
                            : e.getMessage().lines().findFirst().orElse("");
                    refusal = "ibverbs: cannot use " + soname + " (" + why + "); " + remedy;
                }
            }
            if (bound == null) {
                throw new IllegalStateException(refusal);
            }
            return bound;
        }
    }

    @SuppressWarnings("restricted")
    private SymbolLookup lookup() {
        return SymbolLookup.libraryLookup(soname, Arena.global());
    }
}

package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the arena of registered memory open until its last region is deregistered. The kernel
 * writes a region (incoming WRITEs, READ responses, receives) through the pages it pinned at
 * {@code ibv_reg_mr}, with no way to see that the application freed them: memory freed under a
 * region goes back to malloc, and whatever malloc puts there next is overwritten. The verbs API's
 * promise is that registered memory is never written after its arena closed; this provider keeps
 * it by not letting the arena close while a region is over it.
 *
 * <p>One daemon thread per arena scope sits in a downcall that takes a segment of the scope as an
 * argument: libc's {@code bsearch} over a one-element array, whose comparator (an upcall) parks
 * the thread until the last region goes. The FFM linker keeps the scope of a segment argument
 * acquired for the whole downcall, so the application's {@code Arena.close()} fails meanwhile
 * with the JDK's IllegalStateException ("acquired"), as it does during any NIO call on the
 * memory; right after the deregistration it succeeds. The hold is in place before the comparator
 * runs, and a registration waits for that; a release waits for the call to return. Memory of the global arena needs no hold. A confined arena
 * cannot be held (only its owner thread may pass its memory to a call, and that thread cannot
 * wait here) and is refused.
 */
final class ArenaHolds {

    private static final MethodHandle BSEARCH;
    private static final MemorySegment PARK;
    private static final MemorySegment ELEMENT = Arena.global().allocate(1);
    private static final MemorySegment.Scope GLOBAL = Arena.global().scope();

    static {
        Linker linker = Linker.nativeLinker();
        BSEARCH = downcall(linker);
        try {
            MethodHandle park = MethodHandles.lookup().findStatic(ArenaHolds.class, "parkHere",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
            PARK = upcall(linker, park);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Map<MemorySegment.Scope, Hold> holds = new HashMap<>();

    /**
     * Holds the arena of {@code segment} open (once per scope, counted).
     *
     * @throws IllegalArgumentException if the segment belongs to a confined arena
     * @throws IllegalStateException    if its arena is closed already
     */
    synchronized void acquire(MemorySegment segment) {
        MemorySegment.Scope scope = segment.scope();
        if (scope.equals(GLOBAL)) {
            return;
        }
        Hold h = holds.get(scope);
        if (h == null) {
            h = new Hold(segment);
            if (!segment.isAccessibleBy(h.thread)) {
                throw new IllegalArgumentException("ibverbs registers memory of shared, automatic or global arenas only:"
                        + " the kernel writes a region until it is deregistered, and a confined arena cannot be kept"
                        + " open meanwhile (use Arena.ofShared())");
            }
            h.start();
            holds.put(scope, h);
        }
        h.regions++;
    }

    /** Lets the arena of {@code segment} close (at once on return) if no other region is over its memory. */
    synchronized void release(MemorySegment segment) {
        Hold h = holds.get(segment.scope());
        if (h != null && --h.regions == 0) {
            holds.remove(segment.scope());
            h.stop();
        }
    }

    /** Lets every held arena close (the device is closed: the kernel no longer writes any of it). */
    synchronized void releaseAll() {
        holds.values().forEach(Hold::stop);
        holds.clear();
    }

    /** Arena scopes held now. */
    synchronized int held() {
        return holds.size();
    }

    /** The comparator: runs inside the downcall, on the hold's thread, and parks it until released. */
    @SuppressWarnings("unused")
    private static int parkHere(MemorySegment key, MemorySegment element) {
        Hold h = ((HoldThread) Thread.currentThread()).hold;
        h.held.countDown();
        while (!h.released) {
            LockSupport.park(h);
        }
        return 0;
    }

    private static final class HoldThread extends Thread {
        final Hold hold;

        HoldThread(Hold hold) {
            super(null, null, "ibverbs-arena-hold", 256 * 1024, false);
            this.hold = hold;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                MemorySegment unused = (MemorySegment) BSEARCH.invokeExact(hold.anchor, ELEMENT, 1L, 1L, PARK);
            } catch (Throwable t) {
                hold.failure = t;                           // the arena closed before the call took it
            } finally {
                hold.held.countDown();
            }
        }
    }

    private static final class Hold {
        final MemorySegment anchor;
        final HoldThread thread;
        final CountDownLatch held = new CountDownLatch(1);
        volatile boolean released;
        volatile Throwable failure;
        int regions;

        Hold(MemorySegment segment) {
            // a zero-length slice: the call needs the scope, not the bytes (bsearch passes the key on unread)
            this.anchor = segment.asSlice(0, 0);
            this.thread = new HoldThread(this);
        }

        void start() {
            thread.start();
            boolean interrupted = false;
            while (true) {
                try {
                    held.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) {
                throw new IllegalStateException("ibverbs: the memory's arena is closed: " + failure.getMessage(), failure);
            }
        }

        /** Ends the hold and returns once the call has returned its scope: the arena closes right after. */
        void stop() {
            released = true;
            LockSupport.unpark(thread);
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @SuppressWarnings("restricted")
    private static MethodHandle downcall(Linker linker) {
        MemorySegment bsearch = linker.defaultLookup().find("bsearch")
                .orElseThrow(() -> new ExceptionInInitializerError("libc has no bsearch"));
        return linker.downcallHandle(bsearch, FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    }

    @SuppressWarnings("restricted")
    private static MemorySegment upcall(Linker linker, MethodHandle target) {
        return linker.upcallStub(target, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Arena.global());
    }
}

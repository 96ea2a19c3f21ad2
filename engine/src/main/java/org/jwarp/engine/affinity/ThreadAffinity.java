package org.jwarp.engine.affinity;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.jwarp.sys.Downcalls;

/**
 * CPU affinity of the calling thread through FFM downcalls to glibc: {@code sched_setaffinity},
 * {@code sched_getaffinity} (pid 0 = the calling thread, a 128-byte {@code cpu_set_t}) and
 * {@code sched_getcpu}. The errno of a failed call is captured with
 * {@link Linker.Option#captureCallState(String...)}, since the JVM may itself change errno between
 * the call and any later read.
 *
 * <p><b>Fallback.</b> Where the calls are unavailable (not Linux, no such symbol, native access
 * denied) the class still loads; {@link #isSupported()} is false, the setters return
 * {@code false}, the getters return empty or -1, nothing is logged and nothing is thrown.
 * {@link #unsupportedReason()} says why. Where the calls exist but the kernel refuses (a CPU that
 * is offline or outside the cgroup's cpuset: EINVAL), an {@link AffinityException} carries errno.
 *
 * <p>Setup-path only: each call allocates a small confined arena.
 */
public final class ThreadAffinity {

    private static final MethodHandle SET_AFFINITY;
    private static final MethodHandle GET_AFFINITY;
    private static final MethodHandle GET_CPU;
    private static final String UNSUPPORTED;

    static {
        MethodHandle set = null;
        MethodHandle get = null;
        MethodHandle cpu = null;
        String why = null;
        try {
            String os = System.getProperty("os.name", "");
            if (!os.startsWith("Linux")) {
                why = "affinity calls are Linux-only; this is " + os;
            } else {
                // int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)
                FunctionDescriptor affinity = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS);
                set = Downcalls.find("sched_setaffinity", affinity).orElse(null);
                get = Downcalls.find("sched_getaffinity", affinity).orElse(null);
                // int sched_getcpu(void)
                cpu = Downcalls.find("sched_getcpu", FunctionDescriptor.of(JAVA_INT)).orElse(null);
                if (set == null || get == null || cpu == null) {
                    set = get = cpu = null;
                    why = "the C library has no sched_setaffinity/sched_getaffinity/sched_getcpu";
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // IllegalCallerException when native access is denied; UnsupportedOperationException on a
            // platform without a native linker. Either way: the documented fallback, not a failure.
            set = get = cpu = null;
            why = "native access unavailable: " + e;
        }
        SET_AFFINITY = set;
        GET_AFFINITY = get;
        GET_CPU = cpu;
        UNSUPPORTED = why;
    }

    private ThreadAffinity() {
    }

    /** Whether affinity calls work on this platform and JVM. */
    public static boolean isSupported() {
        return UNSUPPORTED == null;
    }

    /** Why {@link #isSupported()} is false, or {@code null} if it is true. */
    public static String unsupportedReason() {
        return UNSUPPORTED;
    }

    /**
     * The CPUs the calling thread may run on.
     *
     * @return empty where unsupported
     * @throws AffinityException if the kernel refuses the call
     */
    public static Optional<Cpus> getAffinity() {
        if (!isSupported()) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(Cpus.MASK_BYTES, 8);
            MemorySegment state = Downcalls.captureBuffer(arena);
            int rc = (int) GET_AFFINITY.invokeExact(state, 0, (long) Cpus.MASK_BYTES, mask);
            if (rc != 0) {
                throw new AffinityException("sched_getaffinity", errno(state), "");
            }
            long[] words = new long[Cpus.MAX_CPUS / 64];
            for (int i = 0; i < words.length; i++) {
                words[i] = mask.getAtIndex(JAVA_LONG, i);      // native order = cpu_set_t's unsigned long words
            }
            return Optional.of(Cpus.fromMask(words));
        } catch (AffinityException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_getaffinity downcall failed", t);
        }
    }

    /**
     * Restricts the calling thread to {@code cpus}.
     *
     * @return false where unsupported (the thread's affinity is unchanged)
     * @throws IllegalArgumentException if {@code cpus} is empty
     * @throws AffinityException        if the kernel refuses (e.g. EINVAL: none of the CPUs is
     *                                  online and allowed)
     */
    public static boolean setAffinity(Cpus cpus) {
        if (cpus == null || cpus.isEmpty()) {
            throw new IllegalArgumentException("cannot restrict a thread to an empty CPU set");
        }
        if (!isSupported()) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(Cpus.MASK_BYTES, 8);
            long[] words = cpus.toMask();
            for (int i = 0; i < words.length; i++) {
                mask.setAtIndex(JAVA_LONG, i, words[i]);
            }
            MemorySegment state = Downcalls.captureBuffer(arena);
            int rc = (int) SET_AFFINITY.invokeExact(state, 0, (long) Cpus.MASK_BYTES, mask);
            if (rc != 0) {
                throw new AffinityException("sched_setaffinity", errno(state), "CPUs " + cpus);
            }
            return true;
        } catch (AffinityException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_setaffinity downcall failed", t);
        }
    }

    /**
     * Pins the calling thread to one CPU ({@code setAffinity(Cpus.of(cpu))}).
     *
     * @return false where unsupported
     * @throws IllegalArgumentException if {@code cpu} is outside {@code 0..1023}
     * @throws AffinityException        if the kernel refuses the CPU
     */
    public static boolean pinCurrentThread(int cpu) {
        return setAffinity(Cpus.of(cpu));
    }

    /**
     * The CPU the calling thread is running on now ({@code sched_getcpu}); by the time the caller
     * looks at it the thread may have moved, unless it is pinned.
     *
     * @return -1 where unsupported or if the call fails
     */
    public static int currentCpu() {
        if (!isSupported()) {
            return -1;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Downcalls.captureBuffer(arena);
            int cpu = (int) GET_CPU.invokeExact(state);
            return cpu < 0 ? -1 : cpu;
        } catch (Throwable t) {
            throw new IllegalStateException("sched_getcpu downcall failed", t);
        }
    }

    private static int errno(MemorySegment state) {
        return Downcalls.errno(state);
    }
}

package org.jwarp.engine.affinity;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jwarp.sys.Downcalls;
import org.jwarp.sys.Errno;

/**
 * NUMA memory placement of native memory through the {@code mbind} system call (FFM, no libnuma):
 * the pages of a segment are preferred on a node, and those already touched move there. Where the
 * call is missing or refused (not Linux x86-64/aarch64, native access denied, a kernel without
 * NUMA) it does nothing and says why once.
 */
public final class MemoryPolicy {

    /** {@code MPOL_PREFERRED}: allocate on the node, fall back to others when it is full. */
    static final int MPOL_PREFERRED = 1;
    /** {@code MPOL_MF_MOVE}: move pages already in place that the policy does not match. */
    static final int MPOL_MF_MOVE = 1 << 1;
    private static final long PAGE = 4096;

    private static final MethodHandle SYSCALL;
    private static final long SYS_MBIND;
    private static final String UNSUPPORTED;

    static {
        MethodHandle h = null;
        long nr = -1;
        String why = null;
        try {
            String arch = System.getProperty("os.arch", "");
            nr = switch (arch) {
                case "amd64", "x86_64" -> 237;
                case "aarch64" -> 235;
                default -> -1;
            };
            if (!System.getProperty("os.name", "").startsWith("Linux") || nr < 0) {
                why = "mbind is wired for Linux on x86-64 and aarch64; this is " + System.getProperty("os.name") + " "
                        + arch;
            } else {
                // long syscall(long number, ...): mbind(addr, len, mode, nodemask, maxnode, flags)
                h = Downcalls.find("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                        JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG), Linker.Option.firstVariadicArg(1)).orElse(null);
                if (h == null) {
                    why = "the C library has no syscall()";
                }
            }
        } catch (RuntimeException | LinkageError e) {
            h = null;
            why = "native access unavailable: " + e;
        }
        SYSCALL = h;
        SYS_MBIND = nr;
        UNSUPPORTED = why;
    }

    private MemoryPolicy() {
    }

    /** Why {@link #preferNode} does nothing here, or null if it works. */
    public static String unsupportedReason() {
        return UNSUPPORTED;
    }

    /**
     * Prefers {@code node} for the pages of {@code segment} (native memory) and moves those already
     * touched. Returns null on success, else why not (the call is missing, or the kernel's errno).
     */
    public static String preferNode(MemorySegment segment, int node) {
        if (UNSUPPORTED != null) {
            return UNSUPPORTED;
        }
        if (!segment.isNative() || node < 0 || node >= 64) {
            return "only native memory on nodes 0..63 is placed (node " + node + ")";
        }
        long start = segment.address() & -PAGE;
        long length = segment.address() + segment.byteSize() - start;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.captureBuffer(arena);
            MemorySegment mask = arena.allocate(JAVA_LONG);
            mask.set(JAVA_LONG, 0, 1L << node);
            long rc = (long) SYSCALL.invokeExact(capture, SYS_MBIND, start, length, (long) MPOL_PREFERRED, mask,
                    65L, (long) MPOL_MF_MOVE);
            return rc == 0 ? null : "mbind failed: " + Errno.describe(Downcalls.errno(capture));
        } catch (Throwable t) {
            return "mbind downcall failed: " + t;
        }
    }
}

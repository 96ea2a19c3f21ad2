package org.jwarp.sys;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The process's limit on open file descriptors ({@code RLIMIT_NOFILE}, getrlimit(2) and
 * setrlimit(2)): a program holding a socket per connection needs one above the usual 1,024 or
 * 20,000. The soft limit may be raised up to the hard one by anyone; the hard one only with
 * {@code CAP_SYS_RESOURCE} (root), up to the kernel's {@code fs.nr_open}. Children inherit both.
 */
public final class OpenFileLimit {

    /** Linux's {@code RLIMIT_NOFILE}. */
    private static final int RLIMIT_NOFILE = 7;
    /** {@code struct rlimit}: two {@code rlim_t} (unsigned long on 64-bit Linux). */
    private static final FunctionDescriptor RLIMIT_CALL = FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS);

    private OpenFileLimit() {
    }

    /** The soft and hard limits. */
    public record Limits(long soft, long hard) {
    }

    /** {@return why the limit cannot be read or set here, or null if it can} */
    public static String why() {
        return Handles.WHY;
    }

    /** {@return the current limits} */
    public static Limits get() {
        check();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.captureBuffer(arena);
            MemorySegment rlimit = arena.allocate(16, 8);
            int rc = (int) Handles.GET.invokeExact(capture, RLIMIT_NOFILE, rlimit);
            if (rc != 0) {
                throw new IllegalStateException("getrlimit(RLIMIT_NOFILE): " + Errno.describe(Downcalls.errno(capture)));
            }
            return new Limits(rlimit.get(JAVA_LONG, 0), rlimit.get(JAVA_LONG, 8));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("getrlimit failed", t);
        }
    }

    /**
     * Raises the soft limit to at least {@code wanted}, and the hard limit with it where it is
     * lower and this process may raise it. Never lowers either.
     *
     * @return the limits now in force
     * @throws IllegalStateException with one line (the errno's meaning and what to do) if the limit stays below {@code wanted}
     */
    public static Limits raiseTo(long wanted) {
        Limits now = get();
        if (now.soft() >= wanted) {
            return now;
        }
        long hard = Math.max(now.hard(), wanted);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.captureBuffer(arena);
            MemorySegment rlimit = arena.allocate(16, 8);
            rlimit.set(JAVA_LONG, 0, wanted);
            rlimit.set(JAVA_LONG, 8, hard);
            int rc = (int) Handles.SET.invokeExact(capture, RLIMIT_NOFILE, rlimit);
            if (rc != 0) {
                int errno = Downcalls.errno(capture);
                throw new IllegalStateException("cannot raise the open-file limit from " + now.soft() + " (hard "
                        + now.hard() + ") to " + wanted + ": setrlimit: " + Errno.describe(errno)
                        + (hard > now.hard() ? "; raising the hard limit needs root (or CAP_SYS_RESOURCE), and"
                        + " fs.nr_open bounds it" : ""));
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("setrlimit failed", t);
        }
        return get();
    }

    private static void check() {
        if (Handles.WHY != null) {
            throw new UnsupportedOperationException(Handles.WHY);
        }
    }

    /** The handles, made on first use; the reason they could not be, instead. */
    private static final class Handles {
        static final MethodHandle GET;
        static final MethodHandle SET;
        static final String WHY;

        static {
            MethodHandle get = null;
            MethodHandle set = null;
            String why = null;
            try {
                get = Downcalls.find("getrlimit", RLIMIT_CALL).orElse(null);
                set = Downcalls.find("setrlimit", RLIMIT_CALL).orElse(null);
                if (get == null || set == null) {
                    why = "the C library has no getrlimit/setrlimit";
                }
            } catch (IllegalCallerException e) {
                why = "native access is not enabled (--enable-native-access=ALL-UNNAMED)";
            }
            GET = get;
            SET = set;
            WHY = why;
        }
    }
}

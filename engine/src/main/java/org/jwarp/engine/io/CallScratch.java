package org.jwarp.engine.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.sys.Downcalls;

/**
 * Native room for the arguments of one setup-path system call on a socket, one per thread: an
 * option's value or a socket address, a length, errno's capture. A confined arena per call costs
 * each call a {@code malloc} and a {@code free}, several per connection set up. A call uses it
 * and is done with it before it returns, calling no other user of it meanwhile.
 */
final class CallScratch {

    private static final ThreadLocal<CallScratch> PER_THREAD = ThreadLocal.withInitial(CallScratch::new);

    /** An int option's value, or a {@code sockaddr_in6} (28 bytes), the larger. */
    final MemorySegment value;
    /** A {@code socklen_t}. */
    final MemorySegment length;
    /** errno, for a handle made with {@code Linker.Option.captureCallState}. */
    final MemorySegment capture;

    private CallScratch() {
        Arena arena = Arena.ofAuto();                   // freed with the thread's value
        value = arena.allocate(32, 8);
        length = arena.allocate(ValueLayout.JAVA_INT);
        capture = Downcalls.captureBuffer(arena);
    }

    /** The calling thread's. */
    static CallScratch get() {
        return PER_THREAD.get();
    }
}

package org.jwarp.sys;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;

/** libc through FFM with errno captured: a failing call reports its errno, named for messages. */
class DowncallsTest {

    @Test
    void aFailedCallLeavesItsErrnoInTheCaptureBuffer() throws Throwable {
        // long write(int fd, const void *buf, size_t count): fd -1 is EBADF
        MethodHandle write = Downcalls.require("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.captureBuffer(arena);
            MemorySegment buf = arena.allocate(8);
            long n = (long) write.invokeExact(capture, -1, buf, 8L);
            assertEquals(-1, n);
            assertEquals(Errno.EBADF, Downcalls.errno(capture));
            assertEquals("EBADF", Errno.name(Downcalls.errno(capture)));
            assertEquals("Bad file descriptor (errno 9)", Errno.describe(Downcalls.errno(capture)));
        }
    }

    @Test
    void aCallWithoutCaptureLeavesItsErrnoForTheHint() throws Throwable {
        MethodHandle write = Downcalls.requireWithoutErrno("write",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(8);
            // loading ErrnoHint runs the JVM's own code, which may set errno: the reason it is a hint
            ErrnoHint.read();
            assertEquals(-1, (long) write.invokeExact(-1, buf, 8L));
            assertEquals(Errno.EBADF, ErrnoHint.read());
            // another call's failure replaces it: kill(no such process, 0) is ESRCH
            MethodHandle kill = Downcalls.requireWithoutErrno("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
            assertEquals(-1, (int) kill.invokeExact(Integer.MAX_VALUE, 0));
            assertEquals(Errno.ESRCH, ErrnoHint.read());
            assertEquals(-1, (long) write.invokeExact(-1, buf, 8L));
            assertEquals(Errno.EBADF, ErrnoHint.read());
        }
    }

    @Test
    void aFunctionLibcLacksIsNamed() {
        assertTrue(Downcalls.find("no_such_function_in_libc", FunctionDescriptor.ofVoid()).isEmpty());
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> Downcalls.require("no_such_function_in_libc", FunctionDescriptor.ofVoid()));
        assertEquals("libc has no no_such_function_in_libc()", e.getMessage());
    }

    @Test
    void unknownErrnoValuesStillSayTheirNumber() {
        assertEquals("errno", Errno.name(4095));
        assertEquals("error (errno 4095)", Errno.describe(4095));
    }
}

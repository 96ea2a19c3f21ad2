package org.jwarp.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * epoll and eventfd through FFM: a signalled eventfd is reported with its token until drained, a
 * removed descriptor is reported no more, a wait with nothing to report ends at its timeout, and a
 * bad descriptor is refused with its errno named.
 */
class EpollTest {

    @Test
    void aSignalIsReportedWithItsTokenUntilDrained() throws IOException {
        try (Epoll epoll = new Epoll(); EventFd wake = new EventFd(); Arena arena = Arena.ofConfined()) {
            MemorySegment events = Epoll.events(arena, 4);
            MemorySegment timespec = arena.allocate(16, 8);
            epoll.add(wake.fd(), Epoll.EPOLLIN, 0x1234_5678_9abcL);
            assertEquals(0, epoll.wait(events, 4, 0, timespec), "nothing before the signal");
            wake.signal();
            wake.signal();
            assertEquals(1, epoll.wait(events, 4, 1_000_000_000L, timespec));
            assertEquals(0x1234_5678_9abcL, Epoll.tokenOf(events, 0));
            assertEquals(Epoll.EPOLLIN, Epoll.eventsOf(events, 0) & Epoll.EPOLLIN);
            assertEquals(1, epoll.wait(events, 4, 0, timespec), "level-triggered: reported again");
            wake.drain();
            assertEquals(0, epoll.wait(events, 4, 0, timespec), "drained: no more");
            wake.signal();
            epoll.remove(wake.fd());
            assertEquals(0, epoll.wait(events, 4, 0, timespec), "removed: no more");
            epoll.remove(wake.fd());                // already gone: no failure
        }
    }

    @Test
    void aWaitWithNothingEndsAtItsTimeout() throws IOException {
        try (Epoll epoll = new Epoll(); Arena arena = Arena.ofConfined()) {
            MemorySegment events = Epoll.events(arena, 1);
            MemorySegment timespec = arena.allocate(16, 8);
            long start = System.nanoTime();
            assertEquals(0, epoll.wait(events, 1, 20_000_000L, timespec));
            assertTrue(System.nanoTime() - start >= 15_000_000L, "waited about its 20 ms");
        }
    }

    @Test
    void aBadDescriptorIsRefusedWithItsErrno() throws IOException {
        try (Epoll epoll = new Epoll()) {
            IOException e = assertThrows(IOException.class, () -> epoll.add(-1, Epoll.EPOLLIN, 0));
            assertEquals("epoll_ctl add -1: Bad file descriptor (errno 9)", e.getMessage());
        }
    }
}

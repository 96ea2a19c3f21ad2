package org.jwarp.engine.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's command queue is bounded, keeps order, and lets a caller claim room before it acts. */
class CommandQueueTest {

    @Test
    void holdsAtMostItsCapacityInOrder() {
        CommandQueue q = new CommandQueue(3);
        List<Runnable> offered = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Runnable r = () -> { };
            offered.add(r);
            assertTrue(q.offer(r));
        }
        assertFalse(q.offer(() -> { }), "a fourth command is refused");
        assertEquals(3, q.size());
        assertSame(offered.get(0), q.poll());
        assertTrue(q.offer(offered.get(0)), "a command taken makes room for one");
        assertSame(offered.get(1), q.poll());
        assertSame(offered.get(2), q.poll());
        assertSame(offered.get(0), q.poll());
        assertNull(q.poll());
        assertEquals(0, q.size());
    }

    @Test
    void aReservationHoldsItsRoomUntilPut() {
        CommandQueue q = new CommandQueue(1);
        assertTrue(q.reserve());
        assertFalse(q.offer(() -> { }), "the reserved room is taken");
        assertFalse(q.reserve());
        assertNull(q.poll(), "nothing is queued until the reservation is put");
        Runnable r = () -> { };
        q.put(r);
        assertSame(r, q.poll());
        assertTrue(q.offer(() -> { }));
    }

    @Test
    void aQueueHoldsAtLeastOneCommand() {
        assertThrows(IllegalArgumentException.class, () -> new CommandQueue(0));
    }
}

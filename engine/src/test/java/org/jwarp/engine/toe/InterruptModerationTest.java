package org.jwarp.engine.toe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The interrupt moderation rule, cycle by cycle, with made-up time: no sockets, no threads. */
class InterruptModerationTest {

    /** 8 KiB buffers, 8 of them, all a socket's share (a wake-up per 4 full ones), 100 µs fill timeout. */
    static final ToeConfig CONFIG = ToeConfig.defaults().withReceiveBuffer(8192, 8).withFillTimeout(100_000);
    static final int FULL = 8192;

    @Test
    void aCycleWithoutEventsRaisesNothing() {
        InterruptModeration m = new InterruptModeration(CONFIG);
        assertFalse(m.due(0));
        assertEquals(Long.MAX_VALUE, m.deadline());
    }

    @Test
    void fullBuffersWaitForHalfTheShare() {
        assertEquals(8, CONFIG.buffersPerSocket(), "the share: every buffer of the pool");
        InterruptModeration m = new InterruptModeration(CONFIG);
        for (int cycle = 0; cycle < 3; cycle++) {
            m.posted(Event.Kind.RECEIVED, FULL);
            assertFalse(m.due(1_000 + cycle), "full buffer " + (cycle + 1) + " of 4 is held");
        }
        assertEquals(1_000 + 100_000, m.deadline(), "the fill timeout after the cycle of the first");
        m.posted(Event.Kind.RECEIVED, FULL);
        assertTrue(m.due(1_003), "the 4th full buffer is half the share");
        assertEquals(Long.MAX_VALUE, m.deadline());
        assertFalse(m.due(1_004), "nothing new since");
    }

    @Test
    void aHeldBufferIsRaisedExactlyAtTheDeadline() {
        InterruptModeration m = new InterruptModeration(CONFIG);
        m.posted(Event.Kind.RECEIVED, FULL);
        assertFalse(m.due(5_000));
        assertFalse(m.due(5_000 + 99_999), "1 ns before the fill timeout");
        assertTrue(m.due(5_000 + 100_000), "at the fill timeout");
        assertFalse(m.due(5_000 + 200_000), "raised once");
        m.posted(Event.Kind.RECEIVED, FULL);
        assertFalse(m.due(300_000), "a new hold starts its own time");
        assertEquals(400_000, m.deadline());
    }

    @Test
    void anyOtherEventRaisesAtOnceWithEverythingHeld() {
        for (Event.Kind urgent : new Event.Kind[] {Event.Kind.END_OF_STREAM, Event.Kind.SENT, Event.Kind.CONNECTED,
                Event.Kind.ACCEPTED, Event.Kind.LISTENING, Event.Kind.FAILED, Event.Kind.CLOSED}) {
            InterruptModeration m = new InterruptModeration(CONFIG);
            m.posted(Event.Kind.RECEIVED, FULL);
            assertFalse(m.due(0));
            m.posted(urgent, 0);
            assertTrue(m.due(1), urgent + " raises the interrupt");
            assertEquals(Long.MAX_VALUE, m.deadline(), urgent + " covered the held buffer");
        }
        InterruptModeration m = new InterruptModeration(CONFIG);
        m.posted(Event.Kind.RECEIVED, FULL - 1);
        assertTrue(m.due(0), "a partly filled buffer: the stream paused or the fill timeout passed");
    }

    @Test
    void withoutAFillTimeoutEveryCycleThatPostedRaises() {
        InterruptModeration m = new InterruptModeration(CONFIG.withFillTimeout(0));
        m.posted(Event.Kind.RECEIVED, FULL);
        assertTrue(m.due(0));
    }
}

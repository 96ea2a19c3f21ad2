package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The read queues start empty and grow to their negotiated depth, keeping request order across a wrap. */
class ReadQueueGrowthTest {

    @Test
    void outboundQueueKeepsOrderWhileItGrowsAcrossAWrap() {
        OutboundReadQueue q = new OutboundReadQueue(10);
        long next = 0;
        long expected = 0;
        for (int i = 0; i < 3; i++) {
            q.push(next, true, 7, next * 100, next + 1);
            next++;
        }
        for (int i = 0; i < 2; i++) {          // the head moves, so the next growth copies a wrapped ring
            assertEquals(expected++, q.headWrId());
            q.pop();
        }
        while (!q.full()) {
            q.push(next, true, 7, next * 100, next + 1);
            next++;
        }
        assertEquals(10, q.size(), "full at ORD, not at an array's length");
        while (q.size() > 0) {
            assertEquals(expected, q.headWrId());
            assertEquals(expected * 100, q.headNextTo());
            assertEquals(expected + 1, q.headLength());
            expected++;
            q.pop();
        }
        assertEquals(next, expected);
    }

    @Test
    void inboundQueueIsFullAtIrdAndAnswersInArrivalOrder() {
        InboundReadQueue q = new InboundReadQueue(5);
        assertTrue(q.isEmpty());
        for (int i = 0; i < 5; i++) {
            assertFalse(q.full());
            q.push(i, i * 10L, i + 1, null, 0);
        }
        assertTrue(q.full());
        for (int i = 0; i < 5; i++) {
            assertEquals(i, q.headSinkStag());
            assertEquals(i * 10L, q.headSinkTo());
            assertEquals(i + 1, q.headSize());
            q.pop();
        }
        assertTrue(q.isEmpty());
    }
}

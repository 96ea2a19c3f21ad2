package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * The engine thread's staging buffers: a buffer given back is lent again; as many spares are kept
 * as were lent at once (a cycle whose writes wait for one batched flush holds one per connection),
 * so that cycle after cycle makes no new buffer; a pool that never lent more than a few keeps a few,
 * and one trimmed after its thread slept keeps a few again.
 */
class StagingPoolTest {

    @Test
    void aBufferGivenBackIsLentAgain() {
        StagingPool pool = new StagingPool();
        Staging s = pool.borrow();
        pool.give(s);
        assertSame(s, pool.borrow());
        assertEquals(1, pool.made());
    }

    @Test
    void cyclesThatLendManyAtOnceMakeThemOnlyOnce() {
        StagingPool pool = new StagingPool();
        int connections = 3 * StagingPool.MAX_SPARE;
        Staging[] held = new Staging[connections];
        for (int cycle = 0; cycle < 5; cycle++) {
            for (int i = 0; i < connections; i++) {
                held[i] = pool.borrow();
            }
            for (int i = 0; i < connections; i++) {
                pool.give(held[i]);
            }
        }
        assertEquals(connections, pool.made(), "every cycle after the first reuses the spares");
    }

    @Test
    void aTrimAfterASleepKeepsOnlyTheFewAgain() {
        StagingPool pool = new StagingPool();
        int connections = 3 * StagingPool.MAX_SPARE;
        Staging[] held = new Staging[connections];
        for (int i = 0; i < connections; i++) {
            held[i] = pool.borrow();
        }
        for (int i = 0; i < connections; i++) {
            pool.give(held[i]);
        }
        pool.trim();
        for (int i = 0; i < connections; i++) {
            held[i] = pool.borrow();
        }
        assertEquals(2 * connections - StagingPool.MAX_SPARE, pool.made(),
                "after the trim only " + StagingPool.MAX_SPARE + " spares were left to lend");
        for (int i = 0; i < connections; i++) {
            pool.give(held[i]);
        }
        for (int i = 0; i < connections; i++) {
            held[i] = pool.borrow();
        }
        assertEquals(2 * connections - StagingPool.MAX_SPARE, pool.made(), "a new burst is kept again");
    }

    @Test
    void sparesStopAtTheMostOneFlushCarries() {
        StagingPool pool = new StagingPool();
        int lent = StagingPool.MAX_KEPT + 6;
        Staging[] held = new Staging[lent];
        for (int i = 0; i < lent; i++) {
            held[i] = pool.borrow();
        }
        for (int i = 0; i < lent; i++) {
            pool.give(held[i]);
        }
        for (int i = 0; i < lent; i++) {
            held[i] = pool.borrow();
        }
        assertEquals(lent + 6, pool.made(), "only " + StagingPool.MAX_KEPT + " were kept");
    }
}

package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * The engine thread's staging buffers: a buffer given back is lent again; as many spares are kept
 * as were lent at once (a cycle whose writes wait for one batched flush holds one per connection),
 * so that cycle after cycle makes no new buffer; a pool that never lent more than a few keeps a few.
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

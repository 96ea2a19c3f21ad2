package org.jwarp.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The C baseline builds with the machine's compiler and runs its two processes to the end: every
 * round counted, the server and client each checking the other's stamps (a 1-byte message wraps
 * its stamp, a 64-byte one carries all 8 bytes), figures ordered.
 */
class CPingPongTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 8, 64})
    void runsEveryRoundWithCheckedEchoes(int size) throws Exception {
        Assumptions.assumeTrue(CPingPong.why() == null, () -> "no C baseline here: " + CPingPong.why());
        CPingPong.Result r = CPingPong.run(size, 600, 50);
        assertEquals(600, r.rounds());
        assertTrue(r.typicalMicros() > 0 && r.p99Micros() >= r.typicalMicros(), r.toString());
    }
}

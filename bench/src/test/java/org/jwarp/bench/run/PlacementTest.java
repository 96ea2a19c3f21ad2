package org.jwarp.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The TOAD arrangement: no engine thread shares a CPU with its own application's thread. */
class PlacementTest {

    @Test
    void twoCpusCrossBetweenTheSides() {
        assertEquals(new Placement(0, 1, List.of(1), List.of(0)), Placement.toad(List.of(0, 1), true, false, 1));
        assertEquals(new Placement(0, -1, List.of(1), List.of()), Placement.toad(List.of(0, 1), false, false, 1));
        assertEquals(new Placement(1, -1, List.of(0), List.of()), Placement.toad(List.of(0, 1), false, true, 1));
    }

    @Test
    void fourCpusGiveEveryThreadItsOwn() {
        List<Integer> cpus = List.of(2, 3, 6, 7);
        assertEquals(new Placement(2, 3, List.of(6), List.of(7)), Placement.toad(cpus, true, false, 1));
        assertEquals(new Placement(2, -1, List.of(3), List.of()), Placement.toad(cpus, false, false, 1));
        assertEquals(new Placement(6, -1, List.of(7), List.of()), Placement.toad(cpus, false, true, 1));
    }

    @Test
    void noEngineSharesItsApplicationsCpu() {
        for (int n = 2; n <= 9; n++) {
            List<Integer> cpus = java.util.stream.IntStream.range(0, n).boxed().toList();
            for (int engines = 1; engines <= 3; engines++) {
                Placement loop = Placement.toad(cpus, true, false, engines);
                assertEquals(engines, loop.clientEngine().size());
                assertEquals(engines, loop.serverEngine().size());
                assertTrue(!loop.clientEngine().contains(loop.clientApp()), loop.toString());
                assertTrue(!loop.serverEngine().contains(loop.serverApp()), loop.toString());
                for (boolean server : new boolean[] {false, true}) {
                    Placement one = Placement.toad(cpus, false, server, engines);
                    assertEquals(engines, one.clientEngine().size());
                    assertTrue(!one.clientEngine().contains(one.clientApp()), one.toString());
                }
            }
        }
    }

    @Test
    void oneCpuIsRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Placement.toad(List.of(0), true, false, 1));
        assertEquals("the TOAD arrangement needs two CPUs (an application CPU and an engine CPU); this process may use 1",
                e.getMessage());
    }
}

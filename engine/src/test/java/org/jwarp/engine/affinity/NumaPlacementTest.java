package org.jwarp.engine.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Engine threads on NUMA nodes, on described topologies (this machine has one node), and the
 * memory policy call on this machine's real kernel.
 */
class NumaPlacementTest {

    @TempDir
    Path sysfs;

    private NumaTopology topology(String... cpulists) throws IOException {
        for (int n = 0; n < cpulists.length; n++) {
            Path dir = Files.createDirectories(sysfs.resolve("node" + n));
            Files.writeString(dir.resolve("cpulist"), cpulists[n] + "\n");
        }
        return NumaTopology.read(sysfs);
    }

    @Test
    void engineThreadsAreSpreadOverNodesOneCpuEach() throws IOException {
        NumaPlacement.Plan p = NumaPlacement.plan(topology("0-3", "4-7"), Cpus.parse("0-7"), 4);
        assertEquals(List.of(0, 4, 1, 5), p.cpus());
        assertEquals(List.of(0, 1, 0, 1), p.nodes());
    }

    @Test
    void onlyAllowedCpusAreUsedAndANodeWithoutThemIsSkipped() throws IOException {
        NumaPlacement.Plan p = NumaPlacement.plan(topology("0-3", "4-7", "8-11"), Cpus.parse("2,3,9"), 3);
        assertEquals(List.of(2, 9, 3), p.cpus());
        assertEquals(List.of(0, 2, 0), p.nodes());
    }

    @Test
    void moreEngineThreadsThanCpusShareThemInTurn() throws IOException {
        NumaPlacement.Plan p = NumaPlacement.plan(topology("0-1"), Cpus.parse("0-1"), 3);
        assertEquals(List.of(0, 1, 0), p.cpus());
        assertEquals(List.of(0, 0, 0), p.nodes());
    }

    @Test
    void anUnknownTopologyUsesTheAllowedCpusInOrder() {
        NumaPlacement.Plan p = NumaPlacement.plan(NumaTopology.read(sysfs.resolve("absent")), Cpus.parse("1,3"), 2);
        assertEquals(List.of(1, 3), p.cpus());
        assertEquals(List.of(-1, -1), p.nodes());
        assertThrows(IllegalArgumentException.class,
                () -> NumaPlacement.plan(NumaTopology.read(sysfs), Cpus.EMPTY, 1));
    }

    /** The real mbind on this machine's node 0: the kernel reports the policy in /proc/self/numa_maps. */
    @Test
    void memoryIsPreferredOnANodeByTheKernel() throws IOException {
        assumeTrue(MemoryPolicy.unsupportedReason() == null, String.valueOf(MemoryPolicy.unsupportedReason()));
        assumeTrue(NumaTopology.read().isKnown(), "no NUMA nodes in sysfs");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(1 << 20, 4096);
            m.fill((byte) 1);                                   // pages in place before the call: they move
            assertNull(MemoryPolicy.preferNode(m, 0));
            String start = Long.toHexString(m.address());
            String line = Files.readAllLines(Path.of("/proc/self/numa_maps")).stream()
                    .filter(l -> l.startsWith(start + " ")).findFirst().orElseThrow(
                            () -> new AssertionError("no numa_maps line for " + start));
            assertTrue(line.contains("prefer:0"), line);
        }
        assertTrue(MemoryPolicy.preferNode(MemorySegment.ofArray(new byte[8]), 0).contains("only native memory"));
    }
}

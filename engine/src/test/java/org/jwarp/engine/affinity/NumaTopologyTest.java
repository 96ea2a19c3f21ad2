package org.jwarp.engine.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NumaTopologyTest {

    @TempDir
    Path dir;

    private void node(String name, String cpulist) throws IOException {
        Path n = Files.createDirectories(dir.resolve(name));
        Files.writeString(n.resolve("cpulist"), cpulist);
    }

    @Test
    void readsEveryNodesCpulist() throws IOException {
        node("node0", "0-3,8-11\n");
        node("node1", "4-7,12-15\n");
        node("node2", "\n");                               // memory only
        Files.createDirectories(dir.resolve("power"));      // other sysfs entries are ignored
        Files.createDirectories(dir.resolve("nodeX"));
        NumaTopology t = NumaTopology.read(dir);
        assertTrue(t.isKnown());
        assertEquals(List.of(0, 1, 2), List.copyOf(t.nodes().keySet()));
        assertEquals(0, t.nodeOf(9));
        assertEquals(1, t.nodeOf(12));
        assertEquals(-1, t.nodeOf(16));
        assertTrue(t.cpusOf(2).isEmpty());
        assertEquals(Cpus.parse("4-7,12-15"), t.cpusOf(1));
        assertTrue(t.cpusOf(7).isEmpty());
    }

    @Test
    void missingDirectoryMeansUnknown() {
        NumaTopology t = NumaTopology.read(dir.resolve("absent"));
        assertFalse(t.isKnown());
        assertEquals(-1, t.nodeOf(0));
    }

    @Test
    void malformedFileIsNamed() throws IOException {
        node("node0", "0-x\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NumaTopology.read(dir));
        assertTrue(e.getMessage().contains("node0") && e.getMessage().contains("cpulist"), e.getMessage());
    }

    /** This machine: every CPU we may run on belongs to some node (likely one node). */
    @Test
    void thisMachinesNodesCoverOurCpus() {
        assumeTrue(Files.isDirectory(NumaTopology.SYSFS_NODES), "no NUMA information in sysfs");
        NumaTopology t = NumaTopology.read();
        assertTrue(t.isKnown(), t.toString());
        if (ThreadAffinity.isSupported()) {
            for (int cpu : ThreadAffinity.getAffinity().orElseThrow().toArray()) {
                assertTrue(t.nodeOf(cpu) >= 0, "cpu " + cpu + " in " + t);
            }
        }
    }
}

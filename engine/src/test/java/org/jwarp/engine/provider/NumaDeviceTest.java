package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jwarp.engine.affinity.MemoryPolicy;
import org.jwarp.engine.affinity.NumaTopology;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;

/** A device with NUMA placement puts registered memory on the registering thread's node (the kernel says so). */
class NumaDeviceTest {

    @Test
    void registeredMemoryIsPreferredOnTheRegisteringThreadsNode() throws Exception {
        assumeTrue(MemoryPolicy.unsupportedReason() == null, String.valueOf(MemoryPolicy.unsupportedReason()));
        NumaTopology topology = NumaTopology.read();
        assumeTrue(topology.isKnown() && ThreadAffinity.isSupported(), "no NUMA nodes or CPU numbers here");
        DeviceConfig numa = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(2).numa(true).build()).build();
        try (RdmaDevice dev = RdmaDevice.open(numa); Arena arena = Arena.ofShared()) {
            MemorySegment m = arena.allocate(1 << 20, 4096);
            m.fill((byte) 7);
            int node = topology.nodeOf(ThreadAffinity.currentCpu());
            dev.allocPd().registerMemory(m, Access.LOCAL_WRITE);
            String start = Long.toHexString(m.address());
            String line = Files.readAllLines(Path.of("/proc/self/numa_maps")).stream()
                    .filter(l -> l.startsWith(start + " ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no numa_maps line for " + start));
            assertTrue(line.contains("prefer:" + node), line);
        }
    }
}

package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jwarp.engine.counters.CounterFile;
import org.jwarp.engine.counters.CounterFileReader;
import org.jwarp.engine.counters.CounterScopes;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN rule 9: a device publishes its counters to a file another process can read. Here the
 * reader is the one {@code jwarp stat} uses, the traffic is known, and the values read from the
 * file must be exactly the ones the devices count.
 */
class CounterPublicationTest {

    @TempDir
    Path dir;

    @Test
    void aReaderSeesExactlyTheCountersOfKnownTraffic() throws Exception {
        System.setProperty(CounterFile.DIRECTORY_PROPERTY, dir.toString());
        LoopbackPair p;
        try {
            p = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0], new byte[0]);
        } finally {
            System.clearProperty(CounterFile.DIRECTORY_PROPERTY);
        }
        Path clientFile;
        Path serverFile;
        try (p) {
            JwarpDevice client = (JwarpDevice) p.client.device;
            JwarpDevice server = (JwarpDevice) p.server.device;
            clientFile = client.counterFile();
            serverFile = server.counterFile();
            assertNotNull(clientFile);
            assertEquals(CounterFile.path(dir, ProcessHandle.current().pid(), client.index()), clientFile);
            String clientQp = CounterScopes.qp(p.client.qp.qpNum());
            String serverQp = CounterScopes.qp(p.server.qp.qpNum());

            CounterFileReader.Snapshot c0 = published(client, clientFile);
            CounterFileReader.Snapshot s0 = published(server, serverFile);
            MemoryRegion src = p.client.register(100, Access.LOCAL_WRITE);
            MemoryRegion dst = p.server.register(100, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            for (int i = 0; i < 10; i++) {
                p.client.qp.postSend(new SendWr().wrId(i).opcode(WrOpcode.RDMA_WRITE).addSge(src, 0, 100)
                        .remote(dst.iova(), dst.rkey()));
            }
            // the Read returns after the Writes were placed: then nothing moves any more
            p.client.qp.postSend(new SendWr().wrId(10).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(src, 0, 8)
                    .remote(dst.iova(), dst.rkey()));
            assertSame(WcStatus.SUCCESS, p.client.next().status());
            CounterFileReader.Snapshot c1 = published(client, clientFile);
            CounterFileReader.Snapshot s1 = published(server, serverFile);

            // ten Writes of 14 + 100 bytes and a Read Request of 18 + 28; one Read Response of 14 + 8
            assertEquals(11, delta(c0, c1, clientQp, CounterNames.FPDUS_TX));
            assertEquals(10 * 114 + 46, delta(c0, c1, clientQp, CounterNames.BYTES_TX));
            assertEquals(1, delta(c0, c1, clientQp, CounterNames.FPDUS_RX));
            assertEquals(22, delta(c0, c1, clientQp, CounterNames.BYTES_RX));
            assertEquals(11, delta(s0, s1, serverQp, CounterNames.FPDUS_RX));
            assertEquals(10 * 114 + 46, delta(s0, s1, serverQp, CounterNames.BYTES_RX));
            assertEquals(1, delta(s0, s1, serverQp, CounterNames.FPDUS_TX));
            assertEquals(0, delta(s0, s1, serverQp, CounterNames.RX_DIRECT_BYTES));
            assertTrue(delta(c0, c1, CounterScopes.engine(0), CounterNames.DOORBELLS) >= 11);

            // every published value is the device's own, group by group
            assertEquals(expected(client.counterGroups()), asMap(c1));
            assertEquals(expected(server.counterGroups()), asMap(s1));
            assertEquals(List.of(CounterScopes.DEVICE, CounterScopes.engine(0), CounterScopes.CM, clientQp),
                    c1.groups().stream().map(CounterFileReader.Group::scope).toList());
            assertTrue(c1.label().startsWith("jwarp dedicated"), c1.label());

            List<CounterFileReader.Snapshot> all = CounterFileReader.readAll(dir, true);
            assertEquals(2, all.size());
            assertEquals(List.of(client.index(), server.index()).stream().sorted().toList(),
                    all.stream().map(CounterFileReader.Snapshot::device).toList());

            // a closed QP's counts stay in the engine's and the device's totals, as a NIC's port counters
            long deviceTx = client.counters().get(CounterNames.FPDUS_TX);
            long engineRx = server.engineCounters().getFirst().get(CounterNames.BYTES_RX);
            assertTrue(deviceTx >= 11 && engineRx >= 10 * 114 + 46, deviceTx + " FPDUs, " + engineRx + " bytes");
            p.client.qp.close();
            p.server.qp.close();
            assertTrue(client.counters().get(CounterNames.FPDUS_TX) >= deviceTx, "the device's FPDUs sent went back");
            assertTrue(server.engineCounters().getFirst().get(CounterNames.BYTES_RX) >= engineRx,
                    "the engine's bytes received went back");
            CounterFileReader.Snapshot c2 = published(client, clientFile);
            assertTrue(c2.group(CounterScopes.DEVICE).orElseThrow().get(CounterNames.FPDUS_TX) >= deviceTx);
            assertFalse(c2.group(clientQp).isPresent(), "the closed QP's own group is gone");
        }
        assertFalse(Files.exists(clientFile), "the file goes with the device");
        assertFalse(Files.exists(serverFile));
    }

    @Test
    void aDeviceThatCannotPublishStillWorks() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        System.setProperty(CounterFile.DIRECTORY_PROPERTY, notADirectory.resolve("sub").toString());
        try (LoopbackPair.End end = new LoopbackPair.End(LoopbackPair.invoker())) {
            assertEquals(null, ((JwarpDevice) end.device).counterFile());
            assertEquals(0, end.device.counters().get(CounterNames.FPDUS_TX));
        } finally {
            System.clearProperty(CounterFile.DIRECTORY_PROPERTY);
        }
        System.setProperty(CounterFile.DIRECTORY_PROPERTY, "off");
        try (LoopbackPair.End end = new LoopbackPair.End(LoopbackPair.invoker())) {
            assertEquals(null, ((JwarpDevice) end.device).counterFile());
        } finally {
            System.clearProperty(CounterFile.DIRECTORY_PROPERTY);
        }
    }

    /** A snapshot published after this call: waits (with a deadline) for the publish count to pass two more. */
    static CounterFileReader.Snapshot published(JwarpDevice device, Path file) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
        long first = CounterFileReader.read(file).publishCount();
        while (true) {
            CounterFileReader.Snapshot s = CounterFileReader.read(file);
            // one more could have begun before this call; the second began after it
            if (s.publishCount() >= first + 2) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("device " + device.index() + " published nothing new within " + LoopbackPair.WAIT);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // poll the file, not the CPU
        }
    }

    static long delta(CounterFileReader.Snapshot before, CounterFileReader.Snapshot after, String scope, String name) {
        return after.group(scope).orElseThrow().get(name) - before.group(scope).orElseThrow().get(name);
    }

    /**
     * Counters that move while nothing happens (an idle engine's parks, its CPU time, the empty reads
     * of its spinning phase): left out of equality.
     */
    static final java.util.Set<String> MOVING = java.util.Set.of(CounterNames.SOCKET_READS, org.jwarp.engine.counters.EngineCounters.IDLE_PARKS,
            CounterNames.CPU_NS);

    static Map<String, Map<String, Long>> expected(List<Counters> groups) {
        Map<String, Map<String, Long>> m = new java.util.LinkedHashMap<>();
        for (Counters c : groups) {
            Map<String, Long> v = new java.util.LinkedHashMap<>(c.snapshot());
            v.keySet().removeAll(MOVING);
            m.put(c.scope(), v);
        }
        return m;
    }

    static Map<String, Map<String, Long>> asMap(CounterFileReader.Snapshot s) {
        Map<String, Map<String, Long>> m = new java.util.LinkedHashMap<>();
        for (CounterFileReader.Group g : s.groups()) {
            Map<String, Long> v = new java.util.LinkedHashMap<>();
            for (int i = 0; i < g.names().size(); i++) {
                if (!MOVING.contains(g.names().get(i))) {
                    v.put(g.names().get(i), g.values()[i]);
                }
            }
            m.put(g.scope(), v);
        }
        return m;
    }
}

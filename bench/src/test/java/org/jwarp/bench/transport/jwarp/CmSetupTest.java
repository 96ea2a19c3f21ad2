package org.jwarp.bench.transport.jwarp;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * The connection setup the perf tests' sessions and the experiments' sides share: two devices in
 * this process connect over loopback, each side's region key travels in the MPA private data, and
 * a WRITE to the key the server gave lands in the server's region; failures are one line.
 */
class CmSetupTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final InetSocketAddress ANY_LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private static DeviceConfig config() {
        return DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).build()).build();
    }

    @Test
    void regionKeysCrossInThePrivateDataAndAWriteToTheServersLandsThere() throws Exception {
        CmSetup.OpenDevice opened = CmSetup.open(config());
        assertFalse(opened.engineThreads().isEmpty(), "a dedicated device starts an engine thread of its own");
        try (Arena arena = Arena.ofShared(); RdmaDevice server = opened.device();
             RdmaDevice client = CmSetup.open(config()).device()) {
            ProtectionDomain spd = server.allocPd();
            ProtectionDomain cpd = client.allocPd();
            CompletionQueue scq = server.createCq(16, null);
            CompletionQueue ccq = client.createCq(16, null);
            MemoryRegion target = spd.registerMemory(arena.allocate(64, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            MemoryRegion source = cpd.registerMemory(arena.allocate(64, 64), Access.LOCAL_WRITE);
            QueuePair sqp = server.createQp(spd, QpInitAttr.builder(scq, scq).build());
            QueuePair cqp = client.createQp(cpd, QpInitAttr.builder(ccq, ccq).build());
            CmEventQueue serverEvents = new CmEventQueue();
            CmEventQueue clientEvents = new CmEventQueue();
            try (Listener listener = CmSetup.listen(server, ANY_LOOPBACK, 1, serverEvents)) {
                CompletableFuture<RemoteBuffer> fromClient = CompletableFuture.supplyAsync(() -> {
                    ConnectionRequest r = CmSetup.awaitRequest(serverEvents, server, WAIT, "the client");
                    RemoteBuffer theirs = RemoteBuffer.decode(r.privateData());
                    CmSetup.accept(r, sqp, CmSetup.accepting(RemoteBuffer.of(target).encode()), serverEvents, server,
                            WAIT);
                    return theirs;
                });
                CmEvent.Established up = CmSetup.connect(client, listener.localAddress(), cqp,
                        CmSetup.connecting(RemoteBuffer.of(source).encode()), clientEvents, WAIT);
                RemoteBuffer serverBuffer = RemoteBuffer.decode(up.peerPrivateData());
                assertEquals(RemoteBuffer.of(target), serverBuffer);
                assertEquals(RemoteBuffer.of(source), fromClient.get(WAIT.toSeconds(), TimeUnit.SECONDS));

                byte[] bytes = new byte[64];
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = (byte) (i * 5 + 1);
                }
                MemorySegment.copy(MemorySegment.ofArray(bytes), 0, source.segment(), 0, bytes.length);
                SendWr write = new SendWr(1).wrId(7).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                        .addSge(source, 0, bytes.length).remote(serverBuffer.addr(), serverBuffer.rkey());
                assertTrue(PostStatus.isOk(cqp.postSend(write)));
                WorkCompletion[] wcs = {new WorkCompletion()};
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (ccq.poll(wcs) == 0) {
                    assertTrue(System.nanoTime() < deadline, "no WRITE completion");
                    Thread.onSpinWait();
                }
                assertTrue(wcs[0].isSuccess(), wcs[0].toString());
                // the completion says the data left; wait until it is placed
                while (!Arrays.equals(bytes, target.segment().toArray(JAVA_BYTE))
                        && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertArrayEquals(bytes, target.segment().toArray(JAVA_BYTE));
                CmSetup.disconnect(client, cqp, clientEvents, WAIT);
            }
        }
    }

    @Test
    void aPortInUseAndNoServerAreOneLineEach() throws Exception {
        try (RdmaDevice device = CmSetup.open(config()).device(); ServerSocket taken = new ServerSocket(0, 1,
                InetAddress.getLoopbackAddress())) {
            CmEventQueue events = new CmEventQueue();
            InetSocketAddress busy = new InetSocketAddress(InetAddress.getLoopbackAddress(), taken.getLocalPort());
            PerfException inUse = assertThrows(PerfException.class, () -> CmSetup.listen(device, busy, 1, events));
            assertEquals("port " + taken.getLocalPort() + " is in use: stop what uses it, or give another port with -p",
                    inUse.getMessage());
            int free;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                free = probe.getLocalPort();
            }
            ProtectionDomain pd = device.allocPd();
            CompletionQueue cq = device.createCq(4, null);
            QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).build());
            InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", free);
            PerfException refused = assertThrows(PerfException.class, () -> CmSetup.connect(device, nobody, qp,
                    CmSetup.connecting(new byte[0]), events, WAIT));
            assertEquals("cannot reach 127.0.0.1:" + free + ": Connection refused", refused.getMessage());
        }
    }
}

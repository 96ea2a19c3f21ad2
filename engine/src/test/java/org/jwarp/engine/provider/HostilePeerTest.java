package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.MpaTimeouts;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.mpa.MpaVectors;
import org.junit.jupiter.api.Test;

/**
 * Connection-setup attacks against a listening device, over real TCP, beside a legitimate
 * connection: each attack ends in exactly one ConnectError on the listener's handler (or a
 * ConnectRequest the application refuses), the legitimate connection keeps moving verified data,
 * and the device's connections, file descriptors and threads are back where they were.
 */
class HostilePeerTest {

    static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void setupAttacksEndCleanlyBesideALegitimateConnection() throws Exception {
        DeviceConfig config = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build())
                // a silent client ends after 300 ms; the application's decision may take long on a loaded
                // machine (a decision timeout would add a second event for the same client)
                .mpaTimeouts(new MpaTimeouts(Duration.ofMillis(300), Duration.ofSeconds(10), Duration.ofMillis(300),
                        Duration.ofSeconds(10)))
                .build();
        try (DevicePair d = new DevicePair(config, 16)) {
            RdmaDevice server = d.server;
            CmEventQueue serverEvents = d.serverEvents;
            Listener listener = d.listener;
            QueuePair cqp = d.connect().client();          // the legitimate connection
            CompletionQueue ccq = d.ccq;
            MemoryRegion target = d.serverRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            MemoryRegion source = d.clientRegion(4096, Access.LOCAL_WRITE);
            MemoryRegion back = d.clientRegion(4096, Access.LOCAL_WRITE);
            long fdsBefore = openFds();
            int threadsBefore = Thread.activeCount();

            byte[] request = MpaVectors.JAVA_REQUEST.bytes();
            byte[] wrongKey = request.clone();
            wrongKey[9] = 'x';
            byte[] hugePrivateData = request.clone();
            hugePrivateData[18] = (byte) 0xFF;                  // private data length 65535 (at most 512)
            hugePrivateData[19] = (byte) 0xFF;
            byte[] absurdDepths = request.clone();
            Arrays.fill(absurdDepths, 20, 24, (byte) 0xFF);     // IRD and ORD 0x3FFF with every flag bit set
            String[] attacks = {"garbage", "truncated", "wrong key", "oversized private data", "silence",
                    "absurd IRD/ORD"};
            byte[][] sends = {"GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                    Arrays.copyOf(request, 10), wrongKey, hugePrivateData, new byte[0], absurdDepths};
            for (int round = 0; round < 3; round++) {
                for (int a = 0; a < attacks.length; a++) {
                    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                        OutputStream out = s.getOutputStream();
                        out.write(sends[a]);
                        out.flush();
                        if (a == 1) {
                            s.shutdownOutput();                 // truncated: the rest never comes
                        }
                        CmEvent e = serverEvents.poll(WAIT, server);
                        assertNotNull(e, attacks[a] + ": no event");
                        if (e instanceof CmEvent.ConnectRequest r) {
                            // a well-formed Request, however odd: the application refuses it
                            assertEquals("absurd IRD/ORD", attacks[a], "only a well-formed Request reaches the application");
                            // the Reject goes out before this client closes: a client that left while the
                            // application decided would rightly add a ConnectError of its own
                            r.request().reject(new byte[0]).toCompletableFuture().get(WAIT.toSeconds(),
                                    java.util.concurrent.TimeUnit.SECONDS);
                        } else {
                            assertTrue(e instanceof CmEvent.ConnectError, attacks[a] + ": " + e);
                        }
                    }
                }
            }
            // the legitimate connection is untouched: a WRITE and a READ of it move the right bytes
            for (int i = 0; i < 4096; i++) {
                source.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13 + 5));
            }
            assertEquals(PostStatus.OK, cqp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                    .addSge(source, 0, 4096).remote(target.iova(), target.rkey())));
            assertEquals(PostStatus.OK, cqp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true)
                    .addSge(back, 0, 4096).remote(target.iova(), target.rkey())));
            WorkCompletion[] wcs = {new WorkCompletion()};
            for (int done = 0; done < 2; ) {
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (ccq.poll(wcs) == 0) {
                    assertTrue(System.nanoTime() < deadline, "the legitimate connection stalled");
                    Thread.onSpinWait();
                }
                assertSame(WcStatus.SUCCESS, wcs[0].status(), wcs[0].toString());
                done++;
            }
            assertEquals(-1, back.segment().mismatch(source.segment()));
            // what the attacks held is released
            assertEquals(1, ((JwarpDevice) server).connectionCount(), "only the legitimate connection is left");
            // a socket kept per attack would show as 18 more; the JVM opens a few of its own meanwhile
            assertTrue(openFds() < fdsBefore + 9, "file descriptors: " + fdsBefore + " before, " + openFds() + " after");
            assertTrue(Thread.activeCount() < threadsBefore + 4, "threads: " + threadsBefore + " before, "
                    + Thread.activeCount() + " after");
            assertEquals(0, serverEvents.size(), "one event per attack");
        }
    }

    private static long openFds() throws Exception {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }
}

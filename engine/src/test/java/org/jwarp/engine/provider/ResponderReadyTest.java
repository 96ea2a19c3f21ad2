package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.Wire;
import org.jwarp.wire.mpa.MpaVectors;
import org.junit.jupiter.api.Test;

/**
 * A responder is connected before the messages behind the initiator's RTR complete (RFC 6581
 * §9.2): an RPC server that answers a request from the request's receive completion finds its
 * queue pair in RTS and its answer accepted, even when the RTR and the first request arrive in
 * the same bytes — as they do when a client sends the moment it is connected. The client here
 * writes the RTR (a zero-length RDMA Write) and a SEND in one system call; the server's Established
 * event, seen on the engine thread, must come before the SEND's receive completes.
 */
class ResponderReadyTest {

    /** A zero-length RDMA Write, the RTR; CRC on. */
    private static final String RTR_WRITE = "000ec140000000010000000000000000ebd34c5f";
    /** A SEND of "ABCD", MSN 1; CRC on. */
    private static final String SEND_ABCD = "00164143000000000000000000000001000000004142434432e61afb";

    @Test
    void theRtrMakesTheResponderReadyBeforeTheRequestBehindItCompletes() throws Exception {
        DeviceConfig cfg = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build()).build();
        try (RdmaDevice dev = RdmaDevice.open(cfg)) {
            CmEventQueue listenerEvents = new CmEventQueue();
            Listener listener = dev.connectionManager().listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    4, listenerEvents);
            ProtectionDomain pd = dev.allocPd();
            MemoryRegion inbox = pd.registerMemory(java.lang.foreign.Arena.global().allocate(64), Access.LOCAL_WRITE);
            WorkCompletion[] wcs = {new WorkCompletion()};
            for (int round = 0; round < 30; round++) {
                CompletionQueue cq = dev.createCq(64, null);      // a queue per round: the last one's flushes stay there
                QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
                assertEquals(PostStatus.OK, qp.postRecv(new RecvWr().wrId(round).addSge(inbox, 0, 64)));
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.localAddress().getPort())) {
                    s.setTcpNoDelay(true);
                    OutputStream out = s.getOutputStream();
                    out.write(MpaVectors.P2P_REQUEST.bytes());          // peer-to-peer, offering Write and Read RTRs
                    CmEvent.ConnectRequest r = DevicePair.expect(listenerEvents, CmEvent.ConnectRequest.class, dev);
                    // the connection's events are seen on the engine thread as they happen: when the
                    // Established event comes, the request behind the RTR must not have completed yet
                    int[] completedBeforeRts = {-1};
                    WorkCompletion[] early = {new WorkCompletion()};
                    CmEventQueue events = new CmEventQueue();
                    r.request().accept(qp, AcceptParams.of(new byte[0]), e -> {
                        if (e instanceof CmEvent.Established) {
                            completedBeforeRts[0] = cq.poll(early);
                        }
                        events.onCmEvent(e);
                    });
                    byte[] reply = new byte[24];
                    new DataInputStream(s.getInputStream()).readFully(reply);
                    assertEquals("MPA ID Rep Frame", new String(reply, 0, 16, StandardCharsets.US_ASCII));
                    out.write(Wire.unhex(RTR_WRITE + SEND_ABCD));      // the RTR and the request in one write
                    CmEvent up = events.poll(DevicePair.WAIT, dev);
                    assertTrue(up instanceof CmEvent.Established, "round " + round + ": " + up);
                    assertEquals(0, completedBeforeRts[0], "round " + round + ": the request completed before the RTR"
                            + " made the queue pair RTS");
                    long deadline = System.nanoTime() + DevicePair.WAIT.toNanos();
                    while (cq.poll(wcs) == 0) {
                        assertTrue(System.nanoTime() < deadline, "round " + round + ": the request did not complete");
                        Thread.onSpinWait();
                    }
                    assertSame(WcOpcode.RECV, wcs[0].opcode(), wcs[0].toString());
                    assertSame(QpState.RTS, qp.state());
                    assertEquals(PostStatus.OK, qp.postSend(new SendWr().wrId(100 + round).opcode(WrOpcode.SEND)
                            .addSge(inbox, 0, 4)), "round " + round + ": the answer was refused");
                }
                qp.close();
            }
            listener.close();
        }
    }
}

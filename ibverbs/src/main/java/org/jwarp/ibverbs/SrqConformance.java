package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.SharedReceiveQueue;
import org.jwarp.verbs.SrqInitAttr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * {@link Conformance}'s shared receive queue check: a queue pair created on an SRQ, connected from
 * the device to itself, takes SENDs of 0, 1 and 4097 bytes from receives posted to the SRQ, in
 * posting order; each completion is on the queue pair's receive CQ, names that queue pair, and the
 * bytes are the sender's.
 */
final class SrqConformance {

    static final List<Integer> SIZES = List.of(0, 1, 4097);
    private static final int SLOT = 8192;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private SrqConformance() {
    }

    /**
     * Runs the check.
     *
     * @throws Conformance.Skipped   if the device refuses shared receive queues (the reason is its own)
     * @throws IllegalStateException naming what was not as expected
     */
    static void run(RdmaDevice device, String address) throws InterruptedException {
        try (Arena arena = Arena.ofShared(); ProtectionDomain pd = device.allocPd()) {
            SharedReceiveQueue srq;
            try {
                srq = device.createSrq(pd, new SrqInitAttr(16, 1, 0));
            } catch (UnsupportedOperationException e) {
                throw new Conformance.Skipped(e.getMessage());
            }
            MemoryRegion in = pd.registerMemory(arena.allocate((long) SLOT * SIZES.size(), 4096), Access.LOCAL_WRITE);
            MemoryRegion out = pd.registerMemory(arena.allocate((long) SLOT * SIZES.size(), 4096), Access.LOCAL_WRITE);
            CompletionQueue cq = device.createCq(32, null);
            QueuePair server = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(4).maxRecvWr(4).maxSendSge(1)
                    .maxRecvSge(1).maxInlineData(0).srq(srq).build());
            QueuePair client = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(8).maxRecvWr(4).maxSendSge(1)
                    .maxRecvSge(1).maxInlineData(0).build());
            for (int i = 0; i < SIZES.size(); i++) {
                int rc = srq.postRecv(new RecvWr(1).wrId(900 + i).addSge(in, (long) i * SLOT, SLOT));
                expect(PostStatus.isOk(rc), "post_srq_recv " + i + ": " + PostStatus.toString(rc));
            }
            CmEventQueue serverEvents = new CmEventQueue();
            CmEventQueue clientEvents = new CmEventQueue();
            try (Listener listener = device.connectionManager().listen(new InetSocketAddress(address, 0), 4, serverEvents)) {
                device.connectionManager().connect(listener.localAddress(), client, ConnectParams.of(new byte[0]), clientEvents);
                CmEvent.ConnectRequest req = serverEvents.expect(CmEvent.ConnectRequest.class, WAIT, device);
                expect(req != null, "a connect request");
                req.request().accept(server, new byte[0]);
                expect(clientEvents.expect(CmEvent.Established.class, WAIT, device) != null, "the client established");
                expect(serverEvents.expect(CmEvent.Established.class, WAIT, device) != null, "the server established");
                exchange(device, cq, client, server, in.segment(), out);
                device.connectionManager().disconnect(client);
                clientEvents.expect(CmEvent.Disconnected.class, WAIT, device);
            }
            client.close();
            server.close();
            srq.close();
            cq.close();
            in.deregister();
            out.deregister();
        }
    }

    private static void exchange(RdmaDevice device, CompletionQueue cq, QueuePair client, QueuePair server,
                                 MemorySegment in, MemoryRegion out) {
        for (int i = 0; i < SIZES.size(); i++) {
            int size = SIZES.get(i);
            for (int b = 0; b < size; b++) {
                out.segment().set(JAVA_BYTE, (long) i * SLOT + b, (byte) (b * 13 + size + i));
            }
            SendWr wr = new SendWr(1).wrId(700 + i).opcode(WrOpcode.SEND).signaled(true);
            if (size > 0) {
                wr.addSge(out, (long) i * SLOT, size);
            }
            int rc = client.postSend(wr);
            expect(PostStatus.isOk(rc), "post_send of " + size + " bytes: " + PostStatus.toString(rc));
        }
        int sends = 0;
        int recvs = 0;
        WorkCompletion[] wcs = {new WorkCompletion()};
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (sends < SIZES.size() || recvs < SIZES.size()) {
            if (cq.poll(wcs, 1) == 0) {
                expect(System.nanoTime() - deadline < 0, "every SEND and receive completed within " + WAIT.toSeconds() + " s");
                device.invoke();
                Thread.onSpinWait();
                continue;
            }
            WorkCompletion wc = wcs[0];
            expect(wc.status() == WcStatus.SUCCESS, "successful completions, got " + wc);
            if (wc.qpNum() == client.qpNum()) {
                expect(wc.wrId() == 700 + sends, "the SENDs completed in order, got " + wc);
                sends++;
                continue;
            }
            int size = SIZES.get(recvs);
            expect(wc.qpNum() == server.qpNum() && wc.wrId() == 900 + recvs && wc.byteLen() == size,
                    "SRQ receive " + (900 + recvs) + " of " + size + " bytes on qp " + server.qpNum() + ", got " + wc);
            for (int b = 0; b < size; b++) {
                byte got = in.get(JAVA_BYTE, (long) recvs * SLOT + b);
                expect(got == (byte) (b * 13 + size + recvs), "byte " + b + " of the " + size + "-byte SEND, got " + got);
            }
            recvs++;
        }
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("expected " + what);
        }
    }
}

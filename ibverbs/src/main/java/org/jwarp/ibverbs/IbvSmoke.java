package org.jwarp.ibverbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;

/**
 * The provider's own check on a real device, without a peer: open the device through the verbs API,
 * register memory, create a completion channel, CQ and RC queue pair, post receives, arm the CQ,
 * move the queue pair to ERROR and expect one event and every receive flushed, in order.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp ... org.jwarp.ibverbs.IbvSmoke [device]</pre>
 * Prints what it did; exit status 0 when every step held, 1 otherwise (the failed step named).
 */
public final class IbvSmoke {

    private static final int RECVS = 4;

    private IbvSmoke() {
    }

    public static void main(String[] args) throws InterruptedException {
        try {
            run(args.length > 0 ? args[0] : null);
            System.out.println("ibverbs smoke: OK");
        } catch (IllegalStateException | IllegalArgumentException | UnsupportedOperationException e) {
            System.out.println("ibverbs smoke: FAILED: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void run(String deviceName) throws InterruptedException {
        DeviceConfig config = DeviceConfig.builder().provider(IbverbsConfig.device(deviceName)).build();
        Arena arena = Arena.ofShared();
        try (RdmaDevice device = RdmaDevice.open(config)) {
            IbvDevice d = (IbvDevice) device;
            IbvDevice.DeviceAttributes a = d.attributes();
            System.out.printf("device %s (provider %s): firmware '%s', vendor 0x%x part 0x%x, port 1 %s, atomics %s, %s%n",
                    d.name(), device.providerName(), a.firmware(), a.vendorId(), a.vendorPartId(), a.portStateName(),
                    a.atomicCap() == 0 ? "none" : "yes", a.limits());
            ProtectionDomain pd = device.allocPd();
            MemorySegment buffer = arena.allocate(64 * 1024, 4096);
            MemoryRegion mr = pd.registerMemory(buffer, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            System.out.printf("pd %d; mr %d bytes lkey 0x%08x rkey 0x%08x iova 0x%x%n", pd.handle(), mr.length(),
                    mr.lkey(), mr.rkey(), mr.iova());
            // the kernel writes a region's pages until it is deregistered: its arena may not close before
            String refused = null;
            try {
                arena.close();
            } catch (IllegalStateException e) {
                refused = e.getMessage();
            }
            expect(refused != null && refused.contains("acquired"), "the arena's close refused while a region is over"
                    + " its memory, got " + (refused == null ? "a closed arena" : refused));
            System.out.println("arena close refused while registered: " + refused);
            CompletionChannel channel = device.createCompletionChannel(Moderation.NONE);
            CompletionQueue cq = device.createCq(16, channel);
            QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(16).maxRecvWr(16)
                    .maxSendSge(1).maxRecvSge(1).maxInlineData(0).build());
            System.out.printf("cq %d depth %d; qp %d state %s, allocated %s%n", cq.handle(), cq.depth(), qp.qpNum(),
                    qp.state(), qp.initAttr());
            expect(qp.state() == QpState.INIT, "queue pair in INIT after creation, not " + qp.state());
            RecvWr[] recvs = new RecvWr[RECVS];
            for (int i = 0; i < RECVS; i++) {
                recvs[i] = new RecvWr(1).wrId(100 + i).addSge(mr, i * 1024L, 1024);
            }
            int rc = qp.postRecv(recvs, RECVS);
            expect(PostStatus.isOk(rc), "post_recv: " + PostStatus.toString(rc));
            System.out.println("posted " + RECVS + " receives through the context's post_recv");
            cq.requestNotify(false);
            qp.modify(QpState.ERROR);
            System.out.println("qp " + qp.qpNum() + " moved to " + qp.state() + "; waiting for the flush on the channel");
            CompletionQueue woke = channel.await(10, TimeUnit.SECONDS);
            expect(woke == cq, "a completion event for cq " + cq.handle() + " within 10 s, got " + woke);
            WorkCompletion[] wcs = new WorkCompletion[8];
            for (int i = 0; i < wcs.length; i++) {
                wcs[i] = new WorkCompletion();
            }
            int got = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (got < RECVS && System.nanoTime() - deadline < 0) {
                int n = cq.poll(wcs, RECVS - got);
                for (int i = 0; i < n; i++) {
                    WorkCompletion wc = wcs[i];
                    System.out.println("  completion " + wc);
                    expect(wc.wrId() == 100 + got + i && wc.status() == WcStatus.WR_FLUSH_ERR && wc.qpNum() == qp.qpNum(),
                            "receive " + (100 + got + i) + " flushed (WR_FLUSH_ERR) on qp " + qp.qpNum() + ", got " + wc);
                }
                got += n;
            }
            expect(got == RECVS, RECVS + " flushed receives, got " + got);
            qp.close();
            cq.close();
            channel.close();
            mr.deregister();
            pd.close();
            arena.close();
            expect(!buffer.scope().isAlive(), "the arena closed once the region was deregistered");
            System.out.println("closed qp, cq, channel, mr, pd, then the arena");
        }
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("expected " + what);
        }
    }
}

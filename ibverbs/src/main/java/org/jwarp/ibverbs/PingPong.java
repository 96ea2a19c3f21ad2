package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * One program, either provider, either role: written against the verbs API only, so that jwarp on
 * one side and the kernel's iWARP (through {@code ibverbs}) on the other check each other.
 *
 * <pre>PingPong server|client jwarp|ibverbs HOST PORT [SIZE...]</pre>
 * The client SENDs its buffer's address, rkey and length. For each size the server RDMA WRITEs a
 * pattern into it and SENDs the size; the client checks every byte, writes a second pattern into
 * its buffer and SENDs the size back; the server RDMA READs it and checks every byte. A SEND of
 * size 0 ends the run, and the client disconnects. Private data goes both ways and is checked.
 * Exit status 0 when every byte and message was as expected. {@link #run} is the same from Java,
 * on a device the caller opened.
 */
public final class PingPong implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int MSG = 16;
    private static final int RECVS = 8;
    private static final byte[] CLIENT_PDATA = "jwarp-pingpong client".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_PDATA = "jwarp-pingpong server".getBytes(StandardCharsets.US_ASCII);

    private final RdmaDevice device;
    private final PrintStream out;
    /**
     * The registered memory, freed only after the QP and the regions are gone: a region's pages stay
     * pinned for the RNIC until it is deregistered, and memory freed before could be written by it.
     */
    private final Arena arena = Arena.ofShared();
    private final ProtectionDomain pd;
    private final MemoryRegion data;
    private final MemoryRegion ctrl;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final QueuePair qp;
    private final WorkCompletion[] wcs = {new WorkCompletion()};
    private final SendWr send = new SendWr(1);
    private final RecvWr recv = new RecvWr(1);
    private int recvSlot;

    private PingPong(RdmaDevice device, int bytes, PrintStream out) {
        this.device = device;
        this.out = out;
        pd = device.allocPd();
        data = pd.registerMemory(arena.allocate(bytes, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        ctrl = pd.registerMemory(arena.allocate(4096, 4096), Access.LOCAL_WRITE);
        sendCq = device.createCq(64, null);
        recvCq = device.createCq(64, null);
        qp = device.createQp(pd, QpInitAttr.builder(sendCq, recvCq).maxSendWr(16).maxRecvWr(RECVS)
                .maxSendSge(1).maxRecvSge(1).maxInlineData(0).signalAll(true).build());
        for (int i = 0; i < RECVS; i++) {
            postRecv(i);
        }
    }

    /** The QP first (its posted receives flush), then the CQs, the regions and the PD; the memory last. */
    @Override
    public void close() {
        qp.close();
        sendCq.close();
        recvCq.close();
        data.deregister();
        ctrl.deregister();
        pd.close();
        arena.close();
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4 || !(args[0].equals("server") || args[0].equals("client"))) {
            System.err.println("usage: PingPong server|client jwarp|ibverbs HOST PORT [SIZE...]");
            System.exit(2);
        }
        List<Integer> sizes = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            sizes.add(Integer.parseInt(args[i]));
        }
        if (sizes.isEmpty()) {
            sizes.addAll(List.of(1, 23, 4096, 65536));
        }
        InetSocketAddress address = new InetSocketAddress(args[2], Integer.parseInt(args[3]));
        DeviceConfig config = DeviceConfig.builder().providerName(args[1]).build();
        try (RdmaDevice device = RdmaDevice.open(config)) {
            run(device, args[0].equals("server"), address, sizes, System.out);
        } catch (IllegalStateException e) {
            System.out.println(args[0] + ": FAILED: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Runs one side on {@code device}; its lines go to {@code out}, the last one "ROLE on PROVIDER: OK".
     *
     * @param device  an open device of either provider
     * @param server  the role: server (listens on {@code address}) or client (connects to it)
     * @param address where the server listens
     * @param sizes   the message sizes, in order (the server's list is the one used)
     * @param out     where the progress lines go
     * @throws IllegalStateException naming what was not as expected
     * @throws InterruptedException  if interrupted while waiting for a connection event
     */
    public static void run(RdmaDevice device, boolean server, InetSocketAddress address, List<Integer> sizes, PrintStream out)
            throws InterruptedException {
        int max = sizes.stream().mapToInt(Integer::intValue).max().orElse(65536);
        String role = server ? "server" : "client";
        try (PingPong p = new PingPong(device, max, out)) {
            out.println(role + " on " + device.providerName() + ": qp " + p.qp.qpNum() + ", " + address);
            if (server) {
                p.serve(address, sizes);
            } else {
                p.connect(address);
            }
        }
        out.println(role + " on " + device.providerName() + ": OK");
    }

    private void serve(InetSocketAddress address, List<Integer> sizes) throws InterruptedException {
        CmEventQueue events = new CmEventQueue();
        try (Listener listener = device.connectionManager().listen(address, 4, events)) {
            out.println("server: listening on " + listener.localAddress());
            CmEvent.ConnectRequest req = expect(events, CmEvent.ConnectRequest.class);
            check(Arrays.equals(req.request().privateData(), CLIENT_PDATA),
                    "the client's private data, got " + new String(req.request().privateData(), StandardCharsets.US_ASCII));
            req.request().accept(qp, SERVER_PDATA);
            CmEvent.Established up = expect(events, CmEvent.Established.class);
            out.println("server: established with " + up.attr().remoteAddress());
            MemorySegment m = awaitRecv();
            long peerAddr = m.get(JAVA_LONG_UNALIGNED, 0);
            int peerRkey = m.get(JAVA_INT_UNALIGNED, 8);
            int peerLen = m.get(JAVA_INT_UNALIGNED, 12);
            out.printf("server: client buffer 0x%x rkey 0x%08x %d bytes%n", peerAddr, peerRkey, peerLen);
            for (int size : sizes) {
                check(size <= peerLen, "size " + size + " within the client's " + peerLen + " bytes");
                fill(data.segment(), size, 'W');
                post(send.reset().wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(data, 0, size).remote(peerAddr, peerRkey));
                awaitSend();
                sendMsg(size, 0, 0);
                check(awaitRecv().get(JAVA_INT_UNALIGNED, 0) == size, "the client's answer for size " + size);
                data.segment().fill((byte) 0);
                post(send.reset().wrId(3).opcode(WrOpcode.RDMA_READ).addSge(data, 0, size).remote(peerAddr, peerRkey));
                awaitSend();
                verify(data.segment(), size, 'R');
                out.println("server: size " + size + ": RDMA WRITE, SEND, RDMA READ verified");
            }
            sendMsg(0, 0, 0);
            expect(events, CmEvent.Disconnected.class);
            out.println("server: the client disconnected");
        }
    }

    private void connect(InetSocketAddress address) throws InterruptedException {
        CmEventQueue events = new CmEventQueue();
        device.connectionManager().connect(address, qp, ConnectParams.of(CLIENT_PDATA), events);
        CmEvent.Established up = expect(events, CmEvent.Established.class);
        check(Arrays.equals(up.peerPrivateData(), SERVER_PDATA),
                "the server's private data, got " + new String(up.peerPrivateData(), StandardCharsets.US_ASCII));
        out.println("client: established with " + up.attr().remoteAddress());
        sendMsg(data.iova(), data.rkey(), (int) data.length());
        while (true) {
            int size = awaitRecv().get(JAVA_INT_UNALIGNED, 0);
            if (size == 0) {
                break;
            }
            verify(data.segment(), size, 'W');
            fill(data.segment(), size, 'R');
            sendMsg(size, 0, 0);
            out.println("client: size " + size + ": RDMA WRITE verified, pattern for the READ written");
        }
        device.connectionManager().disconnect(qp);
        expect(events, CmEvent.Disconnected.class);
    }

    private void sendMsg(long a, int b, int c) {
        MemorySegment m = ctrl.segment().asSlice(2048, MSG);
        if (b == 0 && c == 0) {
            m.set(JAVA_INT_UNALIGNED, 0, (int) a);
        } else {
            m.set(JAVA_LONG_UNALIGNED, 0, a);
            m.set(JAVA_INT_UNALIGNED, 8, b);
            m.set(JAVA_INT_UNALIGNED, 12, c);
        }
        post(send.reset().wrId(2).opcode(WrOpcode.SEND).addSge(ctrl, 2048, MSG));
        awaitSend();
    }

    private void postRecv(int slot) {
        int rc = qp.postRecv(recv.reset().wrId(slot).addSge(ctrl, (long) slot * MSG, MSG));
        check(PostStatus.isOk(rc), "post_recv: " + PostStatus.toString(rc));
    }

    private void post(SendWr wr) {
        int rc = qp.postSend(wr);
        check(PostStatus.isOk(rc), "post_send " + wr.opcode() + ": " + PostStatus.toString(rc));
    }

    private void awaitSend() {
        WorkCompletion wc = await(sendCq);
        check(wc.status() == WcStatus.SUCCESS, "a successful send completion, got " + wc);
    }

    /** The next receive's message (the slot is posted again once it has been read: the caller reads it at once). */
    private MemorySegment awaitRecv() {
        WorkCompletion wc = await(recvCq);
        check(wc.status() == WcStatus.SUCCESS && wc.byteLen() == MSG, "a " + MSG + "-byte receive, got " + wc);
        int slot = (int) wc.wrId();
        check(slot == recvSlot, "receives in order: slot " + recvSlot + ", got " + slot);
        recvSlot = (recvSlot + 1) % RECVS;
        MemorySegment copy = arena.allocate(MSG);
        copy.copyFrom(ctrl.segment().asSlice((long) slot * MSG, MSG));
        postRecv(slot);
        return copy;
    }

    private WorkCompletion await(CompletionQueue cq) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (cq.poll(wcs, 1) == 0) {
            check(System.nanoTime() - deadline < 0, "a completion within " + WAIT.toSeconds() + " s");
            device.invoke();
            Thread.onSpinWait();
        }
        return wcs[0];
    }

    private static <T extends CmEvent> T expect(CmEventQueue q, Class<T> type) throws InterruptedException {
        T e = q.expect(type, WAIT);
        check(e != null, type.getSimpleName() + " within " + WAIT.toSeconds() + " s");
        return e;
    }

    private static void fill(MemorySegment s, int size, char kind) {
        for (int i = 0; i < size; i++) {
            s.set(JAVA_BYTE, i, pattern(kind, size, i));
        }
    }

    private static void verify(MemorySegment s, int size, char kind) {
        for (int i = 0; i < size; i++) {
            byte got = s.get(JAVA_BYTE, i);
            check(got == pattern(kind, size, i), "byte " + i + " of " + size + " (" + kind + "): " + pattern(kind, size, i) + ", got " + got);
        }
    }

    private static byte pattern(char kind, int size, int i) {
        return (byte) (i * 31 + size * 7 + kind);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("expected " + what);
        }
    }
}

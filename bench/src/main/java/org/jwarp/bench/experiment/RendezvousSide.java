package org.jwarp.bench.experiment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.run.Listening;
import org.jwarp.bench.transport.jwarp.CmSetup;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
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

/**
 * One side of seed 000's rendezvous comparison (Fig. 9), in a process of its own: a sender (the
 * client) moves messages from its application buffer into the receiver's (the server's) by one of
 * three protocols, the way an MPI library moves a message:
 *
 * <ul>
 *   <li>{@code eager}: the sender copies the message into a registered bounce buffer and SENDs it
 *       into one of the receive buffers the receiver keeps posted; the receiver copies it out into
 *       its application buffer and SENDs an ACK;</li>
 *   <li>{@code write} (WRITE-based rendezvous): the sender SENDs RNDZ_START; the receiver replies
 *       with RNDZ_REPLY, its application buffer's STag and address; the sender RDMA WRITEs the
 *       message there and SENDs FIN; the receiver, on FIN, SENDs an ACK;</li>
 *   <li>{@code read} (READ-based rendezvous): the sender SENDs RNDZ_START with its own buffer's
 *       STag and address; the receiver RDMA READs the message into its application buffer and SENDs
 *       FIN.</li>
 * </ul>
 *
 * A message's latency is the sender's wait from its first action to the receiver's last word (ACK
 * or FIN): the time until the sender knows the message is in the receiver's buffer, an MPI
 * synchronous send. The receiver measures its threads' CPU time over each block of messages
 * (application thread, engine threads). Both sides sleep on completion events between messages,
 * so that their CPU time is the protocol's work, not polling; each has an engine thread of its own
 * that sleeps when idle ({@link OffloadNic}).
 *
 * <p>Arguments: {@code serve MAX_SIZE} (prints a {@link Listening} line; serves one sender until
 * it says BYE) or {@code send HOST PORT MAX_SIZE PROTOCOLS SIZES COUNT WARMUP REPEATS} (comma lists;
 * for each repeat, size and protocol a block of COUNT messages after WARMUP unreported ones; prints
 * one {@link Result} line per block, {@link ResultLines}). Data check: every message carries a
 * pattern of its sequence number, which the receiver checks at every 4 KiB and at the end.
 */
public final class RendezvousSide {

    /**
     * A block of messages: their median, 99th percentile and minimum time in µs, and the CPU time
     * the receiver's application and engine threads took over the block, in ns.
     */
    public record Result(String protocol, int size, int repeat, int count, double medianUs, double p99Us, double minUs,
                         long serverAppNs, long serverEngineNs) {
    }

    /** The protocols, as the arguments and the results name them. */
    public static final List<String> PROTOCOLS = List.of("eager", "write", "read");

    /**
     * The control header at the start of every SEND: kind (4) | length (4) | address (8) | STag (4) |
     * pad (4) | value (8). An eager SEND carries the message after it.
     */
    static final int HEADER = 32;
    private static final int KIND = 0;
    private static final int LENGTH = 4;
    private static final int ADDRESS = 8;
    private static final int STAG = 16;
    private static final int VALUE = 24;

    static final int BEGIN = 1;
    static final int END = 2;
    static final int EAGER = 3;
    static final int ACK = 4;
    static final int RNDZ_START_WRITE = 5;
    static final int RNDZ_REPLY = 6;
    static final int FIN_WRITE = 7;
    static final int RNDZ_START_READ = 8;
    static final int FIN_READ = 9;
    static final int REPORT = 10;
    static final int BYE = 11;

    /** Receive buffers the receiver keeps posted; the sender never has more than two messages unanswered. */
    private static final int RECEIVER_SLOTS = 4;
    private static final int SENDER_SLOTS = 8;
    private static final int CHECK_STRIDE = 4096;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private RendezvousSide() {
    }

    public static void main(String[] args) {
        SideProcess.main("rendezvous side", out -> {
            if (args[0].equals("serve")) {
                serve(Integer.parseInt(args[1]));
            } else {
                InetSocketAddress to = new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2]));
                send(to, Integer.parseInt(args[3]), List.of(args[4].split(",")),
                        Arrays.stream(args[5].split(",")).map(Integer::parseInt).toList(), Integer.parseInt(args[6]),
                        Integer.parseInt(args[7]), Integer.parseInt(args[8]));
            }
        });
    }

    // ------------------------------------------------------------------ the data pattern

    /** The long at {@code offset} of message {@code seq}. */
    static long pattern(long seq, long offset) {
        return (seq * 0x9E3779B97F4A7C15L) ^ (offset * 0xC2B2AE3D27D4EB4FL);
    }

    static void fill(MemorySegment m, int length, long seq) {
        int longs = length & ~7;
        for (int off = 0; off < longs; off += 8) {
            m.set(JAVA_LONG_UNALIGNED, off, pattern(seq, off));
        }
        for (int off = longs; off < length; off++) {
            m.set(JAVA_BYTE, off, (byte) pattern(seq, off));
        }
    }

    /** Checks the message at every {@link #CHECK_STRIDE} bytes and its tail. */
    static void check(MemorySegment m, int length, long seq) throws IOException {
        int longs = length & ~7;
        for (int off = 0; off < longs; off += CHECK_STRIDE) {
            same(m.get(JAVA_LONG_UNALIGNED, off) == pattern(seq, off), off, seq);
        }
        if (longs >= 8) {
            same(m.get(JAVA_LONG_UNALIGNED, longs - 8) == pattern(seq, longs - 8), longs - 8, seq);
        }
        for (int off = longs; off < length; off++) {
            same(m.get(JAVA_BYTE, off) == (byte) pattern(seq, off), off, seq);
        }
    }

    private static void same(boolean ok, int offset, long seq) throws IOException {
        if (!ok) {
            throw new IOException("message " + seq + " differs at byte " + offset);
        }
    }

    // ------------------------------------------------------------------ one side's verbs

    /** A side's device, QP, one CQ on a completion channel, and the header buffers it SENDs from. */
    private static final class Peer implements AutoCloseable {
        final RdmaDevice dev;
        final List<Thread> engineThreads;
        final Arena arena = Arena.ofShared();
        final ProtectionDomain pd;
        final CompletionChannel channel;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion headers;
        final CmEventQueue events = new CmEventQueue();
        private final WorkCompletion[] wcs = {new WorkCompletion()};
        private final SendWr send = new SendWr(1);
        private final RecvWr recv = new RecvWr(1);
        private int nextHeader;

        Peer() {
            CmSetup.OpenDevice opened = CmSetup.open(OffloadNic.config());
            dev = opened.device();
            engineThreads = opened.engineThreads();
            pd = dev.allocPd();
            channel = dev.createCompletionChannel(Moderation.NONE);
            cq = dev.createCq(64, channel);
            qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(16).maxRecvWr(16).build());
            qp.modify(QpState.INIT);
            headers = register(2L * HEADER, Access.LOCAL_WRITE);
        }

        MemoryRegion register(long bytes, int access) {
            return pd.registerMemory(arena.allocate(bytes, 64), access);
        }

        void postRecv(MemoryRegion mr, int slot, int slotBytes) throws IOException {
            recv.reset().wrId(slot).addSge(mr, (long) slot * slotBytes, slotBytes);
            ok(qp.postRecv(recv), "RECV");
        }

        /** SENDs a header (the two header buffers alternate: the peer answers one before we write the next but one). */
        void sendHeader(int kind, int length, long address, int stag, long value) throws IOException {
            long at = (long) (nextHeader++ & 1) * HEADER;
            MemorySegment h = headers.segment().asSlice(at, HEADER);
            h.set(JAVA_INT_UNALIGNED, KIND, kind);
            h.set(JAVA_INT_UNALIGNED, LENGTH, length);
            h.set(JAVA_LONG_UNALIGNED, ADDRESS, address);
            h.set(JAVA_INT_UNALIGNED, STAG, stag);
            h.set(JAVA_LONG_UNALIGNED, VALUE, value);
            post(send.reset().wrId(0).opcode(WrOpcode.SEND).signaled(true).addSge(headers, at, HEADER), "SEND");
        }

        void post(SendWr wr, String what) throws IOException {
            ok(qp.postSend(wr), what);
        }

        private static void ok(int status, String what) throws IOException {
            if (!PostStatus.isOk(status)) {
                throw new IOException("posting a " + what + " failed: " + status);
            }
        }

        /**
         * Sleeps on the completion channel until a completion of {@code opcode} arrives (send
         * completions of other kinds are checked and passed over) and returns it.
         */
        WorkCompletion await(WcOpcode opcode) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                if (cq.poll(wcs) == 0) {
                    cq.requestNotify(false);
                    if (cq.poll(wcs) == 0) {
                        if (System.nanoTime() - deadline > 0) {
                            throw new IOException("no " + opcode + " completion within " + WAIT.toSeconds() + " s");
                        }
                        channel.await(1, TimeUnit.SECONDS);
                        continue;
                    }
                }
                WorkCompletion wc = wcs[0];
                if (!wc.isSuccess()) {
                    throw new IOException("a work request failed: " + wc);
                }
                if (wc.opcode() == opcode) {
                    return wc;
                }
                if (wc.opcode() == WcOpcode.RECV) {
                    throw new IOException("a message arrived where a " + opcode + " completion was awaited");
                }
            }
        }

        @Override
        public void close() {
            dev.close();
            arena.close();
        }
    }

    private static int kind(MemorySegment header) {
        return header.get(JAVA_INT_UNALIGNED, KIND);
    }

    // ------------------------------------------------------------------ receiver

    private static void serve(int maxSize) throws Exception {
        try (Peer p = new Peer()) {
            int slotBytes = HEADER + maxSize;
            MemoryRegion slots = p.register((long) RECEIVER_SLOTS * slotBytes, Access.LOCAL_WRITE);
            MemoryRegion user = p.register(Math.max(8, maxSize), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            for (int i = 0; i < RECEIVER_SLOTS; i++) {
                p.postRecv(slots, i, slotBytes);
            }
            Listener listener = CmSetup.listen(p.dev, new InetSocketAddress(0), 1, p.events);
            Listening.print(System.out, listener.localAddress().getPort());
            ConnectionRequest r = CmSetup.awaitRequest(p.events, p.dev, WAIT, "the rendezvous sender");
            CmSetup.accept(r, p.qp, CmSetup.accepting(new byte[0]), p.events, p.dev, WAIT);
            CpuMeter meter = new CpuMeter(p.engineThreads);
            SendWr read = new SendWr(1);
            long seq = 0;
            while (true) {
                WorkCompletion wc = p.await(WcOpcode.RECV);
                int slot = (int) wc.wrId();
                MemorySegment m = slots.segment().asSlice((long) slot * slotBytes, slotBytes);
                int kind = kind(m);
                int length = m.get(JAVA_INT_UNALIGNED, LENGTH);
                if (length < 0 || length > maxSize) {
                    throw new IOException("a message of " + length + " bytes, above the " + maxSize + " agreed");
                }
                long address = m.get(JAVA_LONG_UNALIGNED, ADDRESS);
                int stag = m.get(JAVA_INT_UNALIGNED, STAG);
                if (kind == EAGER) {
                    MemorySegment.copy(m, HEADER, user.segment(), 0, length);
                }
                // the slot is free again before this side answers, so the sender's next message finds one
                p.postRecv(slots, slot, slotBytes);
                switch (kind) {
                    case BEGIN -> meter.start();
                    case EAGER -> {
                        check(user.segment(), length, seq++);
                        p.sendHeader(ACK, 0, 0, 0, 0);
                    }
                    case RNDZ_START_WRITE -> p.sendHeader(RNDZ_REPLY, length, user.iova(), user.rkey(), 0);
                    case FIN_WRITE -> {
                        check(user.segment(), length, seq++);
                        p.sendHeader(ACK, 0, 0, 0, 0);
                    }
                    case RNDZ_START_READ -> {
                        p.post(read.reset().wrId(1).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(user, 0, length)
                                .remote(address, stag), "RDMA READ");
                        p.await(WcOpcode.RDMA_READ);
                        check(user.segment(), length, seq++);
                        p.sendHeader(FIN_READ, 0, 0, 0, 0);
                    }
                    case END -> {
                        meter.stop();
                        p.sendHeader(REPORT, 0, meter.appNanos(), 0, meter.engineNanos());
                    }
                    case BYE -> {
                        p.events.expect(CmEvent.Disconnected.class, WAIT, p.dev);
                        listener.close();
                        System.out.println("served " + seq + " messages");
                        return;
                    }
                    default -> throw new IOException("unknown message kind " + kind);
                }
            }
        }
    }

    // ------------------------------------------------------------------ sender

    private static void send(InetSocketAddress to, int maxSize, List<String> protocols, List<Integer> sizes, int count,
                             int warmup, int repeats) throws Exception {
        try (Peer p = new Peer()) {
            MemoryRegion slots = p.register((long) SENDER_SLOTS * HEADER, Access.LOCAL_WRITE);
            MemoryRegion user = p.register(Math.max(8, maxSize), Access.LOCAL_WRITE | Access.REMOTE_READ);
            MemoryRegion bounce = p.register(HEADER + (long) maxSize, Access.LOCAL_WRITE);
            for (int i = 0; i < SENDER_SLOTS; i++) {
                p.postRecv(slots, i, HEADER);
            }
            CmSetup.connect(p.dev, to, p.qp, CmSetup.connecting(new byte[0]), p.events, WAIT);
            Sender s = new Sender(p, slots, user, bounce);
            for (String protocol : protocols) {
                for (int size : sizes) {
                    s.block(protocol, size, warmup);
                }
            }
            for (int r = 0; r < repeats; r++) {
                for (int size : sizes) {
                    for (String protocol : protocols) {
                        long[] ns = new long[count];
                        long[] cpu = s.block(protocol, size, ns);
                        SideProcess.Times t = SideProcess.Times.of(ns);
                        ResultLines.print(System.out, new Result(protocol, size, r, count, t.medianUs(), t.p99Us(),
                                t.minUs(), cpu[0], cpu[1]));
                    }
                }
            }
            p.sendHeader(BYE, 0, 0, 0, 0);
            p.await(WcOpcode.SEND);
            CmSetup.disconnect(p.dev, p.qp, p.events, WAIT);
        }
    }

    /** The sender's side of a block of messages. */
    private static final class Sender {
        private final Peer p;
        private final MemoryRegion slots;
        private final MemoryRegion user;
        private final MemoryRegion bounce;
        private final SendWr data = new SendWr(1);
        /** The last message {@link #expect} returned, copied out of its slot before the slot is posted again. */
        private final MemorySegment last;
        private long seq;

        Sender(Peer p, MemoryRegion slots, MemoryRegion user, MemoryRegion bounce) {
            this.p = p;
            this.slots = slots;
            this.user = user;
            this.bounce = bounce;
            this.last = p.arena.allocate(HEADER, 8);
        }

        /** An unreported block of {@code count} messages. */
        void block(String protocol, int size, int count) throws IOException, InterruptedException {
            block(protocol, size, new long[count]);
        }

        /**
         * A block of {@code ns.length} messages, each one's latency in {@code ns}; returns the
         * receiver's application and engine CPU nanoseconds over the block.
         */
        long[] block(String protocol, int size, long[] ns) throws IOException, InterruptedException {
            p.sendHeader(BEGIN, size, 0, 0, 0);
            for (int k = 0; k < ns.length; k++) {
                fill(user.segment(), size, seq++);
                long t0 = System.nanoTime();
                switch (protocol) {
                    case "eager" -> eager(size);
                    case "write" -> write(size);
                    case "read" -> read(size);
                    default -> throw new IllegalArgumentException("no protocol " + protocol);
                }
                ns[k] = System.nanoTime() - t0;
            }
            p.sendHeader(END, 0, 0, 0, 0);
            MemorySegment report = expect(REPORT);
            return new long[] {report.get(JAVA_LONG_UNALIGNED, ADDRESS), report.get(JAVA_LONG_UNALIGNED, VALUE)};
        }

        private void eager(int size) throws IOException, InterruptedException {
            MemorySegment b = bounce.segment();
            MemorySegment.copy(user.segment(), 0, b, HEADER, size);
            b.set(JAVA_INT_UNALIGNED, KIND, EAGER);
            b.set(JAVA_INT_UNALIGNED, LENGTH, size);
            p.post(data.reset().wrId(2).opcode(WrOpcode.SEND).signaled(true).addSge(bounce, 0, HEADER + size),
                    "eager SEND");
            expect(ACK);
        }

        private void write(int size) throws IOException, InterruptedException {
            p.sendHeader(RNDZ_START_WRITE, size, 0, 0, 0);
            MemorySegment reply = expect(RNDZ_REPLY);
            p.post(data.reset().wrId(3).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(user, 0, size)
                    .remote(reply.get(JAVA_LONG_UNALIGNED, ADDRESS), reply.get(JAVA_INT_UNALIGNED, STAG)), "RDMA WRITE");
            // RFC 5040 §5.5: a SEND is delivered after the WRITEs posted before it are placed
            p.sendHeader(FIN_WRITE, size, 0, 0, 0);
            expect(ACK);
        }

        private void read(int size) throws IOException, InterruptedException {
            p.sendHeader(RNDZ_START_READ, size, user.iova(), user.rkey(), 0);
            expect(FIN_READ);
        }

        /** The next message from the receiver, which must be of {@code kind}; its slot is posted again. */
        private MemorySegment expect(int kind) throws IOException, InterruptedException {
            WorkCompletion wc = p.await(WcOpcode.RECV);
            int slot = (int) wc.wrId();
            MemorySegment m = slots.segment().asSlice((long) slot * HEADER, HEADER);
            int got = kind(m);
            if (got != kind) {
                throw new IOException("the receiver sent kind " + got + " where " + kind + " was expected");
            }
            MemorySegment.copy(m, 0, last, 0, HEADER);
            p.postRecv(slots, slot, HEADER);
            return last;
        }
    }
}

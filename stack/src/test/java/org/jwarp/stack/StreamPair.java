package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;

/**
 * Test harness: two RDMAP streams joined back to back, the way Netty's embedded channel joins a
 * codec to a test — no threads, no sockets. Each side has its own STag table (its own "device"),
 * queues and completion queues; {@link #pump()} moves framed bytes both ways, cut into random
 * windows, until neither side has anything to send. Every byte each side sent is kept for
 * assertions on the wire.
 */
final class StreamPair implements AutoCloseable {

    static final int PD = 7;
    /** The standard counters and the zero-copy one the stream counts when it is there. */
    static final List<String> COUNTERS = counterNames();

    private static List<String> counterNames() {
        List<String> names = new ArrayList<>(CounterNames.STANDARD);
        names.add(CounterNames.RX_DIRECT_BYTES);
        return List.copyOf(names);
    }

    /** One endpoint. */
    static final class Side {
        final StagTable stags;
        final ArrayWorkQueue<SendWr> sq = new ArrayWorkQueue<>(64, () -> new SendWr(8));
        final ArrayWorkQueue<RecvWr> rq = new ArrayWorkQueue<>(64, () -> new RecvWr(8));
        final ListCompletionSink sendCq = new ListCompletionSink(1024);
        final ListCompletionSink recvCq = new ListCompletionSink(1024);
        final CounterSet counters = new CounterSet("qp", COUNTERS);
        final RdmapStream stream;
        final BufferFpduSink sink;
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        private final Arena arena;

        Side(int qpNum, Arena arena, boolean signalAll) {
            this(qpNum, arena, signalAll, new StagTable(64), null);
        }

        /** A side whose receives come from {@code recv} (a shared receive queue) and whose STags from {@code stags}. */
        Side(int qpNum, Arena arena, boolean signalAll, StagTable stags, WorkQueue<RecvWr> recv) {
            this.arena = arena;
            this.stags = stags;
            stream = new RdmapStream(qpNum, PD, stags, sq, recv != null ? recv : rq, sendCq, recvCq, signalAll, 8,
                    counters);
            sink = new BufferFpduSink(arena.allocate(256 * 1024));
        }

        StagTable.Region register(long size, int access) {
            MemorySegment m = arena.allocate(Math.max(size, 1), 8);
            return stags.register(PD, m, m.address(), access);
        }

        Side postSend(Consumer<SendWr> fill) {
            SendWr wr = sq.slot().reset();
            fill.accept(wr);
            sq.post();
            return this;
        }

        Side postRecv(Consumer<RecvWr> fill) {
            RecvWr wr = rq.slot().reset();
            fill.accept(wr);
            rq.post();
            return this;
        }

        byte[] sentBytes() {
            return sent.toByteArray();
        }

        long directBytes() {
            return counters.get(counters.require(CounterNames.RX_DIRECT_BYTES));
        }
    }

    final Arena arena = Arena.ofShared();
    final Side a;
    final Side b;
    private final RandomGenerator random;
    private boolean corruptNext;
    private long directFrom = -1;

    StreamPair(StreamParameters pa, StreamParameters pb, RandomGenerator random) {
        this(pa, pb, random, false);
    }

    StreamPair(StreamParameters pa, StreamParameters pb, RandomGenerator random, boolean signalAll) {
        this(pa, pb, random, signalAll, new StagTable(64), null);
    }

    /**
     * A pair whose B side takes its receives from {@code bRecv} (a shared receive queue) and its
     * STags from {@code bStags} (shared with the other streams of that "device").
     */
    StreamPair(StreamParameters pa, StreamParameters pb, RandomGenerator random, boolean signalAll, StagTable bStags,
               WorkQueue<RecvWr> bRecv) {
        this(pa, pb, random, signalAll, bStags, bRecv, 2);
    }

    /** As above, B's stream being queue pair {@code bQpNum}. */
    StreamPair(StreamParameters pa, StreamParameters pb, RandomGenerator random, boolean signalAll, StagTable bStags,
               WorkQueue<RecvWr> bRecv, int bQpNum) {
        this.random = random;
        a = new Side(1, arena, signalAll);
        b = new Side(bQpNum, arena, signalAll, bStags, bRecv);
        a.stream.establish(pa, 0);
        b.stream.establish(pb, 0);
        a.sink.start(pa.crc(), pa.markersTx(), 0);
        b.sink.start(pb.crc(), pb.markersTx(), 0);
    }

    static StreamParameters defaults() {
        return new StreamParameters(true, false, false, 1442, 8, 8, true);
    }

    /**
     * From now on the receiving side places payload the way a zero-copy owner does: whenever its
     * stream offers a {@link DirectPlacement} of at least {@code minLength} bytes, a random part
     * of the incoming bytes is copied straight into the offered pieces (as a scattering socket
     * read would) and reported with {@link RdmapStream#placedDirectly}; the rest is fed through
     * {@link RdmapStream#receive} in random windows.
     */
    StreamPair directReceive(long minLength) {
        directFrom = minLength;
        return this;
    }

    /** The next byte A sends is flipped in flight (a bit error TCP's checksum missed). */
    void corruptNextByteFromA() {
        corruptNext = true;
    }

    /** Frames what {@code from} has to send and returns the bytes, without delivering them. */
    byte[] takeFramed(Side from) {
        from.stream.transmit(from.sink);
        long n = from.sink.pending();
        byte[] bytes = from.sink.buffer().asSlice(from.sink.start(), n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        from.sent.writeBytes(bytes);
        from.sink.drained(n);
        return bytes;
    }

    /** Moves bytes until both sides are quiet; returns the number of FPDUs transmitted. */
    int pump() {
        int total = 0;
        for (int round = 0; round < 1_000_000; round++) {
            int moved = move(a, b) + move(b, a);
            a.stream.flush();
            b.stream.flush();
            total += moved;
            if (moved == 0) {
                return total;
            }
        }
        throw new AssertionError("streams never went quiet");
    }

    private int move(Side from, Side to) {
        int frames = from.stream.transmit(from.sink);
        long n = from.sink.pending();
        if (n == 0) {
            return frames;
        }
        byte[] bytes = from.sink.buffer().asSlice(from.sink.start(), n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        if (from == a && corruptNext) {
            bytes[bytes.length / 2] ^= 0x10;
            corruptNext = false;
        }
        from.sent.writeBytes(bytes);
        from.sink.drained(n);
        MemorySegment wire = MemorySegment.ofArray(bytes);
        int off = 0;
        while (off < bytes.length) {
            DirectPlacement d = to.stream.directPlacement();
            if (directFrom >= 0 && d.length() > 0 && d.length() >= directFrom && random.nextInt(8) != 0) {
                long placed = Math.min(d.length(), bytes.length - off);
                if (random.nextBoolean()) {
                    placed = 1 + random.nextLong(placed); // a socket read returns what has arrived so far
                }
                long left = placed;
                for (int i = 0; i < d.pieces() && left > 0; i++) {
                    long k = Math.min(left, d.length(i));
                    MemorySegment.copy(wire, off + placed - left, d.segment(i), d.offset(i), k);
                    left -= k;
                }
                to.stream.placedDirectly(placed);
                off += (int) placed;
                continue;
            }
            // a zero-copy owner reads small windows between large payloads (its staging lookahead)
            int big = directFrom >= 0 ? 2048 : 70_000;
            int w = Math.min(bytes.length - off, 1 + random.nextInt(random.nextBoolean() ? 64 : big));
            to.stream.receive(wire, off, w);
            off += w;
        }
        assertTrue(frames > 0 || n > 0);
        return Math.max(frames, 1);
    }

    @Override
    public void close() {
        arena.close();
    }
}

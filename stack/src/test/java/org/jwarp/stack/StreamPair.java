package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
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

    /** One endpoint. */
    static final class Side {
        final StagTable stags = new StagTable(64);
        final ArrayWorkQueue<SendWr> sq = new ArrayWorkQueue<>(64, () -> new SendWr(8));
        final ArrayWorkQueue<RecvWr> rq = new ArrayWorkQueue<>(64, () -> new RecvWr(8));
        final ListCompletionSink sendCq = new ListCompletionSink(1024);
        final ListCompletionSink recvCq = new ListCompletionSink(1024);
        final CounterSet counters = CounterSet.standard("qp");
        final RdmapStream stream;
        final BufferFpduSink sink;
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        private final Arena arena;

        Side(int qpNum, Arena arena, boolean signalAll) {
            this.arena = arena;
            stream = new RdmapStream(qpNum, PD, stags, sq, rq, sendCq, recvCq, signalAll, 8, counters);
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
    }

    final Arena arena = Arena.ofShared();
    final Side a;
    final Side b;
    private final RandomGenerator random;
    private boolean corruptNext;

    StreamPair(StreamParameters pa, StreamParameters pb, RandomGenerator random) {
        this(pa, pb, random, false);
    }

    StreamPair(StreamParameters pa, StreamParameters pb, RandomGenerator random, boolean signalAll) {
        this.random = random;
        a = new Side(1, arena, signalAll);
        b = new Side(2, arena, signalAll);
        a.stream.establish(pa, 0);
        b.stream.establish(pb, 0);
        a.sink.start(pa.crc(), pa.markersTx(), 0);
        b.sink.start(pb.crc(), pb.markersTx(), 0);
    }

    static StreamParameters defaults() {
        return new StreamParameters(true, false, false, 1442, 8, 8, true);
    }

    /** The next byte A sends is flipped in flight (a bit error TCP's checksum missed). */
    void corruptNextByteFromA() {
        corruptNext = true;
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
        int off = 0;
        while (off < bytes.length) {
            int w = Math.min(bytes.length - off, 1 + random.nextInt(random.nextBoolean() ? 64 : 70_000));
            to.stream.receive(MemorySegment.ofArray(bytes), off, w);
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

package org.jwarp.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jwarp.stack.BufferFpduSink;
import org.jwarp.stack.CompletionSink;
import org.jwarp.stack.RdmapStream;
import org.jwarp.stack.StagTable;
import org.jwarp.stack.StreamParameters;
import org.jwarp.stack.WorkQueue;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The protocol machine alone, no sockets: one message from one {@link RdmapStream} to another —
 * post, frame (CRC on), receive, place, complete — per operation. RDMA WRITE (tagged placement)
 * and SEND (untagged, into a posted receive), at a small and a large size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class RdmapStreamBenchmark {

    private static final int PD = 1;

    @Param({"64", "65536"})
    public int size;

    private Arena arena;
    private End sender;
    private End receiver;
    private StagTable.Region source;
    private StagTable.Region target;

    /** One side: its queues, completion queues and stream. */
    static final class End {
        final StagTable stags = new StagTable(16);
        final Ring<SendWr> sq = new Ring<>(new SendWr[] {new SendWr(4), new SendWr(4)});
        final Ring<RecvWr> rq = new Ring<>(new RecvWr[] {new RecvWr(4), new RecvWr(4)});
        final Cq cq = new Cq();
        final RdmapStream stream;
        final BufferFpduSink sink;

        End(Arena arena, int qpNum) {
            stream = new RdmapStream(qpNum, PD, stags, sq, rq, cq, cq, true, 4,
                    new CounterSet("qp", List.copyOf(CounterNames.STANDARD)));
            sink = new BufferFpduSink(arena.allocate(1 << 20));
            StreamParameters p = new StreamParameters(true, false, false, 1442, 8, 8, true);
            stream.establish(p, 0);
            sink.start(true, false, 0);
        }
    }

    /** A two-slot work queue. */
    static final class Ring<T> implements WorkQueue<T> {
        final T[] slots;
        long head;
        long tail;

        Ring(T[] slots) {
            this.slots = slots;
        }

        T slot() {
            return slots[(int) (tail & 1)];
        }

        @Override
        public T peek() {
            return head == tail ? null : slots[(int) (head & 1)];
        }

        @Override
        public void advance() {
            head++;
        }
    }

    /** A completion queue that keeps the last completion. */
    static final class Cq implements CompletionSink {
        final WorkCompletion wc = new WorkCompletion();
        long completions;

        @Override
        public WorkCompletion claim() {
            return wc;
        }

        @Override
        public void publish(boolean solicited) {
            completions++;
        }
    }

    @Setup
    public void setup() {
        arena = Arena.ofShared();
        sender = new End(arena, 1);
        receiver = new End(arena, 2);
        MemorySegment src = arena.allocate(size, 64);
        MemorySegment dst = arena.allocate(size, 64);
        source = sender.stags.register(PD, src, src.address(), Access.LOCAL_WRITE);
        target = receiver.stags.register(PD, dst, dst.address(), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public long write() {
        sender.sq.slot().reset().wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(source.stag(), 0, size)
                .remote(target.iova(), target.stag());
        sender.sq.tail++;
        return deliver();
    }

    @Benchmark
    public long send() {
        receiver.rq.slot().reset().wrId(2).addSge(target.stag(), 0, size);
        receiver.rq.tail++;
        sender.sq.slot().reset().wrId(1).opcode(WrOpcode.SEND).signaled(true).addSge(source.stag(), 0, size);
        sender.sq.tail++;
        return deliver();
    }

    /** Frames what the sender has, hands it to the receiver, releases the sink. */
    private long deliver() {
        sender.stream.transmit(sender.sink);
        long n = sender.sink.pending();
        receiver.stream.receive(sender.sink.buffer(), sender.sink.start(), n);
        sender.sink.drained(n);
        sender.stream.released(Long.MAX_VALUE);
        return sender.cq.completions + receiver.cq.completions;
    }
}

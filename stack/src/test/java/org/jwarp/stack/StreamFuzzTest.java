package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.Crc32c;
import org.jwarp.wire.fpdu.Fpdu;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapError;
import org.junit.jupiter.api.Test;

/**
 * A seeded, structure-aware fuzzer over one RDMAP stream, no sockets: a real peer stream frames
 * valid WRITEs, SENDs, WRITEs with immediate data and READs for the victim's layout; each input
 * mutates such a stream (header fields set to edge values, lengths, opcodes, STags — among them the
 * STag of a region the peer was not given — offsets and MSNs, with the CRC recomputed or not; bit
 * flips; FPDUs dropped, repeated or swapped) and feeds it to a fresh victim in random windows,
 * half of them with the small-message path off ({@link RdmapStream#smallMessagePath}).
 * After every input:
 * <ul>
 *   <li>no exception escaped the stream;</li>
 *   <li>the guard bytes around every buffer and the region the peer was not given hold their
 *       pattern: nothing was written outside what the peer was given;</li>
 *   <li>nothing the victim sent carries that pattern (no READ returned it);</li>
 *   <li>a stream that stopped says why: a Terminate with a named cause; and a mutation of a kind
 *       with a known answer got that answer (a flipped CRC: MPA's CRC error; the unadvertised
 *       region's STag: an access violation or invalid STag);</li>
 *   <li>every posted receive completes exactly once once the stream is flushed.</li>
 * </ul>
 * The short run is part of {@code ./run-tests}; the long one is
 * {@code ./run-tests -pl stack -am -Dtest=StreamFuzzTest -Djwarp.fuzz.inputs=10000000}. A failure
 * prints the input's seed; {@code -Djwarp.fuzz.replay=SEED} runs that input alone.
 */
class StreamFuzzTest {

    static final int INPUTS = Integer.getInteger("jwarp.fuzz.inputs", 100_000);
    static final Long REPLAY = Long.getLong("jwarp.fuzz.replay");
    static final int CORPUS = 48;

    static final int GUARD = 64;
    static final int R1 = 4096;            // the region the peer was given (remote read and write)
    static final int R2 = 2048;            // registered, local access only: the peer must never reach it
    static final int RECV = 512;           // each posted receive buffer
    static final int RECVS = 8;
    static final byte SECRET = (byte) 0xA5;
    static final int RECV_AREA = RECVS * (RECV + GUARD);
    static final int LAYOUT = GUARD + R1 + GUARD + R2 + GUARD + RECV_AREA;
    /** The tagged offset of the victim's layout (a VA-like base, the same for every victim). */
    static final long IOVA = 0x7F12_3400_0000L;

    /** What was mutated, when the answer is known. */
    enum Expect { ANY, CRC_ERROR, PROTECTION_ERROR }

    /** The victim: a fresh stream per input over reused memory with a fixed registration order. */
    static final class Victim {
        final MemorySegment layout;
        final MemorySegment sinkBuffer;
        StagTable stags;
        ArrayWorkQueue<SendWr> sq;
        ArrayWorkQueue<RecvWr> rq;
        ListCompletionSink sendCq;
        ListCompletionSink recvCq;
        RdmapStream stream;
        BufferFpduSink sink;
        StagTable.Region r1;
        StagTable.Region r2;
        StagTable.Region recvRegion;

        Victim(Arena arena) {
            layout = arena.allocate(LAYOUT, 64);
            sinkBuffer = arena.allocate(256 * 1024, 64);
        }

        /** A new stream, the same STags as every other victim, the memory refilled. */
        void reset(StreamParameters p, boolean smallMessagePath) {
            layout.fill(SECRET);
            for (int i = 0; i < R1; i++) {
                layout.set(ValueLayout.JAVA_BYTE, GUARD + i, (byte) (i % 97));
            }
            for (int r = 0; r < RECVS; r++) {
                layout.asSlice(recvOffset(r), RECV).fill((byte) 0);
            }
            stags = new StagTable(16);
            sq = new ArrayWorkQueue<>(16, () -> new SendWr(4));
            rq = new ArrayWorkQueue<>(16, () -> new RecvWr(4));
            sendCq = new ListCompletionSink(1024);
            recvCq = new ListCompletionSink(1024);
            stream = new RdmapStream(2, StreamPair.PD, stags, sq, rq, sendCq, recvCq, true, 8,
                    new CounterSet("qp", StreamPair.COUNTERS));
            // tagged offsets independent of where the memory happens to be, so that the corpus,
            // framed once, addresses every victim alike
            r1 = stags.register(StreamPair.PD, layout.asSlice(GUARD, R1), IOVA + GUARD,
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            r2 = stags.register(StreamPair.PD, layout.asSlice(GUARD + R1 + GUARD, R2), IOVA + GUARD + R1 + GUARD,
                    Access.LOCAL_WRITE);
            recvRegion = stags.register(StreamPair.PD, layout.asSlice(recvOffset(0), RECV_AREA - GUARD),
                    IOVA + recvOffset(0), Access.LOCAL_WRITE);
            for (int r = 0; r < RECVS; r++) {
                RecvWr wr = rq.slot().reset();
                wr.wrId(100 + r).addSge(recvRegion.stag(), recvOffset(r) - recvOffset(0), RECV);
                rq.post();
            }
            stream.establish(p, 0);
            stream.smallMessagePath(smallMessagePath);
            sink = new BufferFpduSink(sinkBuffer).start(p.crc(), p.markersTx(), 0);
        }

        static long recvOffset(int r) {
            return GUARD + R1 + GUARD + R2 + GUARD + (long) r * (RECV + GUARD);
        }

        /** What the victim sends (Read Responses, Terminates): checked for the secret, then dropped. */
        void drainOutput(List<String> problems) {
            stream.transmit(sink);
            long n = sink.pending();
            if (n > 0) {
                MemorySegment out = sink.buffer().asSlice(sink.start(), n);
                int run = 0;
                for (long i = 0; i < n; i++) {
                    run = out.get(ValueLayout.JAVA_BYTE, i) == SECRET ? run + 1 : 0;
                    if (run == 16) {
                        problems.add("the victim sent 16 bytes of the secret pattern (a READ reached memory the"
                                + " peer was not given)");
                        break;
                    }
                }
                sink.drained(n);
            }
        }

        /** Bytes outside R1 and the receive buffers that lost their pattern. */
        void checkMemory(List<String> problems) {
            checkSecret(0, GUARD, "the guard before R1", problems);
            checkSecret(GUARD + R1, GUARD + R2 + GUARD, "the region the peer was not given or its guards", problems);
            for (int r = 0; r < RECVS; r++) {
                checkSecret(recvOffset(r) + RECV, GUARD, "the guard after receive buffer " + r, problems);
            }
        }

        private void checkSecret(long from, long length, String what, List<String> problems) {
            for (long i = from; i < from + length; i++) {
                if (layout.get(ValueLayout.JAVA_BYTE, i) != SECRET) {
                    problems.add(what + " was written at layout offset " + i);
                    return;
                }
            }
        }
    }

    @Test
    void mutatedStreamsNeverWriteOrReadOutsideWhatThePeerWasGiven() {
        StreamParameters params = StreamPair.defaults();
        List<byte[]> corpus = corpus(params);
        try (Arena arena = Arena.ofConfined()) {
            Victim v = new Victim(arena);
            if (REPLAY != null) {
                runOne(REPLAY, corpus, v, params);
                return;
            }
            int terminated = 0;
            for (int i = 0; i < INPUTS; i++) {
                long seed = Seeds.caseSeed("StreamFuzzTest", i);
                if (runOne(seed, corpus, v, params)) {
                    terminated++;
                }
            }
            System.out.println("StreamFuzzTest: " + INPUTS + " inputs, " + terminated + " ended in a Terminate, base seed "
                    + Seeds.BASE);
            assertTrue(terminated > INPUTS / 4, "the mutations reach the protocol checks: " + terminated);
        }
    }

    /** One input; returns whether the victim ended it with a Terminate. */
    static boolean runOne(long seed, List<byte[]> corpus, Victim v, StreamParameters params) {
        RandomGenerator rnd = Seeds.random(seed);
        byte[] input = corpus.get(rnd.nextInt(corpus.size())).clone();
        // half the inputs on each receive path: the small-message path must answer as the general one
        v.reset(params, rnd.nextBoolean());
        Expect expect = Expect.ANY;
        int mutations = 1 + rnd.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            Mutated mu = mutate(input, rnd, v);
            input = mu.bytes;
            // with one mutation its violation is the stream's first, so the Terminate must name it
            expect = mutations == 1 ? mu.expect : Expect.ANY;
        }
        List<String> problems = new ArrayList<>();
        try {
            MemorySegment wire = MemorySegment.ofArray(input);
            int off = 0;
            while (off < input.length) {
                int w = Math.min(input.length - off, 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 4096));
                v.stream.receive(wire, off, w);
                off += w;
                v.drainOutput(problems);
            }
            v.stream.flush();
            v.drainOutput(problems);
        } catch (RuntimeException e) {
            throw new AssertionError("seed " + seed + ": the stream threw " + e, e);
        }
        boolean terminated = v.stream.terminateCause() != null;
        if (terminated && expect != Expect.ANY && !answers(expect, v.stream.terminateCause())) {
            problems.add("expected " + expect + ", the Terminate says " + v.stream.terminateCause());
        }
        if (!terminated && expect != Expect.ANY) {
            problems.add("a " + expect + " went unanswered");
        }
        v.checkMemory(problems);
        // exactly once: after the connection is gone every posted receive has completed one time
        v.stream.connectionLost();
        v.stream.flush();
        boolean[] seen = new boolean[RECVS];
        for (WorkCompletion wc : v.recvCq.completions) {
            int r = (int) wc.wrId() - 100;
            if (r < 0 || r >= RECVS || seen[r]) {
                problems.add("receive " + wc.wrId() + " completed twice or was never posted: " + wc);
                continue;
            }
            seen[r] = true;
            if (wc.status() == WcStatus.SUCCESS && wc.byteLen() > RECV) {
                problems.add("receive " + r + " reports " + wc.byteLen() + " bytes in a " + RECV + "-byte buffer");
            }
        }
        for (int r = 0; r < RECVS; r++) {
            if (!seen[r]) {
                problems.add("receive " + (100 + r) + " never completed");
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("seed " + seed + " (replay: -Djwarp.fuzz.replay=" + seed + "): " + problems);
        }
        return terminated;
    }

    static boolean answers(Expect expect, org.jwarp.wire.rdmap.TerminateError cause) {
        return switch (expect) {
            case CRC_ERROR -> cause == MpaError.CRC_ERROR;
            case PROTECTION_ERROR -> cause == RdmapError.ACCESS_RIGHTS_VIOLATION || cause == RdmapError.INVALID_STAG
                    || cause == DdpError.INVALID_STAG || cause == RdmapError.PROTECTION_UNSPECIFIED
                    || cause == DdpError.STAG_NOT_ASSOCIATED || cause == RdmapError.STAG_NOT_ASSOCIATED;
            case ANY -> true;
        };
    }

    record Mutated(byte[] bytes, Expect expect) {
    }

    /** FPDU start offsets in a stream without markers (each FPDU: length, ULPDU, pad, CRC). */
    static List<Integer> fpdus(byte[] s) {
        List<Integer> out = new ArrayList<>();
        int off = 0;
        while (off + Fpdu.LENGTH_FIELD <= s.length) {
            int ulpdu = ((s[off] & 0xFF) << 8) | (s[off + 1] & 0xFF);
            int len = Fpdu.length(ulpdu);
            if (off + len > s.length) {
                break;
            }
            out.add(off);
            off += len;
        }
        return out;
    }

    static Mutated mutate(byte[] s, RandomGenerator rnd, Victim v) {
        List<Integer> starts = fpdus(s);
        if (starts.isEmpty()) {
            return new Mutated(s, Expect.ANY);
        }
        int i = rnd.nextInt(starts.size());
        int at = starts.get(i);
        int ulpdu = ((s[at] & 0xFF) << 8) | (s[at + 1] & 0xFF);
        int fpduLength = Fpdu.length(ulpdu);
        switch (rnd.nextInt(10)) {
            case 0 -> {                                          // a bit flip the CRC catches
                int k = at + rnd.nextInt(fpduLength - Fpdu.CRC_LENGTH);
                s[k] ^= (byte) (1 << rnd.nextInt(8));
                return new Mutated(s, k >= at + Fpdu.LENGTH_FIELD ? Expect.CRC_ERROR : Expect.ANY);
            }
            case 1 -> {                                          // the STag of the region the peer was not given
                if ((s[at + 2] & 0x80) != 0) {
                    putInt(s, at + 4, v.r2.stag());
                    recrc(s, at, fpduLength);
                    return new Mutated(s, Expect.PROTECTION_ERROR);
                }
                return fieldEdge(s, at, fpduLength, rnd);
            }
            case 2 -> {                                          // drop, repeat or swap whole FPDUs
                return new Mutated(reorder(s, starts, rnd), Expect.ANY);
            }
            case 3 -> {                                          // cut the stream short
                return new Mutated(java.util.Arrays.copyOf(s, rnd.nextInt(s.length + 1)), Expect.ANY);
            }
            case 4 -> {                                          // an MPA length that lies (CRC left as it was)
                int lie = rnd.nextBoolean() ? rnd.nextInt(0x10000) : ulpdu + rnd.nextInt(9) - 4;
                s[at] = (byte) (lie >>> 8);
                s[at + 1] = (byte) lie;
                return new Mutated(s, Expect.ANY);
            }
            default -> {
                return fieldEdge(s, at, fpduLength, rnd);        // a header field at an edge value, valid CRC
            }
        }
    }

    /** Sets one DDP/RDMAP header field to an edge or random value and recomputes the CRC (mostly). */
    static Mutated fieldEdge(byte[] s, int at, int fpduLength, RandomGenerator rnd) {
        int field = rnd.nextInt(7);
        switch (field) {
            case 0 -> s[at + 2] = (byte) edge8(rnd);            // DDP control: T, L, reserved, DV
            case 1 -> s[at + 3] = (byte) edge8(rnd);            // RDMAP control: RV, opcode
            case 2 -> putInt(s, at + 4, edge32(rnd));           // STag (tagged) / reserved (untagged)
            case 3 -> putInt(s, at + 8, edge32(rnd));           // TO high word (tagged) / QN (untagged)
            case 4 -> putInt(s, at + 12, edge32(rnd));          // TO low word (tagged) / MSN (untagged)
            case 5 -> {
                if (fpduLength >= 24) {
                    putInt(s, at + 16, edge32(rnd));            // MO (untagged) / payload or Read Request
                }
            }
            default -> {
                int k = at + 2 + rnd.nextInt(Math.max(1, fpduLength - 6));
                s[k] = (byte) rnd.nextInt(256);                 // any byte of the ULPDU
            }
        }
        if (rnd.nextInt(8) != 0) {
            recrc(s, at, fpduLength);
        }
        return new Mutated(s, Expect.ANY);
    }

    static int edge8(RandomGenerator rnd) {
        int[] edges = {0x00, 0xFF, 0x80, 0x40, 0xC0, 0x41, 0x81, 0x01, 0x02, 0x7F};
        return rnd.nextBoolean() ? edges[rnd.nextInt(edges.length)] : rnd.nextInt(256);
    }

    static int edge32(RandomGenerator rnd) {
        int[] edges = {0, -1, 1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF, 0x10000, 4096, 4095, 4097};
        return rnd.nextBoolean() ? edges[rnd.nextInt(edges.length)] : rnd.nextInt();
    }

    static void putInt(byte[] s, int off, int v) {
        if (off + 4 <= s.length) {
            s[off] = (byte) (v >>> 24);
            s[off + 1] = (byte) (v >>> 16);
            s[off + 2] = (byte) (v >>> 8);
            s[off + 3] = (byte) v;
        }
    }

    /** Recomputes the CRC of the FPDU at {@code at} (RFC 5044 §4.4: over length, ULPDU and pad). */
    static void recrc(byte[] s, int at, int fpduLength) {
        MemorySegment m = MemorySegment.ofArray(s);
        int covered = fpduLength - Fpdu.CRC_LENGTH;
        Crc32c.putWire(m, at + covered, Crc32c.of(m, at, covered));
    }

    static byte[] reorder(byte[] s, List<Integer> starts, RandomGenerator rnd) {
        List<byte[]> parts = new ArrayList<>();
        for (int k = 0; k < starts.size(); k++) {
            int from = starts.get(k);
            int to = k + 1 < starts.size() ? starts.get(k + 1) : s.length;
            parts.add(java.util.Arrays.copyOfRange(s, from, to));
        }
        int a = rnd.nextInt(parts.size());
        switch (rnd.nextInt(3)) {
            case 0 -> parts.remove(a);
            case 1 -> parts.add(a, parts.get(a));
            default -> java.util.Collections.swap(parts, a, rnd.nextInt(parts.size()));
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    /**
     * Valid streams for the victim's layout: a real peer stream posts random WRITEs and READs within
     * R1, SENDs and WRITEs with immediate data that fit the posted receives, and frames them.
     */
    static List<byte[]> corpus(StreamParameters params) {
        List<byte[]> out = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            Victim layout = new Victim(arena);
            layout.reset(params, true);     // the STags a victim will have
            int r1 = layout.r1.stag();
            long r1Base = layout.r1.iova();
            for (int c = 0; c < CORPUS; c++) {
                RandomGenerator rnd = Seeds.random(Seeds.caseSeed("StreamFuzzTest.corpus", c));
                try (StreamPair p = new StreamPair(params, params, rnd)) {
                    // the peer's regions at fixed tagged offsets too: the corpus is the same bytes on every run
                    StagTable.Region src = p.a.stags.register(StreamPair.PD, p.arena.allocate(R1, 8), 0x1000_0000L,
                            Access.LOCAL_WRITE);
                    StagTable.Region readSink = p.a.stags.register(StreamPair.PD, p.arena.allocate(R1, 8), 0x2000_0000L,
                            Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                    int ops = 1 + rnd.nextInt(6);
                    int sends = 0;
                    for (int o = 0; o < ops; o++) {
                        int kind = rnd.nextInt(4);
                        int len = 1 + rnd.nextInt(kind >= 2 ? RECV : R1);
                        long off = rnd.nextLong(R1 - len + 1);
                        long wrId = o;
                        if (kind == 0) {
                            p.a.postSend(w -> w.wrId(wrId).opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 0, len)
                                    .remote(r1Base + off, r1));
                        } else if (kind == 1) {
                            p.a.postSend(w -> w.wrId(wrId).opcode(WrOpcode.RDMA_READ).addSge(readSink.stag(), 0, len)
                                    .remote(r1Base + off, r1));
                        } else if (sends < RECVS && kind == 2) {
                            sends++;
                            p.a.postSend(w -> w.wrId(wrId).opcode(WrOpcode.SEND).addSge(src.stag(), 0, len));
                        } else if (sends < RECVS) {
                            sends++;
                            p.a.postSend(w -> w.wrId(wrId).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).immData(wrId)
                                    .addSge(src.stag(), 0, len).remote(r1Base + off, r1));
                        }
                    }
                    byte[] bytes = p.takeFramed(p.a);
                    if (bytes.length > 0) {
                        out.add(bytes);
                    }
                }
            }
        }
        return out;
    }
}

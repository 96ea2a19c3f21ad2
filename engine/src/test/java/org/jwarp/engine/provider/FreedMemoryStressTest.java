package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * Arenas closed at random moments under in-flight zero-copy WRITEs and READs, round after round,
 * on the socket I/O layer the suite runs (docs/reliability.md): the engine and the kernel never
 * write into memory after its arena closed, nor send it, and nothing but protection errors and
 * flushes is observed.
 *
 * <p>Each round opens a connection and gives each side two regions of 256 KiB in an arena of its
 * own: the client a WRITE source and a READ sink, the server the WRITE target and the READ source.
 * The client streams 64 KiB WRITEs and READs (zero-copy on both sides: payloads sent from the
 * regions, placed straight into them) while the test closes one arena or both at random moments.
 *
 * <p>How a stray write is caught: in most rounds a side's regions are views, scoped to its arena,
 * of memory the test keeps ({@link MemorySegment#reinterpret(Arena, java.util.function.Consumer)}),
 * between guard bytes. Closing the arena ends the views but not the memory, and the test then fills
 * it with poison through its own view: a sink with bytes that nothing may change any more, a source
 * with bytes that must never reach the peer. After the round (every request completed, the
 * connection ended) the poison, the guard bytes and the live sinks are checked byte for byte. In the
 * other rounds the regions are real allocations of the arena, really freed, and the test allocates
 * the same sizes again at once (malloc tends to hand the freed blocks back), filled with poison that
 * must still be there at the end.
 *
 * <p>{@code -Djwarp.test.freedStress.seconds=60} for the long run; {@code .seed} repeats a run.
 */
class FreedMemoryStressTest {

    static final long SECONDS = Long.getLong("jwarp.test.freedStress.seconds", 8);
    static final long SEED = Long.getLong("jwarp.test.freedStress.seed", System.nanoTime());
    static final int REGION = 256 * 1024;
    static final int GUARD = 4096;
    static final int OP = 64 * 1024;
    /** A round's traffic lasts at most this long; the closes fall inside it. */
    static final long ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(40);
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(20);
    static final byte GUARD_BYTE = 0x5A;
    static final byte FREED_SINK = (byte) 0xEE;
    static final byte FREED_SOURCE = (byte) 0xDD;
    static final Set<WcStatus> ALLOWED = EnumSet.of(WcStatus.SUCCESS, WcStatus.LOC_PROT_ERR,
            WcStatus.REM_ACCESS_ERR, WcStatus.WR_FLUSH_ERR);
    static final Set<CmEvent.Disconnected.Cause> ENDINGS = EnumSet.of(CmEvent.Disconnected.Cause.LOCAL,
            CmEvent.Disconnected.Cause.PEER_CLOSED, CmEvent.Disconnected.Cause.TERMINATE_SENT,
            CmEvent.Disconnected.Cause.TERMINATE_RECEIVED);

    private final Map<WcStatus, Integer> statuses = new EnumMap<>(WcStatus.class);
    private final Map<CmEvent.Disconnected.Cause, Integer> causes = new EnumMap<>(CmEvent.Disconnected.Cause.class);
    private final Map<Freeing, Integer> rounds = new EnumMap<>(Freeing.class);
    private int closesRefused;
    private int reusedBlocks;

    /** How a side's arena close is made visible to the test (see the class comment). */
    enum Freeing {
        /** Views of kept memory, filled with poison after the close. */
        POISONED,
        /** Views of kept memory, made inaccessible ({@code mprotect}) at once after the close. */
        PROTECTED,
        /** The arena's own memory, really freed, and allocated again at once. */
        REALLY_FREED
    }

    /** {@code int mprotect(void *addr, size_t len, int prot)}. */
    @SuppressWarnings("restricted")
    private static final MethodHandle MPROTECT = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("mprotect").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final int PROT_NONE = 0;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;

    @Test
    void arenasClosedUnderZeroCopyWritesAndReadsAreNeverTouchedAfterFree() throws Exception {
        Random rnd = new Random(SEED);
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true));
        int rounds = 0;
        try (DevicePair d = new DevicePair(4096); Arena kept = Arena.ofShared()) {
            MemorySegment clientMemory = kept.allocate(3 * GUARD + 2 * REGION, 4096);
            MemorySegment serverMemory = kept.allocate(3 * GUARD + 2 * REGION, 4096);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
            while (System.nanoTime() < end) {
                round(d, rnd, clientMemory, serverMemory, rounds);
                rounds++;
            }
            for (RdmaDevice dev : new RdmaDevice[] {d.server, d.client}) {
                assertTrue(dev.failure().isEmpty(), "the device failed: " + dev.failure());
            }
        } finally {
            System.setErr(savedErr);
        }
        String log = err.toString();
        assertFalse(log.contains("failed on the engine thread"), log);
        assertFalse(log.contains("Already closed"), log);
        System.out.println("FreedMemoryStressTest (" + SuiteConfig.socketIo().option() + ", seed " + SEED
                + "): " + rounds + " rounds in " + SECONDS + " s " + this.rounds + " (" + reusedBlocks
                + " really freed blocks handed out again); completions " + statuses + "; endings " + causes
                + "; closes refused while a call held the memory: " + closesRefused);
        assertTrue(rounds >= 3, "too few rounds: " + rounds);
    }

    private void round(DevicePair d, Random rnd, MemorySegment clientMemory, MemorySegment serverMemory, int round)
            throws Exception {
        String where = "round " + round + " (seed " + SEED + ")";
        Freeing how = Freeing.values()[rnd.nextInt(Freeing.values().length)];
        rounds.merge(how, 1, Integer::sum);
        Side client = new Side(d.cpd, clientMemory, how, Access.LOCAL_WRITE, Access.LOCAL_WRITE);
        Side server = new Side(d.spd, serverMemory, how, Access.LOCAL_WRITE | Access.REMOTE_WRITE, Access.REMOTE_READ);
        DevicePair.Connected c = d.connect();
        QueuePair qp = c.client();
        int which = rnd.nextInt(3);     // the client's arena, the server's, or both
        long start = System.nanoTime();
        long clientCloses = which != 1 ? start + (long) (rnd.nextDouble() * ROUND_NANOS) : Long.MAX_VALUE;
        long serverCloses = which != 0 ? start + (long) (rnd.nextDouble() * ROUND_NANOS) : Long.MAX_VALUE;
        Set<Long> outstanding = new HashSet<>();
        WorkCompletion[] wcs = {new WorkCompletion()};
        SendWr write = new SendWr().opcode(WrOpcode.RDMA_WRITE).signaled(true);
        SendWr read = new SendWr().opcode(WrOpcode.RDMA_READ).signaled(true);
        long wrId = 0;
        while ((clientCloses != Long.MAX_VALUE && !client.closed()) || (serverCloses != Long.MAX_VALUE && !server.closed())) {
            long now = System.nanoTime();
            if (now >= clientCloses && !client.closed()) {
                client.close();
            }
            if (now >= serverCloses && !server.closed()) {
                server.close();
            }
            if (qp.state() != QpState.ERROR && !client.closed() && !server.closed()) {
                long at = (long) rnd.nextInt(REGION / OP) * OP;
                long remote = (long) rnd.nextInt(REGION / OP) * OP;
                SendWr wr = (wrId & 1) == 0
                        ? write.wrId(wrId).clearSges().addSge(client.source, at, OP)
                                .remote(server.sink.iova() + remote, server.sink.rkey())
                        : read.wrId(wrId).clearSges().addSge(client.sink, at, OP)
                                .remote(server.source.iova() + remote, server.source.rkey());
                if (qp.postSend(wr) == PostStatus.OK) {
                    outstanding.add(wrId++);
                }
            }
            while (d.ccq.poll(wcs) == 1) {
                completed(wcs[0], outstanding, where);
            }
        }
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!outstanding.isEmpty()) {
            assertTrue(System.nanoTime() < deadline, where + ": requests never completed: " + outstanding.size());
            if (d.ccq.poll(wcs) == 1) {
                completed(wcs[0], outstanding, where);
            } else {
                Thread.onSpinWait();
            }
        }
        d.client.connectionManager().disconnect(qp);
        CmEvent.Disconnected clientEnd = DevicePair.expect(c.clientEvents(), CmEvent.Disconnected.class, d.client);
        CmEvent.Disconnected serverEnd = DevicePair.expect(d.serverEvents, CmEvent.Disconnected.class, d.server);
        ended(clientEnd, serverEnd, where + ", client");
        ended(serverEnd, clientEnd, where + ", server");
        qp.close();
        c.server().close();
        assertEquals(0, d.ccq.poll(wcs), where + ": a completion beyond one per request: " + wcs[0]);
        client.check(server.closed(), where + ", client");
        server.check(client.closed(), where + ", server");
    }

    private void completed(WorkCompletion wc, Set<Long> outstanding, String where) {
        assertTrue(outstanding.remove(wc.wrId()), where + ": a completion of no outstanding request: " + wc);
        assertTrue(ALLOWED.contains(wc.status()), where + ": neither a protection error nor a flush: " + wc);
        statuses.merge(wc.status(), 1, Integer::sum);
    }

    /**
     * A connection ends by a Terminate, or closed by either side; or lost, but only where one side
     * ended it with a Terminate: a side that sent or read one closes with the peer's FPDUs unread,
     * TCP answers them with a reset, and a reset may overtake the Terminate itself.
     */
    private void ended(CmEvent.Disconnected e, CmEvent.Disconnected peer, String where) {
        assertNotNull(e, where);
        assertNotNull(peer, where);
        assertTrue(ENDINGS.contains(e.cause()) || e.cause() == CmEvent.Disconnected.Cause.CONNECTION_LOST
                && (e.terminate() != 0 || peer.terminate() != 0), where + ": " + e + ", the peer's: " + peer);
        causes.merge(e.cause(), 1, Integer::sum);
    }

    /**
     * One side's arena and its two regions: {@code sink} written by the engine (a READ's sink on the
     * client, the WRITE target on the server) and {@code source} read by it.
     */
    private final class Side {

        final Arena arena = Arena.ofShared();
        final MemorySegment memory;
        final Freeing how;
        final MemoryRegion sink;
        final MemoryRegion source;
        /** After a real free: the same sizes allocated again, filled with poison. */
        private Arena again;
        private MemorySegment sinkAgain;
        private MemorySegment sourceAgain;
        private boolean closed;

        Side(ProtectionDomain pd, MemorySegment memory, Freeing how, int sinkAccess, int sourceAccess) {
            this.memory = memory;
            this.how = how;
            memory.fill(GUARD_BYTE);
            boolean real = how == Freeing.REALLY_FREED;
            MemorySegment s = real ? arena.allocate(REGION, 64) : view(sinkAt());
            MemorySegment t = real ? arena.allocate(REGION, 64) : view(sourceAt());
            s.fill((byte) 0);
            for (int i = 0; i < REGION; i++) {
                t.set(ValueLayout.JAVA_BYTE, i, (byte) (i % 97 + 1));
            }
            sink = pd.registerMemory(s, sinkAccess);
            source = pd.registerMemory(t, sourceAccess);
        }

        private long sinkAt() {
            return GUARD;
        }

        private long sourceAt() {
            return 2L * GUARD + REGION;
        }

        private MemorySegment view(long at) {
            return memory.asSlice(at, REGION).reinterpret(arena, null);
        }

        boolean closed() {
            return closed;
        }

        /** The application frees its memory under the engine; the regions stay registered. */
        void close() {
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (true) {
                try {
                    arena.close();
                    break;
                } catch (IllegalStateException held) {     // a call holds the memory: free it after the call
                    closesRefused++;
                    assertTrue(System.nanoTime() < deadline, "the arena stayed held: " + held);
                    Thread.onSpinWait();
                }
            }
            closed = true;
            if (how == Freeing.PROTECTED) {
                protect(PROT_NONE);
            } else if (how == Freeing.REALLY_FREED) {
                again = Arena.ofShared();
                sinkAgain = again.allocate(REGION, 64).fill(FREED_SINK);
                sourceAgain = again.allocate(REGION, 64).fill(FREED_SINK);
                reusedBlocks += (sinkAgain.address() == sink.segment().address() ? 1 : 0)
                        + (sourceAgain.address() == source.segment().address() ? 1 : 0);
            } else {
                memory.asSlice(sinkAt(), REGION).fill(FREED_SINK);
                memory.asSlice(sourceAt(), REGION).fill(FREED_SOURCE);
            }
        }

        /** After the round: nothing touched freed memory, no freed source reached a live sink, guards intact. */
        void check(boolean peerClosed, String where) {
            sink.deregister();
            source.deregister();
            if (closed && how == Freeing.PROTECTED) {
                protect(PROT_READ_WRITE);
            }
            if (how == Freeing.REALLY_FREED) {
                if (closed) {
                    assertUniform(sinkAgain, FREED_SINK, where + ": memory allocated after the free was written");
                    assertUniform(sourceAgain, FREED_SINK, where + ": memory allocated after the free was written");
                    again.close();
                } else {
                    arena.close();
                }
                return;
            }
            assertUniform(memory.asSlice(0, GUARD), GUARD_BYTE, where + ": the guard before the sink");
            assertUniform(memory.asSlice(GUARD + REGION, GUARD), GUARD_BYTE, where + ": the guard between");
            assertUniform(memory.asSlice(2L * GUARD + 2 * REGION, GUARD), GUARD_BYTE, where + ": the guard after");
            if (closed && how == Freeing.POISONED) {
                assertUniform(memory.asSlice(sinkAt(), REGION), FREED_SINK, where + ": the sink written after its free");
                assertUniform(memory.asSlice(sourceAt(), REGION), FREED_SOURCE, where + ": a source written to");
            } else if (!closed) {
                arena.close();
                if (peerClosed) {
                    MemorySegment s = memory.asSlice(sinkAt(), REGION);
                    for (long i = 0; i < REGION; i++) {
                        if (s.get(ValueLayout.JAVA_BYTE, i) == FREED_SOURCE) {
                            throw new AssertionError(where + ": the peer's freed memory arrived at byte " + i);
                        }
                    }
                }
            }
        }

        /** Both regions' pages (the guard between them too): the kernel gets EFAULT for an access while PROT_NONE. */
        private void protect(int prot) {
            try {
                int r = (int) MPROTECT.invokeExact(memory.asSlice(sinkAt(), GUARD + 2L * REGION), GUARD + 2L * REGION,
                        prot);
                assertEquals(0, r, "mprotect");
            } catch (Throwable t) {
                throw new AssertionError("mprotect failed: " + t, t);
            }
        }
    }

    private static void assertUniform(MemorySegment m, byte b, String what) {
        for (long i = 0; i < m.byteSize(); i++) {
            byte got = m.get(ValueLayout.JAVA_BYTE, i);
            if (got != b) {
                throw new AssertionError(what + ": byte " + i + " is " + (got & 0xFF) + ", not " + (b & 0xFF));
            }
        }
    }
}

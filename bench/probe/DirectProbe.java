import static java.lang.foreign.ValueLayout.*;

import java.lang.foreign.*;
import java.lang.invoke.*;
import java.nio.file.*;
import java.util.*;

/**
 * Feasibility probe: loopback TCP connections whose both ends are io_uring direct descriptors
 * (no entry in the process's fd table). Run: java --enable-native-access=ALL-UNNAMED DirectProbe.java [rings] [perRing]
 * (3 9000: 27,000 connections, 54,000 direct sockets). It prints the process's descriptor count
 * at each step, and what SOCKET_URING_OP_GETSOCKNAME, FIXED_FD_INSTALL, POLL_ADD and SHUTDOWN
 * return on a direct socket; a table larger than the open-file limit fails to register.
 */
public class DirectProbe {
    static final Linker L = Linker.nativeLinker();
    static final MethodHandle SYSCALL3, SYSCALL6, SYSCALL4, MMAP, CLOSE, GETSOCKNAME;
    static {
        var lookup = L.defaultLookup();
        var sc = lookup.find("syscall").orElseThrow();
        SYSCALL3 = L.downcallHandle(sc, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS), Linker.Option.firstVariadicArg(1));
        SYSCALL4 = L.downcallHandle(sc, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), Linker.Option.firstVariadicArg(1));
        SYSCALL6 = L.downcallHandle(sc, FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG), Linker.Option.firstVariadicArg(1));
        MMAP = L.downcallHandle(lookup.find("mmap").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
        CLOSE = L.downcallHandle(lookup.find("close").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        GETSOCKNAME = L.downcallHandle(lookup.find("getsockname").orElseThrow(), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    }
    static final byte OP_POLL_ADD = 6, OP_ACCEPT = 13, OP_CONNECT = 16, OP_CLOSE = 19, OP_SEND = 26, OP_RECV = 27,
            OP_SHUTDOWN = 34, OP_SOCKET = 45, OP_URING_CMD = 46, OP_FIXED_FD_INSTALL = 54, OP_BIND = 56, OP_LISTEN = 57;
    static final int FIXED = 1, ALLOC = -1;

    static final class Ring {
        final Arena arena = Arena.ofShared();
        final int fd; final MemorySegment sq, cq, sqes; final long sqHead, sqTail, sqArray, cqHead, cqTail, cqes; final int sqMask, cqMask, sqEntries;
        int tail;
        Ring(int entries, int files) throws Throwable {
            MemorySegment p = arena.allocate(120, 8);
            p.set(JAVA_INT, 8, 1 << 3); // CQSIZE
            p.set(JAVA_INT, 4, entries * 4);
            long r = (long) SYSCALL3.invokeExact(425L, entries, p);
            if (r < 0) throw new IllegalStateException("io_uring_setup " + r);
            fd = (int) r;
            sqEntries = p.get(JAVA_INT, 0);
            int cqEntries = p.get(JAVA_INT, 4);
            long sqArrayOff = Integer.toUnsignedLong(p.get(JAVA_INT, 40 + 24));
            long cqesOff = Integer.toUnsignedLong(p.get(JAVA_INT, 80 + 20));
            long bytes = Math.max(sqArrayOff + 4L * sqEntries, cqesOff + 16L * cqEntries);
            sq = map(bytes, 0); cq = sq; sqes = map(64L * sqEntries, 0x10000000L);
            sqHead = p.get(JAVA_INT, 40); sqTail = p.get(JAVA_INT, 44); sqMask = sq.get(JAVA_INT, p.get(JAVA_INT, 48));
            sqArray = sqArrayOff; cqHead = p.get(JAVA_INT, 80); cqTail = p.get(JAVA_INT, 84); cqMask = cq.get(JAVA_INT, p.get(JAVA_INT, 88)); cqes = cqesOff;
            tail = sq.get(JAVA_INT, sqTail);
            // sparse file table: IORING_REGISTER_FILES2 with IORING_RSRC_REGISTER_SPARSE
            MemorySegment reg = arena.allocate(32, 8);
            reg.set(JAVA_INT, 0, files); reg.set(JAVA_INT, 4, 1);
            long rr = (long) SYSCALL4.invokeExact(427L, fd, 13, reg, 32);
            if (rr < 0) throw new IllegalStateException("register files2 (" + files + "): " + rr + " errno via libc: see ERRNO");
        }
        MemorySegment map(long bytes, long off) throws Throwable {
            MemorySegment m = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, bytes, 3, 0x01 | 0x8000, fd, off);
            return m.reinterpret(bytes);
        }
        MemorySegment sqe() {
            int i = tail & sqMask; long at = 64L * i;
            MemorySegment s = sqes.asSlice(at, 64); s.fill((byte) 0);
            sq.set(JAVA_INT, sqArray + 4L * i, i);
            tail++;
            return s;
        }
        int pending() { return tail - sq.get(JAVA_INT, sqHead); }
        /** submits queued, waits for n completions, returns map userData -> res (and flags). */
        void submitAndWait(int n, Map<Long, Integer> results, List<long[]> all) throws Throwable {
            ((VarHandle) JAVA_INT.varHandle()).setRelease(sq, sqTail, tail);
            int got = 0;
            int toSubmit = pending();
            while (got < n) {
                long r = (long) SYSCALL6.invokeExact(426L, fd, toSubmit, n - got, 1, MemorySegment.NULL, 0L);
                if (r < 0) throw new IllegalStateException("enter " + r);
                toSubmit = 0;
                int head = cq.get(JAVA_INT, cqHead);
                int t = (int) ((VarHandle) JAVA_INT.varHandle()).getAcquire(cq, cqTail);
                while (head != t) {
                    long c = cqes + 16L * (head & cqMask);
                    long ud = cq.get(JAVA_LONG, c); int res = cq.get(JAVA_INT, c + 8); int fl = cq.get(JAVA_INT, c + 12);
                    if (results != null) results.put(ud, res);
                    if (all != null) all.add(new long[] {ud, res, fl});
                    head++; got++;
                }
                ((VarHandle) JAVA_INT.varHandle()).setRelease(cq, cqHead, head);
            }
        }
        int one(java.util.function.Consumer<MemorySegment> fill) throws Throwable {
            MemorySegment s = sqe(); fill.accept(s); s.set(JAVA_LONG, 32, 7777L);
            Map<Long, Integer> m = new HashMap<>(); submitAndWait(1, m, null); return m.get(7777L);
        }
    }

    static MemorySegment sockaddr(Arena a, int ip, int port) {
        MemorySegment s = a.allocate(16, 4);
        s.set(JAVA_SHORT, 0, (short) 2);
        s.set(JAVA_BYTE, 2, (byte) (port >> 8)); s.set(JAVA_BYTE, 3, (byte) port);
        s.set(JAVA_BYTE, 4, (byte) 127); s.set(JAVA_BYTE, 5, (byte) 0); s.set(JAVA_BYTE, 6, (byte) 0); s.set(JAVA_BYTE, 7, (byte) ip);
        return s;
    }
    static long fds() throws Exception { try (var s = Files.list(Path.of("/proc/self/fd"))) { return s.count(); } }
    static void check(String what, int res) { if (res < 0) throw new IllegalStateException(what + " failed: -errno " + (-res)); }

    public static void main(String[] args) throws Throwable {
        int rings = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int per = args.length > 1 ? Integer.parseInt(args[1]) : 9000;
        Arena a = Arena.ofShared();
        System.out.println("fds at start: " + fds());
        List<Ring> rs = new ArrayList<>();
        int table = 2 * per + 16;
        for (int i = 0; i < rings; i++) rs.add(new Ring(4096, table));
        System.out.println("rings: " + rings + " with sparse tables of " + table + "; fds now: " + fds());
        long t0 = System.nanoTime();
        int total = 0;
        List<int[]> pairs = new ArrayList<>();   // ring, client idx, server idx
        for (int ri = 0; ri < rings; ri++) {
            Ring r = rs.get(ri);
            int port = 19700 + ri;
            int lis = r.one(s -> { s.set(JAVA_BYTE, 0, OP_SOCKET); s.set(JAVA_INT, 4, 2); s.set(JAVA_LONG, 8, 1); s.set(JAVA_INT, 24, 0); s.set(JAVA_INT, 44, ALLOC); });
            check("SOCKET(listener)", lis);
            MemorySegment one = a.allocate(4, 4); one.set(JAVA_INT, 0, 1);
            int so = r.one(s -> { s.set(JAVA_BYTE, 0, OP_URING_CMD); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, lis);
                s.set(JAVA_INT, 8, 3); s.set(JAVA_INT, 16, 1); s.set(JAVA_INT, 20, 2); s.set(JAVA_INT, 44, 4); s.set(JAVA_LONG, 48, one.address()); });
            check("URING_CMD SETSOCKOPT SO_REUSEADDR", so);
            MemorySegment la = sockaddr(a, 2, port);
            check("BIND", r.one(s -> { s.set(JAVA_BYTE, 0, OP_BIND); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, lis); s.set(JAVA_LONG, 16, la.address()); s.set(JAVA_LONG, 8, 16); }));
            check("LISTEN", r.one(s -> { s.set(JAVA_BYTE, 0, OP_LISTEN); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, lis); s.set(JAVA_INT, 24, 4096); }));
            // multishot accept into the table
            MemorySegment acc = r.sqe(); acc.set(JAVA_BYTE, 0, OP_ACCEPT); acc.set(JAVA_BYTE, 1, (byte) FIXED); acc.set(JAVA_INT, 4, lis);
            acc.set(JAVA_SHORT, 2, (short) 1); acc.set(JAVA_INT, 28, 0x800 /*SOCK_NONBLOCK*/); acc.set(JAVA_INT, 44, ALLOC); acc.set(JAVA_LONG, 32, 1L << 40);
            int batch = 1000;
            List<Integer> servers = new ArrayList<>(), clients = new ArrayList<>();
            for (int done = 0; done < per; done += batch) {
                int n = Math.min(batch, per - done);
                for (int k = 0; k < n; k++) { MemorySegment s = r.sqe(); s.set(JAVA_BYTE, 0, OP_SOCKET); s.set(JAVA_INT, 4, 2); s.set(JAVA_LONG, 8, 1 | 0x800); s.set(JAVA_INT, 44, ALLOC); s.set(JAVA_LONG, 32, 100 + k); }
                List<long[]> all = new ArrayList<>();
                r.submitAndWait(n, null, all);
                List<Integer> cs = new ArrayList<>();
                for (long[] c : all) { if (c[0] == (1L << 40)) { check("ACCEPT", (int) c[1]); servers.add((int) c[1]); } else { check("SOCKET", (int) c[1]); cs.add((int) c[1]); } }
                MemorySegment ra = sockaddr(a, 2, port);
                int expect = 0;
                for (int ci : cs) {
                    MemorySegment s = r.sqe(); s.set(JAVA_BYTE, 0, OP_CONNECT); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, ci); s.set(JAVA_LONG, 16, ra.address()); s.set(JAVA_LONG, 8, 16); s.set(JAVA_LONG, 32, 2L << 40 | ci);
                    expect++;
                }
                all.clear();
                int acceptsBefore = servers.size();
                int needAccepts = clients.size() + cs.size();
                r.submitAndWait(expect, null, all);
                for (long[] c : all) { if ((c[0] >> 40) == 1) { check("ACCEPT", (int) c[1]); servers.add((int) c[1]); if ((c[2] & 2) == 0) throw new IllegalStateException("multishot accept ended"); } else { check("CONNECT", (int) c[1]); } }
                int connectsSeen = (int) all.stream().filter(c -> (c[0] >> 40) == 2).count();
                while (connectsSeen < expect || servers.size() < needAccepts) {
                    all.clear(); r.submitAndWait(1, null, all);
                    for (long[] c : all) { if ((c[0] >> 40) == 1) { check("ACCEPT", (int) c[1]); servers.add((int) c[1]); } else { check("CONNECT", (int) c[1]); connectsSeen++; } }
                }
                clients.addAll(cs);
            }
            total += per;
            for (int k = 0; k < per; k++) pairs.add(new int[] {ri, clients.get(k), servers.get(k), lis});
            System.out.println("ring " + ri + ": " + per + " connections; fds now " + fds());
        }
        long t1 = System.nanoTime();
        System.out.printf("established %d connections (%d direct sockets) in %.1f s; fds: %d%n", total, 2 * total, (t1 - t0) / 1e9, fds());
        // exchange bytes on every 97th connection: the accept order matches connect order only loosely, so
        // send from a client and receive on all servers of its ring with MSG_DONTWAIT would be costly; instead
        // send a tagged 8-byte message on client k, then poll(POLLIN)+recv on each server until found.
        Random rnd = new Random(1);
        int exchanged = 0;
        MemorySegment buf = a.allocate(8, 8), in = a.allocate(8, 8);
        for (int ri = 0; ri < rings; ri++) {
            Ring r = rs.get(ri);
            // send on all clients of the ring, 8 bytes each: client index as tag
            final int ringIndex = ri;
            List<int[]> mine = pairs.stream().filter(p -> p[0] == ringIndex).toList();
            int sent = 0;
            MemorySegment tags = a.allocate(8L * mine.size(), 8);
            for (int k = 0; k < mine.size(); k += 97) {
                tags.set(JAVA_LONG, 8L * k, 0x5A5A000000000000L | mine.get(k)[1]);
                MemorySegment s = r.sqe(); s.set(JAVA_BYTE, 0, OP_SEND); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, mine.get(k)[1]);
                s.set(JAVA_LONG, 16, tags.address() + 8L * k); s.set(JAVA_INT, 24, 8); s.set(JAVA_INT, 28, 0x4000); s.set(JAVA_LONG, 32, 3L << 40 | k);
                sent++;
                if (r.pending() > 3000) { Map<Long, Integer> m = new HashMap<>(); r.submitAndWait(r.pending(), m, null); m.values().forEach(v -> check("SEND", v)); }
            }
            Map<Long, Integer> m = new HashMap<>(); r.submitAndWait(r.pending(), m, null);
            for (int v : m.values()) check("SEND", v);
            // receive on every server with MSG_DONTWAIT; count the tagged messages
            MemorySegment rbufs = a.allocate(8L * mine.size(), 8);
            Set<Long> got = new HashSet<>();
            for (int k = 0; k < mine.size(); k++) {
                MemorySegment s = r.sqe(); s.set(JAVA_BYTE, 0, OP_RECV); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, mine.get(k)[2]);
                s.set(JAVA_LONG, 16, rbufs.address() + 8L * k); s.set(JAVA_INT, 24, 8); s.set(JAVA_INT, 28, 0x40); s.set(JAVA_LONG, 32, 4L << 40 | k);
                if (r.pending() > 3000) { Map<Long, Integer> mm = new HashMap<>(); r.submitAndWait(r.pending(), mm, null); collect(mm, rbufs, got); }
            }
            Map<Long, Integer> mm = new HashMap<>(); r.submitAndWait(r.pending(), mm, null); collect(mm, rbufs, got);
            int want = 0;
            for (int k = 0; k < mine.size(); k += 97) { want++; if (!got.contains(0x5A5A000000000000L | mine.get(k)[1])) throw new IllegalStateException("lost message of client " + mine.get(k)[1]); }
            exchanged += want;
        }
        System.out.println("exchanged 8 bytes on " + exchanged + " connections, every one received intact; fds: " + fds());
        // what a client's own address is: FIXED_FD_INSTALL then getsockname then close
        {
            Ring r = rs.get(0); int ci = pairs.get(0)[1];
            int fd = r.one(s -> { s.set(JAVA_BYTE, 0, OP_FIXED_FD_INSTALL); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, ci); });
            System.out.println("FIXED_FD_INSTALL -> " + fd);
            if (fd >= 0) {
                MemorySegment sa = a.allocate(16, 4), len = a.allocate(4, 4); len.set(JAVA_INT, 0, 16);
                int rc = (int) GETSOCKNAME.invokeExact(fd, sa, len);
                System.out.println("getsockname rc " + rc + " local port " + (((sa.get(JAVA_BYTE, 2) & 0xff) << 8) | (sa.get(JAVA_BYTE, 3) & 0xff)));
                int unused = (int) CLOSE.invokeExact(fd);
            }
            // SOCKET_URING_OP_GETSOCKNAME (cmd 5?) probe
            MemorySegment sa = a.allocate(16, 4), len = a.allocate(4, 4); len.set(JAVA_INT, 0, 16);
            int g = r.one(s -> { s.set(JAVA_BYTE, 0, OP_URING_CMD); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, ci); s.set(JAVA_INT, 8, 5);
                s.set(JAVA_LONG, 16, sa.address()); s.set(JAVA_LONG, 48, len.address()); });
            System.out.println("URING_CMD cmd_op 5 (GETSOCKNAME?) -> " + g);
            // POLL_ADD on a direct socket
            int pr = r.one(s -> { s.set(JAVA_BYTE, 0, OP_POLL_ADD); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, ci); s.set(JAVA_INT, 28, 4 /*POLLOUT*/); });
            System.out.println("POLL_ADD(POLLOUT) on a direct socket -> " + pr);
            int sh = r.one(s -> { s.set(JAVA_BYTE, 0, OP_SHUTDOWN); s.set(JAVA_BYTE, 1, (byte) FIXED); s.set(JAVA_INT, 4, ci); s.set(JAVA_INT, 24, 1); });
            System.out.println("SHUTDOWN(SHUT_WR) on a direct socket -> " + sh);
        }
        // close everything by index
        long t2 = System.nanoTime();
        for (int ri = 0; ri < rings; ri++) {
            Ring r = rs.get(ri);
            Set<Integer> idx = new TreeSet<>();
            for (int[] p : pairs) if (p[0] == ri) { idx.add(p[1]); idx.add(p[2]); }
            final int ringIndex = ri;
            pairs.stream().filter(p -> p[0] == ringIndex).findFirst().ifPresent(p -> idx.add(p[3]));
            int closed = 0;
            for (int i : idx) {
                MemorySegment s = r.sqe(); s.set(JAVA_BYTE, 0, OP_CLOSE); s.set(JAVA_INT, 44, i + 1); s.set(JAVA_LONG, 32, 5L << 40 | i);
                if (r.pending() > 3000) { Map<Long, Integer> mm = new HashMap<>(); r.submitAndWait(r.pending(), mm, null); mm.forEach((k, v) -> { if ((k >> 40) == 5) check("CLOSE", v); }); closed += mm.size(); }
            }
            Map<Long, Integer> mm = new HashMap<>(); r.submitAndWait(r.pending(), mm, null);
        }
        System.out.printf("closed all in %.1f s; fds: %d%n", (System.nanoTime() - t2) / 1e9, fds());
        System.out.println("sockets in /proc/net/tcp after close (any state): " + (Files.readAllLines(Path.of("/proc/net/tcp")).size() - 1));
    }
    static void collect(Map<Long, Integer> m, MemorySegment rbufs, Set<Long> got) {
        m.forEach((ud, res) -> {
            if ((ud >> 40) == 4 && res == 8) got.add(rbufs.get(JAVA_LONG, 8L * (ud & 0xffffffffL)));
            else if ((ud >> 40) == 4 && res != -11 && res != 8) throw new IllegalStateException("RECV " + res);
        });
    }
}

package org.jwarp.bench.perf;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The workload of a run: what the client asks for and the server takes over (perftest's model: a
 * server started with defaults learns size, iterations and depths from the client). Sent in the
 * connection setup: in MPA private data for jwarp, in the hello for the sockets transports.
 *
 * @param test           the test
 * @param transport      the transport
 * @param allSizes       {@code -a}: every power of two from {@link #MIN_ALL} to {@link #MAX_ALL}
 * @param size           {@code -s}: message size in bytes (ignored with {@code allSizes})
 * @param iterations     {@code -n}: messages (bandwidth) or round trips (latency) per size and QP
 * @param iterationsGiven whether {@code -n} was given; if not, a size moves at most {@link #AUTO_BYTES_CAP}
 * @param durationMillis {@code -D} in ms, 0 for an iteration count
 * @param txDepth        {@code -t}: send-queue depth, the most unfinished sends per QP
 * @param rxDepth        {@code -r}: receive-queue depth, receives kept posted per QP
 * @param inline         {@code -I}: messages of at most this many bytes are posted inline
 * @param events         {@code -e}: wait for completions on a completion channel instead of busy polling
 * @param postList       {@code -l}: work requests per post call
 * @param cqMod          {@code -Q}: one signaled completion per this many sends
 * @param qps            {@code -q}: queue pairs (connections)
 * @param outstanding    {@code -o}: RDMA READs (requests) in flight per QP
 * @param compareAndSwap {@code -A CMP_AND_SWAP}: the atomic tests compare and swap instead of fetch and add
 */
public record Settings(TestKind test, TransportKind transport, boolean allSizes, int size, long iterations,
                       boolean iterationsGiven, long durationMillis, int txDepth, int rxDepth, int inline,
                       boolean events, int postList, int cqMod, int qps, int outstanding, boolean compareAndSwap) {

    /** Settings of a test that is not atomic (or uses fetch and add). */
    public Settings(TestKind test, TransportKind transport, boolean allSizes, int size, long iterations,
                    boolean iterationsGiven, long durationMillis, int txDepth, int rxDepth, int inline,
                    boolean events, int postList, int cqMod, int qps, int outstanding) {
        this(test, transport, allSizes, size, iterations, iterationsGiven, durationMillis, txDepth, rxDepth, inline,
                events, postList, cqMod, qps, outstanding, false);
    }

    /** Smallest size of {@code -a} (perftest's). */
    public static final int MIN_ALL = 2;
    /** Largest size of {@code -a}: 2^23 (perftest's). */
    public static final int MAX_ALL = 1 << 23;
    /** Largest {@code -s}. */
    public static final int MAX_SIZE = 1 << 30;
    /** Without {@code -n}, a size stops after this many bytes (at least {@link #MIN_AUTO_ITERATIONS}). */
    public static final long AUTO_BYTES_CAP = 256L << 20;
    public static final long MIN_AUTO_ITERATIONS = 16;

    /** Largest send or receive queue depth, post list and completion moderation ({@code -t -r -l -Q}). */
    public static final int MAX_DEPTH = 8192;
    /** Largest inline size ({@code -I}). */
    public static final int MAX_INLINE = 256;
    /** Most queue pairs ({@code -q}). */
    public static final int MAX_QPS = 32;
    /** Most READs in flight per QP ({@code -o}). */
    public static final int MAX_OUTSTANDING = 128;
    /** Longest {@code -D}. */
    public static final long MAX_DURATION_MILLIS = 3_600_000;
    /**
     * Most buffer memory a run may ask of each side: QPs times the largest message. A server takes
     * its workload from the client, so this bounds what a client can make it allocate.
     */
    public static final long MAX_BUFFER_BYTES = 1L << 30;

    private static final int VERSION = 1;

    public Settings {
        if (test == null || transport == null) {
            throw new IllegalArgumentException("test and transport are required");
        }
    }

    /** The sizes of the run, in order. */
    public List<Integer> sizes() {
        List<Integer> out = new ArrayList<>();
        if (allSizes) {
            for (int s = MIN_ALL; s <= MAX_ALL; s <<= 1) {
                out.add(s);
            }
        } else {
            out.add(size);
        }
        return out;
    }

    /** The largest message: what buffers are sized for. */
    public int maxSize() {
        return allSizes ? MAX_ALL : size;
    }

    /** Iterations at {@code size}: {@code -n}, or perftest's default capped at {@link #AUTO_BYTES_CAP} bytes. */
    public long iterationsFor(int size) {
        if (iterationsGiven) {
            return iterations;
        }
        return Math.min(iterations, Math.max(MIN_AUTO_ITERATIONS, AUTO_BYTES_CAP / Math.max(1, size)));
    }

    public boolean timed() {
        return durationMillis > 0;
    }

    /** Serialized for the peer (big-endian, versioned). */
    public void writeTo(ByteBuffer b) {
        b.put((byte) VERSION);
        b.put((byte) test.ordinal());
        b.put((byte) transport.ordinal());
        b.put((byte) ((allSizes ? 1 : 0) | (iterationsGiven ? 2 : 0) | (events ? 4 : 0) | (compareAndSwap ? 8 : 0)));
        b.putInt(size);
        b.putLong(iterations);
        b.putLong(durationMillis);
        b.putInt(txDepth);
        b.putInt(rxDepth);
        b.putInt(inline);
        b.putInt(postList);
        b.putInt(cqMod);
        b.putInt(qps);
        b.putInt(outstanding);
    }

    /** Bytes {@link #writeTo} writes. */
    public static final int ENCODED_LENGTH = 4 + 4 + 8 + 8 + 7 * 4;

    /**
     * Reads what {@link #writeTo} wrote.
     *
     * @throws IllegalArgumentException if the bytes are not settings of this version
     */
    public static Settings readFrom(ByteBuffer b) {
        try {
            int version = b.get() & 0xFF;
            if (version != VERSION) {
                throw new IllegalArgumentException("settings version " + version + ", this jwarp speaks " + VERSION);
            }
            int t = b.get() & 0xFF;
            int tr = b.get() & 0xFF;
            if (t >= TestKind.values().length || tr >= TransportKind.values().length) {
                throw new IllegalArgumentException("unknown test " + t + " or transport " + tr);
            }
            int flags = b.get();
            Settings s = new Settings(TestKind.values()[t], TransportKind.values()[tr], (flags & 1) != 0, b.getInt(),
                    b.getLong(), (flags & 2) != 0, b.getLong(), b.getInt(), b.getInt(), b.getInt(), (flags & 4) != 0,
                    b.getInt(), b.getInt(), b.getInt(), b.getInt(), (flags & 8) != 0);
            s.check();
            return s;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("settings truncated");
        }
    }

    /**
     * Checks ranges (the CLI checks them first with friendlier messages; this guards what a peer sends).
     *
     * @throws IllegalArgumentException naming the first bad value
     */
    public Settings check() {
        if (!allSizes && (size < 1 || size > MAX_SIZE)) {
            throw new IllegalArgumentException("size " + size + " outside 1.." + MAX_SIZE);
        }
        if (test.verb() == TestKind.Verb.ATOMIC && (allSizes || size != TestKind.ATOMIC_SIZE)) {
            throw new IllegalArgumentException("the atomic tests use " + TestKind.ATOMIC_SIZE + "-byte operands, not "
                    + (allSizes ? "every size" : size + " bytes"));
        }
        if (iterations < 1 || durationMillis < 0 || txDepth < 1 || rxDepth < 1 || inline < 0 || postList < 1
                || cqMod < 1 || qps < 1 || outstanding < 1) {
            throw new IllegalArgumentException("a count is out of range: " + this);
        }
        within("tx depth (-t)", txDepth, MAX_DEPTH);
        within("rx depth (-r)", rxDepth, MAX_DEPTH);
        within("post list (-l)", postList, MAX_DEPTH);
        within("CQ moderation (-Q)", cqMod, MAX_DEPTH);
        within("inline size (-I)", inline, MAX_INLINE);
        within("QPs (-q)", qps, MAX_QPS);
        within("READs in flight (-o)", outstanding, MAX_OUTSTANDING);
        within("duration in ms (-D)", durationMillis, MAX_DURATION_MILLIS);
        if ((long) qps * maxSize() > MAX_BUFFER_BYTES) {
            throw new IllegalArgumentException(qps + " QPs of " + maxSize() + "-byte buffers need more than the "
                    + (MAX_BUFFER_BYTES >> 20) + " MiB a side may use; lower -q or -s");
        }
        return this;
    }

    private static void within(String what, long value, long max) {
        if (value > max) {
            throw new IllegalArgumentException(what + " " + value + " is above the limit of " + max);
        }
    }}

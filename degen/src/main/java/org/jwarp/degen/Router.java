package org.jwarp.degen;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.degen.sys.Libc;
import org.jwarp.degen.sys.Tun;
import org.jwarp.sys.NanoClock;

/**
 * The forwarding loop: one thread owns both TUN devices and both {@link DelayLine}s. Each turn it
 * reads whatever arrived (timestamping each packet as it is read), writes whatever is due, and
 * then waits for the earlier of "a packet arrives" and "the next packet is due".
 *
 * <p>Waiting is where an emulator loses its precision. The thread lowers its own timer slack to
 * 1 ns ({@code prctl(PR_SET_TIMERSLACK)}; the default 50 µs would be added to every timed wake-up),
 * optionally runs as a real-time thread, and sleeps in {@code ppoll} until a {@link WakeMargin}
 * before the due time — the margin is the measured lateness of its own timed wake-ups — then spins
 * the rest, still polling both devices so that arrivals are timestamped while it spins. One thread for both
 * directions because the machines this runs on have few cores: two spinning threads on two cores
 * would starve the hosts' own TCP stacks.
 *
 * <p>No allocation, lock or copy per packet: packets are read into and written from each
 * direction's native ring; errno goes through a preallocated capture buffer.
 */
public final class Router implements Runnable {

    /** Longest ppoll when nothing is queued, so that {@link #stop()} is noticed promptly. */
    private static final long IDLE_POLL_NANOS = 50_000_000L;
    /** Packets read per device per turn, so that one busy direction cannot starve the other. */
    private static final int READ_BATCH = 64;

    private final Tun tunA;
    private final Tun tunB;
    private final DelayLine a2b;
    private final DelayLine b2a;
    private final WakeMargin margin;
    private final long minSpin;
    private final int realtimePriority;
    private final boolean busyPoll;
    private final NanoClock clock;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private volatile String schedulingReport = "not started";
    private volatile long lastMargin;
    private volatile long demotions;
    private volatile boolean realtimeNow;
    private volatile boolean started;
    private volatile long calibratedMargin;
    private volatile long calibrationWorst;

    /**
     * @param tuning how to wait: spin margin bounds, real-time priority, busy polling
     */
    public Router(Tun tunA, Tun tunB, DelayLine a2b, DelayLine b2a, RouterTuning tuning, NanoClock clock) {
        this.tunA = tunA;
        this.tunB = tunB;
        this.a2b = a2b;
        this.b2a = b2a;
        this.margin = tuning.newMargin();
        this.minSpin = tuning.spinMinNanos();
        this.realtimePriority = tuning.realtimePriority();
        this.busyPoll = tuning.busyPoll();
        this.clock = clock;
    }

    /** Asks the loop to finish its current turn and return. */
    public void stop() {
        running = false;
    }

    /** Why the loop ended, or null if it was stopped. */
    public Throwable failure() {
        return failure;
    }

    /** What the router thread got from the scheduler (timer slack, real-time priority), for the log. */
    public String schedulingReport() {
        return schedulingReport;
    }

    /** "margin 62.0 us after calibration (worst wake-up 140.3 us)": for the log. */
    public String calibrationReport() {
        return "spin margin " + Units.formatNanos(calibratedMargin) + " after calibration (p90 of 64 timed wake-ups; the latest came "
                + Units.formatNanos(calibrationWorst) + " late)";
    }

    /** True once the loop runs (after calibration). */
    public boolean started() {
        return started;
    }

    /** Whether the router thread is SCHED_FIFO right now. */
    public boolean realtimeNow() {
        return realtimeNow;
    }

    /** How often the router left SCHED_FIFO because it was saturated (see {@link RealtimeGovernor}). */
    public long realtimeDemotions() {
        return demotions;
    }

    /** The spin margin the router used last (a gauge for the log and the benchmark). */
    public long currentMarginNanos() {
        return lastMargin;
    }

    @Override
    public void run() {
        try (Arena arena = Arena.ofConfined()) {
            loop(arena);
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void loop(Arena arena) throws IOException {
        Libc libc = new Libc(arena);
        String slack = libc.prctl(Libc.PR_SET_TIMERSLACK, 1) == 0 ? "timer slack 1 ns"
                : "timer slack unchanged (" + Libc.describe(libc.errno()) + ")";
        MemorySegment schedParam = arena.allocate(ValueLayout.JAVA_INT);
        String sched = "SCHED_OTHER";
        boolean wantRealtime = realtimePriority > 0 && !busyPoll;
        if (realtimePriority > 0 && busyPoll) {
            // A real-time thread that never sleeps is throttled by the kernel for 50 ms every
            // second (sched_rt_runtime_us): far worse than what real-time priority buys.
            sched = "SCHED_OTHER (busy polling: SCHED_FIFO would be throttled 50 ms per second)";
        } else if (wantRealtime) {
            if (libc.setScheduling(Libc.SCHED_FIFO, realtimePriority, schedParam) == 0) {
                sched = "SCHED_FIFO " + realtimePriority + ", dropped to SCHED_OTHER while saturated";
            } else {
                sched = "SCHED_OTHER (SCHED_FIFO refused: " + Libc.describe(libc.errno()) + ")";
                wantRealtime = false;
            }
        }
        // struct pollfd { int fd; short events; short revents; } × 2
        MemorySegment pollfds = arena.allocate(16, 8);
        pollfds.set(ValueLayout.JAVA_INT, 0, tunA.fd());
        pollfds.set(ValueLayout.JAVA_SHORT, 4, Libc.POLLIN);
        pollfds.set(ValueLayout.JAVA_INT, 8, tunB.fd());
        pollfds.set(ValueLayout.JAVA_SHORT, 12, Libc.POLLIN);
        // struct timespec { long tv_sec; long tv_nsec; }
        MemorySegment timeout = arena.allocate(16, 8);
        calibrate(libc, timeout);
        schedulingReport = slack + ", " + sched;
        realtimeNow = wantRealtime;
        started = true; // published last: the session waits for it
        RealtimeGovernor governor = new RealtimeGovernor(wantRealtime);
        long windowStart = clock.nanoTime();
        long slept = 0;
        long spun = 0;
        RealtimeGovernor.Spin spin = RealtimeGovernor.Spin.ADAPTIVE;
        // Where packets go when a queue is full: they must still be read, or the TUN backs up.
        int scratchSize = Math.max(a2b.queue().maxPacket(), b2a.queue().maxPacket());
        long scratch = arena.allocate(scratchSize, 64).address();

        while (running) {
            long t = clock.nanoTime();
            if (wantRealtime && t - windowStart >= RealtimeGovernor.WINDOW_NANOS) {
                boolean was = governor.realtime();
                governor.onWindow(t - windowStart, slept, spun);
                boolean rt = governor.realtime();
                if (rt != was) {
                    int rc = rt ? libc.setScheduling(Libc.SCHED_FIFO, realtimePriority, schedParam)
                            : libc.setScheduling(Libc.SCHED_OTHER, 0, schedParam);
                    if (rc != 0) {
                        throw new IOException("sched_setscheduler(" + (rt ? "SCHED_FIFO" : "SCHED_OTHER") + "): " + Libc.describe(libc.errno()));
                    }
                    demotions = governor.demotions();
                    realtimeNow = rt;
                }
                spin = governor.spin();
                windowStart = t;
                slept = 0;
                spun = 0;
            }
            int work = receive(libc, tunA, a2b, scratch, scratchSize) + receive(libc, tunB, b2a, scratch, scratchSize);
            work += transmit(libc, a2b, tunB) + transmit(libc, b2a, tunA);
            if (work > 0 || busyPoll) {
                continue;
            }
            long now = clock.nanoTime();
            long wait;
            if (a2b.isEmpty() && b2a.isEmpty()) {
                wait = IDLE_POLL_NANOS;
            } else {
                long next = a2b.isEmpty() ? b2a.headDue()
                        : b2a.isEmpty() ? a2b.headDue()
                        : (a2b.headDue() - b2a.headDue() <= 0 ? a2b.headDue() : b2a.headDue());
                long m = switch (spin) {
                    case ADAPTIVE -> margin.margin();
                    case MINIMUM -> minSpin;
                    case NONE -> 0L;
                };
                lastMargin = m;
                wait = Math.min(next - now - m, IDLE_POLL_NANOS);
            }
            if (wait > 0) {
                timeout.set(ValueLayout.JAVA_LONG, 0, wait / 1_000_000_000L);
                timeout.set(ValueLayout.JAVA_LONG, 8, wait % 1_000_000_000L);
                long before = clock.nanoTime();
                int ready = libc.ppoll(pollfds, 2, timeout);
                slept += clock.nanoTime() - before;
                if (ready < 0 && libc.errno() != Libc.EINTR) {
                    throw new IOException("ppoll on " + tunA.name() + ", " + tunB.name() + ": " + Libc.describe(libc.errno()));
                }
                if (ready == 0) {
                    // A timed wake-up: how late it came is the latency the margin must cover.
                    margin.onWake(clock.nanoTime() - now - wait);
                }
            } else {
                Thread.onSpinWait();
                spun += clock.nanoTime() - t;
            }
        }
    }

    /**
     * Measures how late this thread's timed wake-ups come, before forwarding anything, so that the
     * margin starts from this machine's latency rather than a guess (a busy router may not sleep
     * again for a long time, and it only learns from sleeps).
     */
    private void calibrate(Libc libc, MemorySegment timeout) throws IOException {
        long sleep = 50_000L;
        timeout.set(ValueLayout.JAVA_LONG, 0, 0L);
        timeout.set(ValueLayout.JAVA_LONG, 8, sleep);
        long[] late = new long[64];
        for (int i = 0; i < late.length; i++) {
            long before = clock.nanoTime();
            if (libc.ppoll(MemorySegment.NULL, 0, timeout) < 0 && libc.errno() != Libc.EINTR) {
                throw new IOException("ppoll (calibration): " + Libc.describe(libc.errno()));
            }
            late[i] = clock.nanoTime() - before - sleep;
        }
        java.util.Arrays.sort(late);
        // The 90th percentile: start-up is noisy (JIT and GC threads of a fresh JVM), and the
        // margin adapts upwards at once anyway if the machine turns out to be worse.
        long worstSeen = late[late.length - 1];
        margin.reset(late[late.length * 9 / 10]);
        calibratedMargin = margin.margin();
        calibrationWorst = worstSeen;
    }

    private int receive(Libc libc, Tun from, DelayLine line, long scratch, int scratchSize) throws IOException {
        int count = 0;
        PacketQueue queue = line.queue();
        while (count < READ_BATCH) {
            long at = line.reserve();
            long address = at >= 0 ? queue.addressOf(at) : scratch;
            long n = libc.read(from.fd(), address, at >= 0 ? queue.maxPacket() : scratchSize);
            if (n < 0) {
                int errno = libc.errno();
                if (errno == Libc.EAGAIN) {
                    return count;
                }
                if (errno == Libc.EINTR) {
                    continue;
                }
                throw new IOException("read from " + from.name() + ": " + Libc.describe(errno));
            }
            if (n == 0) {
                return count;
            }
            long arrival = clock.nanoTime();
            if (at >= 0) {
                line.offer(at, (int) n, arrival);
            } else {
                line.dropFull((int) n);
            }
            count++;
        }
        return count;
    }

    private int transmit(Libc libc, DelayLine line, Tun to) throws IOException {
        int count = 0;
        long now = clock.nanoTime();
        while (line.hasDue(now)) {
            // Departure is when the packet is handed to the egress device. The write itself runs
            // the receiving host's IP/TCP input in this thread (TUN injects synchronously), so a
            // timestamp after it would charge the host's stack to the emulator; the time it takes
            // still shows up, as lateness of the packets behind it.
            long handover = now;
            long n = libc.write(to.fd(), line.nextAddress(), line.nextLength());
            now = clock.nanoTime();
            if (n < 0) {
                int errno = libc.errno();
                if (errno == Libc.EINTR) {
                    continue;
                }
                if (errno == Libc.EAGAIN) {
                    // The kernel's backlog is full: keep the packet and try again next turn.
                    return count;
                }
                // A packet the egress stack refuses (e.g. EINVAL for a malformed one) is the
                // packet's fault, not the router's: count it and carry on with the next.
                line.failed();
            } else {
                line.departed(handover);
            }
            count++;
        }
        return count;
    }
}

package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jwarp.sys.Downcalls;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.Moderation;

/**
 * A completion channel ({@code ibv_create_comp_channel}): a file descriptor the kernel makes
 * readable when an armed CQ gets a completion. {@code await} waits with poll(2) in slices, so an
 * interrupt or a close is seen, then takes the event with {@code ibv_get_cq_event} and acknowledges
 * it at once ({@code ibv_ack_cq_events}).
 */
final class IbvChannel implements CompletionChannel {

    /** poll(2); {@code struct pollfd} is {int fd; short events; short revents}. */
    private static final MethodHandle POLL = Downcalls.requireWithoutErrno("poll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final short POLLIN = 1;
    private static final long SLICE_MILLIS = 100;

    private final IbvDevice device;
    private final MemorySegment channel;
    private final int fd;
    private final Map<Long, IbvCq> cqs = new ConcurrentHashMap<>();
    private volatile boolean closed;

    IbvChannel(IbvDevice device) {
        this.device = device;
        this.channel = IbvDevice.reinterpret(IbvLib.pointer("ibv_create_comp_channel(" + device.name() + ")",
                device.lib().createCompChannel, device.context()), VerbsStructs.COMP_CHANNEL.byteSize());
        this.fd = channel.get(JAVA_INT, VerbsStructs.COMP_CHANNEL_FD);
        device.adopt(this);
    }

    IbvDevice device() {
        return device;
    }

    MemorySegment pointer() {
        return channel;
    }

    void attach(IbvCq cq) {
        cqs.put(cq.pointer().address(), cq);
    }

    void detach(IbvCq cq) {
        cqs.remove(cq.pointer().address());
    }

    @Override
    public Moderation moderation() {
        return Moderation.NONE;
    }

    @Override
    public CompletionQueue await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(Math.max(0, timeout));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollfd = arena.allocate(8, 4);
            while (true) {
                requireOpen();
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting on a completion channel");
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                int ms = (int) Math.max(0, Math.min(left, SLICE_MILLIS));
                if (ready(pollfd, ms)) {
                    return take();
                }
                if (left <= 0) {
                    return null;
                }
            }
        }
    }

    @Override
    public CompletionQueue tryAwait() {
        requireOpen();
        try (Arena arena = Arena.ofConfined()) {
            return ready(arena.allocate(8, 4), 0) ? take() : null;
        }
    }

    private boolean ready(MemorySegment pollfd, int millis) {
        pollfd.set(JAVA_INT, 0, fd);
        pollfd.set(JAVA_SHORT, 4, POLLIN);
        pollfd.set(JAVA_SHORT, 6, (short) 0);
        try {
            int n = (int) POLL.invokeExact(pollfd, 1L, millis);
            return n > 0 && (pollfd.get(JAVA_SHORT, 6) & POLLIN) != 0;
        } catch (Throwable t) {
            throw new IllegalStateException("poll on the completion channel failed", t);
        }
    }

    private CompletionQueue take() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cqOut = arena.allocate(ADDRESS);
            MemorySegment ctxOut = arena.allocate(ADDRESS);
            IbvLib.check("ibv_get_cq_event", device.lib().getCqEvent, channel, cqOut, ctxOut);
            MemorySegment cq = cqOut.get(ADDRESS, 0);
            IbvLib.call(device.lib().ackCqEvents, cq, 1);
            IbvCq found = cqs.get(cq.address());
            if (found == null) {
                throw new IllegalStateException("ibverbs: an event for a CQ this channel does not know");
            }
            return found;
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the completion channel is closed");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (!cqs.isEmpty()) {
            throw new IllegalStateException("the completion channel still has " + cqs.size() + " CQ(s) (EBUSY)");
        }
        closed = true;
        device.release(this);
        IbvLib.check("ibv_destroy_comp_channel", device.lib().destroyCompChannel, channel);
    }
}

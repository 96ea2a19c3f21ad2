package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jwarp.sys.Downcalls;

/**
 * The thread that reads the device's rdma_cm event channel: poll(2) in slices (so {@link #stop}
 * is seen), {@code rdma_get_cm_event}, copy what the event says, {@code rdma_ack_cm_event}, then
 * hand it to the connection manager. Acknowledging first lets a handler destroy the id.
 */
final class CmEventLoop implements Runnable {

    private static final MethodHandle POLL = Downcalls.requireWithoutErrno("poll",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final int SLICE_MILLIS = 100;
    /** How long a close waits for the thread: long enough for a slow (emulated) host. */
    private static final long STOP_WAIT_NANOS = 30_000_000_000L;

    private final IbvConnectionManager cm;
    private final RdmaCmLib lib;
    private final MemorySegment channel;
    private final int fd;
    private final Thread thread;
    private volatile boolean running = true;

    CmEventLoop(IbvConnectionManager cm, RdmaCmLib lib, MemorySegment channel, int fd, String device) {
        this.cm = cm;
        this.lib = lib;
        this.channel = channel;
        this.fd = fd;
        this.thread = Thread.ofPlatform().daemon().name("ibverbs-cm-" + device).unstarted(this);
    }

    void start() {
        thread.start();
    }

    /**
     * Stops the thread and waits for it to end (it sees the flag within a poll slice, or once the
     * event in hand is dispatched).
     *
     * @return whether it ended: until it has, the channel it reads must not be destroyed (a
     *         {@code rdma_get_cm_event} on a freed channel crashes the process)
     */
    boolean stop() {
        running = false;
        if (Thread.currentThread() == thread) {
            return false;
        }
        boolean interrupted = false;
        long deadline = System.nanoTime() + STOP_WAIT_NANOS;
        while (thread.isAlive() && System.nanoTime() - deadline < 0) {
            try {
                thread.join(SLICE_MILLIS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    @Override
    public void run() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pollfd = arena.allocate(8, 4);
            MemorySegment out = arena.allocate(ADDRESS);
            while (running) {
                pollfd.set(JAVA_INT, 0, fd);
                pollfd.set(JAVA_SHORT, 4, (short) 1);
                pollfd.set(JAVA_SHORT, 6, (short) 0);
                int n;
                try {
                    n = (int) POLL.invokeExact(pollfd, 1L, SLICE_MILLIS);
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
                if (n <= 0 || !running) {
                    continue;
                }
                IbvLib.Result r = IbvLib.call(lib.getCmEvent, channel, out);
                if (r.code() != 0) {
                    continue;                                    // EAGAIN after a spurious wake-up
                }
                MemorySegment ev = IbvDevice.reinterpret(out.get(ADDRESS, 0), CmStructs.CM_EVENT.byteSize());
                IbvConnectionManager.Event e = copy(ev);
                IbvLib.call(lib.ackCmEvent, ev);
                cm.dispatch(e);
            }
        }
    }

    private static IbvConnectionManager.Event copy(MemorySegment ev) {
        MemorySegment id = ev.get(ADDRESS, CmStructs.EVENT_ID);
        MemorySegment listenId = ev.get(ADDRESS, CmStructs.EVENT_LISTEN_ID);
        int len = ev.get(JAVA_BYTE, CmStructs.EVENT_PDATA_LEN) & 0xFF;
        MemorySegment pdata = ev.get(ADDRESS, CmStructs.EVENT_PDATA);
        byte[] data = new byte[pdata.equals(MemorySegment.NULL) ? 0 : len];
        if (data.length > 0) {
            MemorySegment.copy(IbvDevice.reinterpret(pdata, len), JAVA_BYTE, 0, data, 0, len);
        }
        return new IbvConnectionManager.Event(ev.get(JAVA_INT, CmStructs.EVENT_TYPE), ev.get(JAVA_INT, CmStructs.EVENT_STATUS),
                id.address(), listenId.address(), id, data,
                ev.get(JAVA_BYTE, CmStructs.EVENT_INITIATOR_DEPTH) & 0xFF,
                ev.get(JAVA_BYTE, CmStructs.EVENT_RESPONDER_RESOURCES) & 0xFF);
    }
}

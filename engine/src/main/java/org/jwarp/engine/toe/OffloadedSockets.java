package org.jwarp.engine.toe;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jwarp.engine.agent.EngineSlot;
import org.jwarp.engine.provider.EngineAccess;
import org.jwarp.verbs.RdmaDevice;

/**
 * The offloaded-sockets personality (seed 001's TOE) of a jwarp device: TCP sockets whose system
 * calls and kernel copies run on the device's engine threads, beside its RDMA connections, while
 * the application's threads only copy data into and out of shared buffers and talk to the engine
 * through request/event queue pairs.
 *
 * <pre>{@code
 * try (RdmaDevice device = RdmaDevice.open();
 *      OffloadedSockets toe = OffloadedSockets.open(device);
 *      ToeServerSocket server = toe.listen(new InetSocketAddress("127.0.0.1", 0), 50);
 *      ToeSocket client = toe.connect(server.getLocalSocketAddress());
 *      ToeSocket peer = server.accept()) {
 *     client.getOutputStream().write("hello".getBytes());
 *     byte[] b = peer.getInputStream().readNBytes(5);
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> Each application thread that opens, connects or listens gets a queue pair of
 * its own, served by one engine thread (round robin over the device's); its sockets live there. Any
 * thread may then use a socket (see {@link ToeSocket}). Waiting threads sleep until the engine's
 * emulated interrupt; on a device without engine threads of its own (threading {@code invoker} or
 * {@code hybrid}) a waiting thread runs the engine's duty cycle instead, as a verbs wait does.
 *
 * <p><b>Memory.</b> Each socket has a send buffer of {@link ToeConfig#sendBufferBytes()}; each
 * engine thread a pool of {@link ToeConfig#receiveBuffers()} anonymous buffers of
 * {@link ToeConfig#receiveBufferBytes()}, shared by its sockets.
 */
public final class OffloadedSockets implements AutoCloseable {

    private final List<EngineSlot> slots;
    private final ToeEngine[] engines;
    private final ToeConfig config;
    private final ThreadLocal<HostQueuePair> pairs;
    private final AtomicInteger nextEngine = new AtomicInteger();
    private volatile boolean closed;

    /**
     * The personality on {@code device}'s engine threads, with {@link ToeConfig#defaults()}.
     *
     * @param device a jwarp device
     * @return the personality
     */
    public static OffloadedSockets open(RdmaDevice device) {
        return open(device, ToeConfig.defaults());
    }

    /**
     * The personality on {@code device}'s engine threads.
     *
     * @throws IllegalArgumentException if {@code device} is not a jwarp device
     * @throws IllegalStateException    if it is closed or failed
     * @param device a jwarp device
     * @param config the sizes and times
     * @return the personality
     */
    public static OffloadedSockets open(RdmaDevice device, ToeConfig config) {
        return new OffloadedSockets(EngineAccess.slots(device), config);
    }

    /** Over any engine slots (tests drive a slot by hand). */
    OffloadedSockets(List<EngineSlot> slots, ToeConfig config) {
        if (slots.isEmpty()) {
            throw new IllegalArgumentException("no engine thread to run on");
        }
        this.slots = List.copyOf(slots);
        this.config = config;
        this.engines = new ToeEngine[slots.size()];
        for (int i = 0; i < engines.length; i++) {
            engines[i] = new ToeEngine(slots.get(i), config);
            slots.get(i).attach(engines[i]);
        }
        this.pairs = ThreadLocal.withInitial(
                () -> engines[Math.floorMod(nextEngine.getAndIncrement(), engines.length)].newQueuePair());
    }

    /**
     * Connects to {@code remote}, waiting as long as TCP takes.
     *
     * @param remote the peer's address
     * @return the connected socket
     * @throws IOException if the connection could not be made or the personality is closed
     */
    public ToeSocket connect(InetSocketAddress remote) throws IOException {
        return connect(remote, Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    }

    /**
     * Connects to {@code remote} (a request and its event; the calling thread sleeps meanwhile).
     *
     * @throws java.net.ConnectException      if the peer refused or could not be reached
     * @throws java.net.SocketTimeoutException if the timeout passed first
     * @param remote  the peer's address
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     * @return the connected socket
     * @throws IOException if the address is unresolved or the personality is closed
     */
    public ToeSocket connect(InetSocketAddress remote, long timeout, TimeUnit unit) throws IOException {
        checkOpen();
        if (remote == null || remote.isUnresolved()) {
            throw new java.net.UnknownHostException("cannot connect to unresolved address " + remote);
        }
        ToeSocket s = new ToeSocket(pairs.get(), config);
        s.connect(remote, timeout == Long.MAX_VALUE ? Long.MAX_VALUE : unit.toNanos(timeout));
        return s;
    }

    /**
     * Listens on {@code local} (port 0: one the system chooses; see
     * {@link ToeServerSocket#getLocalSocketAddress()}).
     *
     * @param backlog connections the kernel queues before an accept asks for them
     * @param local the address to listen on
     * @return the listener
     * @throws IOException if the address cannot be bound or the personality is closed
     */
    public ToeServerSocket listen(InetSocketAddress local, int backlog) throws IOException {
        checkOpen();
        if (backlog < 1) {
            throw new IllegalArgumentException("backlog must be at least 1, not " + backlog);
        }
        ToeServerSocket l = new ToeServerSocket(pairs.get());
        l.listen(local, backlog);
        return l;
    }

    /** {@return the sizes and times this personality runs with} */
    public ToeConfig config() {
        return config;
    }

    /** {@return the counters, summed over the engine threads} */
    public ToeStats stats() {
        ToeStats sum = engines[0].stats();
        for (int i = 1; i < engines.length; i++) {
            sum = sum.plus(engines[i].stats());
        }
        return sum;
    }

    /** {@return the number of engine threads this personality runs on} */
    public int engineThreads() {
        return engines.length;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new java.net.SocketException("the offloaded sockets are closed");
        }
        for (ToeEngine e : engines) {
            e.checkAlive();
        }
    }

    /**
     * Ends the personality: the engines close every socket and listener it has (as a process's exit
     * closes its sockets); a thread still waiting on one gets an {@link IOException}. The device
     * stays open.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < engines.length; i++) {
            slots.get(i).detach(engines[i]);
        }
    }
}

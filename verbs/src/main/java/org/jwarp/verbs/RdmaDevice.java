package org.jwarp.verbs;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jwarp.verbs.spi.RdmaProvider;
import org.jwarp.verbs.spi.RdmaProviders;

/**
 * An open soft-iWARP device ({@code ibv_context}): the root of every other resource, and the owner
 * of the provider's engine threads, if it runs any.
 *
 * <p>Open one with {@link #open(DeviceConfig)}, which finds an implementation through the
 * {@link RdmaProvider} service. Close it when done: closing destroys every resource still open
 * (queue pairs are disconnected abruptly) and stops the engine threads.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public interface RdmaDevice extends AutoCloseable {

    /**
     * Opens a device with {@code config} from the provider it names (or the only/first provider on
     * the class path), looked up with the thread's context class loader.
     *
     * @throws IllegalStateException    if no (matching) provider is on the class path; the message
     *                                  says what to add
     * @throws IllegalArgumentException if the provider refuses a setting, or the provider
     *                                  configuration is another provider's
     * @param config the configuration
     * @return the open device
     */
    static RdmaDevice open(DeviceConfig config) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return open(config, loader != null ? loader : RdmaDevice.class.getClassLoader());
    }

    /**
     * As {@link #open(DeviceConfig)}, looking providers up in {@code loader}.
     *
     * @param config the configuration
     * @param loader where to look the providers up
     * @return the open device
     */
    static RdmaDevice open(DeviceConfig config, ClassLoader loader) {
        if (config == null) {
            throw new IllegalArgumentException("DeviceConfig must not be null; use DeviceConfig.defaults()");
        }
        RdmaProvider provider = RdmaProviders.find(config.providerName(), loader);
        RdmaDevice device = provider.open(config);
        if (device == null) {
            throw new IllegalStateException("provider '" + provider.name() + "' (" + provider.getClass().getName()
                    + ") returned no device");
        }
        return device;
    }

    /**
     * {@code open(DeviceConfig.defaults())}.
     *
     * @return the open device
     */
    static RdmaDevice open() {
        return open(DeviceConfig.defaults());
    }

    /** {@return the name of the provider that opened this device} */
    String providerName();

    /** {@return the configuration the device was opened with} */
    DeviceConfig config();

    /**
     * How this device's connections reach the network, in the provider's words (the jwarp engine:
     * its socket I/O layer, "nio", "syscalls", "uring" or "uring-sqpoll"). Benchmarks print it in
     * their header. This default says the provider's name.
     *
     * @return the layer's name
     */
    default String socketIoLayer() {
        return providerName();
    }

    /**
     * Whether nothing progresses unless an application thread calls into the device
     * ({@link #invoke()}, a poll, a post, {@link #invokeUntil}): a provider whose engine runs only
     * on its callers' threads (the jwarp engine's invoker mode). A thread that waits for something
     * the device produces must then run it, with {@link #invokeUntil}; otherwise it may sleep.
     * This default says no.
     *
     * @return whether the callers drive the device
     */
    default boolean needsInvoke() {
        return false;
    }

    /**
     * Whether a thread that waits for something the device produces (a CM event) should wait in
     * {@link #invokeUntil} rather than sleep elsewhere: true where the engine runs on its callers'
     * threads ({@link #needsInvoke()}), and where the waiting thread may run the engine itself and
     * sleep in it, so that what it waits for wakes it with no other thread between (the jwarp
     * engine's hybrid mode). This default says {@link #needsInvoke()}.
     *
     * @return whether waits go through {@link #invokeUntil}
     */
    default boolean waitsInEngine() {
        return needsInvoke();
    }

    /**
     * Allocates a protection domain ({@code ibv_alloc_pd}).
     *
     * @return the protection domain
     */
    ProtectionDomain allocPd();

    /**
     * Creates a completion channel whose wake-ups follow {@code moderation}
     * ({@code ibv_create_comp_channel} plus moderation, which OFED sets per CQ with
     * {@code ibv_modify_cq}; here it is per channel, where the waiter is).
     *
     * @param moderation when a wake-up is raised
     * @return the channel
     */
    CompletionChannel createCompletionChannel(Moderation moderation);

    /**
     * Creates a completion queue ({@code ibv_create_cq}).
     *
     * @param depth   completions it must hold at least, 1..{@link DeviceLimits#maxCqDepth()}; the
     *                provider may round it up ({@link CompletionQueue#depth()} says how many it holds)
     * @param channel the channel it notifies when armed, or {@code null} (busy polling only)
     * @throws IllegalArgumentException if {@code depth} is out of range or {@code channel} belongs to
     *                                  another device
     * @return the completion queue
     */
    CompletionQueue createCq(int depth, CompletionChannel channel);

    /**
     * Creates an RC queue pair in {@link QpState#INIT}, ready to connect or accept ({@code ibv_create_qp}
     * followed by the move to INIT that {@code rdma_create_qp} makes). The provider may
     * round the queue depths up; {@link QueuePair#initAttr()} reports the depths it allocated.
     *
     * @throws IllegalArgumentException if {@code attr} exceeds the device limits
     *                                  ({@link QpInitAttr#checkAgainst}) or names CQs or a PD of another device
     * @throws IllegalStateException    if the device has {@link DeviceLimits#maxQps()} queue pairs
     * @param pd   the protection domain its work requests' memory must belong to
     * @param attr the completion queues, queue depths and limits
     * @return the queue pair
     */
    QueuePair createQp(ProtectionDomain pd, QpInitAttr attr);

    /** {@return the device's connection manager} */
    ConnectionManager connectionManager();

    /**
     * Creates a shared receive queue on {@code pd} ({@code ibv_create_srq}); queue pairs use it
     * through {@link QpInitAttr.Builder#srq}.
     *
     * @throws IllegalArgumentException if {@code pd} belongs to another device or {@code attr} exceeds the device's limits
     * @throws UnsupportedOperationException if the provider has no shared receive queues
     * @param pd   the protection domain
     * @param attr the queue's depth and SGE limit
     * @return the shared receive queue
     */
    default SharedReceiveQueue createSrq(ProtectionDomain pd, SrqInitAttr attr) {
        throw new UnsupportedOperationException(providerName() + " has no shared receive queues");
    }

    /** {@return the device-wide counters: the sum over {@link #engineCounters()} ({@link CounterNames#STANDARD})} */
    Counters counters();

    /**
     * One counter group per engine thread (scope {@code engine-0}, {@code engine-1}, ...); in
     * INVOKER mode one group for the invoked duty cycle.
     *
     * @return the groups, in engine-thread order
     */
    List<Counters> engineCounters();

    /**
     * A provider whose engine runs on its callers' threads (the jwarp engine's invoker and hybrid
     * modes): runs one engine duty cycle on the calling thread (sockets, timers, CM) and returns the
     * amount of work done (0 when idle); never blocks. Call it from one thread at a time;
     * {@code poll}, {@code post*} and {@code await} also run it. A provider with engine threads of
     * its own does nothing and returns 0.
     *
     * @return the amount of work done
     */
    int invoke();

    /**
     * Waits until {@code done} holds or the timeout passes, and returns whether it holds: the
     * blocking wait of a thread that needs something the engine produces (a CM event, say). Where
     * the engine runs on its callers' threads, the waiting thread is the engine: it runs duty
     * cycles, idling between those that found no work as the device's idle strategy does (a post, a
     * new connection or arriving data ends a park). Where it has threads of its own, this only waits. This
     * default checks {@code done} between {@link #invoke()} calls and parks of at most 100 µs;
     * providers idle as their engine does.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     * @param done    the condition
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     * @return whether {@code done} holds
     */
    default boolean invokeUntil(BooleanSupplier done, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(Math.max(0, timeout));
        while (true) {
            if (done.getAsBoolean()) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (invoke() == 0) {
                LockSupport.parkNanos(Math.min(left, 100_000));
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting on the device");
            }
        }
    }

    /**
     * What stopped one of the device's engine threads, if anything did (OFED's
     * {@code IBV_EVENT_DEVICE_FATAL}): its connections have ended with their CM events and their
     * outstanding work requests were flushed; close the device and open a new one.
     *
     * @return the failure, or empty
     */
    default java.util.Optional<Throwable> failure() {
        return java.util.Optional.empty();
    }

    /** Closes the device and everything opened from it. Idempotent. */
    @Override
    void close();
}

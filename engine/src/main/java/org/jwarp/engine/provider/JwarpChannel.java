package org.jwarp.engine.provider;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.idle.IdleStrategies;
import org.jwarp.engine.notify.CompletionNotifier;
import org.jwarp.engine.notify.CqArming;
import org.jwarp.engine.notify.EngineCompletionChannel;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.Moderation;

/**
 * Event notification (seed 003's "event" mode; seed 001's interrupt emulation): an application
 * thread blocks in {@link #await} until an armed CQ gets a matching completion, subject to
 * moderation (after N completions or T µs). The waiting is {@link EngineCompletionChannel}'s; this
 * class ties it to the device, whose engine thread polls the moderation timers.
 */
public final class JwarpChannel implements CompletionChannel {

    private final JwarpDevice device;
    private final CompletionNotifier<CompletionQueue> notifier;
    private final EngineCompletionChannel channel;
    /** Whether an event was raised (or the channel closed) since the waiter last looked; made once, a wait allocates nothing. */
    private final BooleanSupplier raised;

    JwarpChannel(JwarpDevice device, Moderation moderation) {
        this.device = device;
        this.notifier = new CompletionNotifier<>(moderation, device.clock(), device.config().limits().maxQps() * 2);
        this.raised = () -> notifier.doorbell().isPending() || notifier.isClosed();
        // in invoker mode there is no engine thread: the waiting thread is the engine. It runs the
        // duty cycle and idles as an engine thread would, parking on the engine's doorbell (in its
        // I/O driver): a plain park sees neither a post nor arriving data, and a passive side whose
        // only thread waits here would answer its peer only when a park ran out (up to maxPark)
        this.channel = device.invokerMode() && device.engines().standby() == null
                ? new EngineCompletionChannel(notifier, device::invoke, IdleStrategies.create(device.jwarpConfig(),
                        device.engines().invokerParker()))
                : new EngineCompletionChannel(notifier);
    }

    CqArming<CompletionQueue> register(CompletionQueue cq) {
        return notifier.register(cq);
    }

    void unregister(CqArming<CompletionQueue> arming) {
        notifier.unregister(arming);
    }

    /** Engine duty cycle: fires moderated events whose period ran out. */
    public int pollTimers() {
        return notifier.poll();
    }

    public long nanosToNextDeadline() {
        return notifier.nanosToNextDeadline();
    }

    @Override
    public Moderation moderation() {
        return channel.moderation();
    }

    @Override
    public CompletionQueue await(long timeout, TimeUnit unit) throws InterruptedException {
        CompletionQueue ready = channel.tryAwait();
        if (ready != null) {
            return ready;
        }
        if (device.engines().standby() != null) {
            return awaitHoldingTheEngine(unit.toNanos(Math.max(0, timeout)));
        }
        return channel.await(timeout, unit);
    }

    /**
     * HYBRID mode: the waiting thread holds the engine while it waits ({@code EngineWaiter}) and
     * sleeps in its I/O driver, so that the bytes that complete a request wake this thread, which
     * reads them, raises the event and returns it: no engine thread wakes and hands it over. Beside
     * another holder it parks on the notifier's doorbell, which the event rings.
     */
    private CompletionQueue awaitHoldingTheEngine(long nanos) throws InterruptedException {
        long deadline = device.clock().nanoTime() + nanos;
        while (true) {
            notifier.doorbell().consume();               // before looking: a raise after it leaves it set
            CompletionQueue ready = channel.tryAwait();  // throws once the channel is closed
            if (ready != null) {
                return ready;
            }
            long left = deadline - device.clock().nanoTime();
            if (left <= 0) {
                return null;
            }
            device.engines().invokeUntil(raised, left, notifier.doorbell());
        }
    }

    @Override
    public CompletionQueue tryAwait() {
        return channel.tryAwait();
    }

    @Override
    public void close() {
        device.channelClosed(this);
        channel.close();
    }
}

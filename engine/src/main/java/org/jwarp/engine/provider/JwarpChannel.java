package org.jwarp.engine.provider;

import java.util.concurrent.TimeUnit;
import org.jwarp.engine.idle.IdleStrategies;
import org.jwarp.engine.notify.CompletionNotifier;
import org.jwarp.engine.notify.CqArming;
import org.jwarp.engine.notify.NanoClock;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.Moderation;

/**
 * Event notification (seed 003's "event" mode; seed 001's interrupt emulation): an application
 * thread blocks in {@link #await} until an armed CQ gets a matching completion, subject to
 * moderation (after N completions or T µs). Engine threads raise the events and poll the
 * moderation timers in their duty cycle.
 */
final class JwarpChannel implements CompletionChannel {

    private final JwarpDevice device;
    private final CompletionNotifier<CompletionQueue> notifier;

    JwarpChannel(JwarpDevice device, Moderation moderation) {
        this.device = device;
        this.notifier = new CompletionNotifier<>(moderation, NanoClock.SYSTEM, device.config().limits().maxQps() * 2);
    }

    CqArming<CompletionQueue> register(CompletionQueue cq) {
        return notifier.register(cq);
    }

    void unregister(CqArming<CompletionQueue> arming) {
        notifier.unregister(arming);
    }

    /** Engine duty cycle: fires moderated events whose period ran out. */
    int pollTimers() {
        return notifier.poll();
    }

    @Override
    public Moderation moderation() {
        return notifier.moderation();
    }

    @Override
    public CompletionQueue await(long timeout, TimeUnit unit) throws InterruptedException {
        if (device.invokerMode()) {
            // no engine thread: the waiting thread runs the duty cycle itself while it waits
            return notifier.await(timeout, unit, device.invoker(),
                    IdleStrategies.create(device.config(), org.jwarp.engine.idle.Parker.PLAIN));
        }
        return notifier.await(timeout, unit);
    }

    @Override
    public CompletionQueue tryAwait() {
        return notifier.tryAwait();
    }

    @Override
    public void close() {
        device.channelClosed(this);
        notifier.close();
    }
}

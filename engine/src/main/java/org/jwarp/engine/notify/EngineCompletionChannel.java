package org.jwarp.engine.notify;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.jwarp.engine.agent.AgentInvoker;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.provider.JwarpConfig.ThreadingMode;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.Moderation;

/**
 * The verbs {@link CompletionChannel} over a {@link CompletionNotifier}. In
 * {@link ThreadingMode#DEDICATED} mode a waiter parks until an engine thread raises an event; in
 * {@link ThreadingMode#INVOKER} mode there is no engine thread, so waiting runs the engine's duty
 * cycle on the waiter's thread, idling between cycles that found no work (the verbs contract).
 */
public final class EngineCompletionChannel implements CompletionChannel {

    private final CompletionNotifier<CompletionQueue> notifier;
    private final IntSupplier invoker;
    private final IdleStrategy idle;

    /** DEDICATED mode: engine threads raise the events. */
    public EngineCompletionChannel(CompletionNotifier<CompletionQueue> notifier) {
        if (notifier == null) {
            throw new IllegalArgumentException("notifier must not be null");
        }
        this.notifier = notifier;
        this.invoker = null;
        this.idle = null;
    }

    /**
     * INVOKER mode: waiting runs {@code invoker}'s duty cycle (whose agent polls the notifier)
     * and idles with {@code idle} between cycles.
     */
    public EngineCompletionChannel(CompletionNotifier<CompletionQueue> notifier, AgentInvoker invoker,
                                   IdleStrategy idle) {
        this(notifier, invoker == null ? null : (IntSupplier) invoker::invoke, idle);
    }

    /**
     * INVOKER mode: waiting runs {@code dutyCycle} (which returns its work count and polls the
     * notifier) and idles with {@code idle} between cycles. The waiting thread is the engine then:
     * the idle strategy should park the way an engine thread does (on its doorbell, in its
     * I/O driver), so that a post or arriving data ends the park.
     */
    public EngineCompletionChannel(CompletionNotifier<CompletionQueue> notifier, IntSupplier dutyCycle,
                                   IdleStrategy idle) {
        IntSupplier invoker = dutyCycle;
        if (notifier == null || invoker == null || idle == null) {
            throw new IllegalArgumentException("notifier, invoker and idle strategy must not be null");
        }
        this.notifier = notifier;
        this.invoker = invoker;
        this.idle = idle;
    }

    @Override
    public Moderation moderation() {
        return notifier.moderation();
    }

    @Override
    public CompletionQueue await(long timeout, TimeUnit unit) throws InterruptedException {
        return invoker == null ? notifier.await(timeout, unit) : notifier.await(timeout, unit, invoker, idle);
    }

    /** Takes a queued event; in INVOKER mode first runs one duty cycle, so that events can arise at all. */
    @Override
    public CompletionQueue tryAwait() {
        if (notifier.isClosed()) {
            throw new IllegalStateException("completion channel is closed");
        }
        if (invoker != null) {
            CompletionQueue q = notifier.tryAwait();
            if (q != null) {
                return q;
            }
            invoker.getAsInt();
        }
        return notifier.tryAwait();
    }

    @Override
    public void close() {
        notifier.close();
    }

    /** The notifier, for the engine side (registering CQs, polling timers). */
    public CompletionNotifier<CompletionQueue> notifier() {
        return notifier;
    }

    /** Whether waiting runs the duty cycle on the waiter's thread. */
    public boolean isInvokerMode() {
        return invoker != null;
    }
}

package org.jwarp.engine.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.jwarp.engine.agent.Agent;
import org.jwarp.engine.agent.AgentInvoker;
import org.jwarp.engine.idle.ParkIdleStrategy;
import org.jwarp.engine.idle.Parker;
import org.jwarp.sys.NanoClock;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

class EngineCompletionChannelTest {

    /** A CQ stand-in: the channel only hands CQ references around. */
    private static final class StubCq implements CompletionQueue {
        @Override
        public RdmaDevice device() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int handle() {
            return 1;
        }

        @Override
        public int depth() {
            return 16;
        }

        @Override
        public CompletionChannel channel() {
            return null;
        }

        @Override
        public int poll(WorkCompletion[] wcs, int max) {
            return 0;
        }

        @Override
        public void requestNotify(boolean solicitedOnly) {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void dedicatedModeDelegatesToTheNotifier() throws InterruptedException {
        CompletionNotifier<CompletionQueue> n = new CompletionNotifier<>(Moderation.of(2, 10), NanoClock.SYSTEM, 4);
        EngineCompletionChannel channel = new EngineCompletionChannel(n);
        assertFalse(channel.isInvokerMode());
        assertEquals(Moderation.of(2, 10), channel.moderation());
        StubCq stub = new StubCq();
        CqArming<CompletionQueue> cq = n.register(stub);
        cq.requestNotify(false);
        cq.onCompletion(false);
        assertNull(channel.tryAwait(), "1 of 2");
        cq.onCompletion(false);
        assertSame(stub, channel.await(1, TimeUnit.SECONDS));
        assertThrows(IllegalStateException.class, channel::close, "a CQ is still attached");
        n.unregister(cq);
        channel.close();
        assertThrows(IllegalStateException.class, channel::tryAwait);
    }

    @Test
    void invokerModeRunsTheDutyCycleWhileWaiting() throws InterruptedException {
        CompletionNotifier<CompletionQueue> n = new CompletionNotifier<>(Moderation.NONE, NanoClock.SYSTEM, 4);
        StubCq stub = new StubCq();
        CqArming<CompletionQueue> cq = n.register(stub);
        int[] cycles = {0};
        Agent engine = new Agent() {
            @Override
            public int doWork() {
                cycles[0]++;
                if (cycles[0] % 3 == 0) {
                    cq.onCompletion(false);               // every third cycle completes a request
                    return 1;
                }
                return n.poll();
            }

            @Override
            public String roleName() {
                return "invoked";
            }
        };
        try (AgentInvoker invoker = new AgentInvoker(engine).start()) {
            EngineCompletionChannel channel = new EngineCompletionChannel(n, invoker,
                    new ParkIdleStrategy(Parker.PLAIN, 1_000));
            assertTrue(channel.isInvokerMode());
            cq.requestNotify(false);
            assertNull(channel.tryAwait(), "cycle 1: nothing yet");
            assertNull(channel.tryAwait(), "cycle 2");
            assertSame(stub, channel.tryAwait(), "cycle 3 completes and raises the event");
            cq.requestNotify(false);
            assertSame(stub, channel.await(5, TimeUnit.SECONDS));
            assertEquals(6, cycles[0]);
        }
    }
}

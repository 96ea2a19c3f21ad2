package org.jwarp.engine.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.engine.notify.Doorbell;
import org.junit.jupiter.api.Test;

class AgentInvokerTest {

    private static final class ScriptedAgent implements Agent {
        final List<String> events = new ArrayList<>();
        final Thread owner = Thread.currentThread();
        int cycles;
        int failAt = -1;

        @Override
        public void onStart() {
            events.add("start");
        }

        @Override
        public int doWork() {
            if (Thread.currentThread() != owner) {
                throw new AssertionError("invoker mode runs on the caller's thread");
            }
            cycles++;
            if (cycles == failAt) {
                throw new IllegalStateException("bad frame state");
            }
            return cycles % 2;
        }

        @Override
        public void onClose() {
            events.add("close");
        }

        @Override
        public String roleName() {
            return "invoked";
        }
    }

    @Test
    void invokeRunsOneDutyCycleOnTheCallersThread() {
        ScriptedAgent agent = new ScriptedAgent();
        EngineCounters counters = new EngineCounters("engine-0", new Doorbell());
        AgentInvoker invoker = new AgentInvoker(agent, ErrorHandler.RECORD_ONLY, counters);
        assertThrows(IllegalStateException.class, invoker::invoke, "not started");
        invoker.start();
        assertEquals(1, invoker.invoke());
        assertEquals(0, invoker.invoke());
        assertEquals(1, invoker.invoke());
        assertEquals(3, invoker.dutyCycles());
        assertEquals(3, counters.view().get(EngineCounters.DUTY_CYCLES));
        invoker.close();
        invoker.close();
        assertEquals(List.of("start", "close"), agent.events);
        assertEquals(0, invoker.invoke(), "a closed invoker does nothing");
        assertTrue(invoker.isClosed());
    }

    @Test
    void failureIsThrownToTheCallerReportedAndClosesTheAgent() {
        ScriptedAgent agent = new ScriptedAgent();
        agent.failAt = 2;
        List<AgentFailedException> reported = new ArrayList<>();
        AgentInvoker invoker = new AgentInvoker(agent, reported::add, null).start();
        invoker.invoke();
        AgentFailedException f = assertThrows(AgentFailedException.class, invoker::invoke);
        assertTrue(f.getMessage().contains("'invoked' failed in doWork at duty cycle 2"), f.getMessage());
        assertEquals(List.of(f), reported);
        assertSame(f, invoker.failure());
        assertEquals(List.of("start", "close"), agent.events);
        IllegalStateException later = assertThrows(IllegalStateException.class, invoker::invoke);
        assertSame(f, later.getCause(), "later calls keep pointing at the failure");
        invoker.close();
        assertEquals(List.of("start", "close"), agent.events, "closed once");
    }

    @Test
    void aPartOfACycleRunsOnTheCallersThreadUncountedAndFailsAsACycleWould() {
        ScriptedAgent agent = new ScriptedAgent();
        EngineCounters counters = new EngineCounters("engine-0", new Doorbell());
        List<AgentFailedException> reported = new ArrayList<>();
        AgentInvoker invoker = new AgentInvoker(agent, reported::add, counters);
        assertThrows(IllegalStateException.class, () -> invoker.invoke(() -> 1), "not started");
        invoker.start();
        Thread[] ranOn = new Thread[1];
        assertEquals(7, invoker.invoke(() -> {
            ranOn[0] = Thread.currentThread();
            return 7;
        }));
        assertSame(Thread.currentThread(), ranOn[0]);
        assertEquals(0, invoker.dutyCycles(), "a part is not a duty cycle");
        assertEquals(0, counters.view().get(EngineCounters.DUTY_CYCLES));
        invoker.invoke();
        AgentFailedException f = assertThrows(AgentFailedException.class, () -> invoker.invoke(() -> {
            throw new IllegalStateException("bad frame state");
        }));
        assertTrue(f.getMessage().contains("'invoked' failed in part of duty cycle 2"), f.getMessage());
        assertEquals(List.of(f), reported);
        assertEquals(List.of("start", "close"), agent.events, "the failure closed the agent");
        IllegalStateException later = assertThrows(IllegalStateException.class, () -> invoker.invoke(() -> 1));
        assertSame(f, later.getCause());
    }

    @Test
    void onStartFailureClosesTheAgent() {
        Agent agent = new Agent() {
            boolean closed;

            @Override
            public void onStart() {
                throw new IllegalStateException("no memory");
            }

            @Override
            public int doWork() {
                return 0;
            }

            @Override
            public void onClose() {
                closed = true;
            }

            @Override
            public String roleName() {
                return "start-fails";
            }

            @Override
            public String toString() {
                return "closed=" + closed;
            }
        };
        AgentInvoker invoker = new AgentInvoker(agent);
        AgentFailedException f = assertThrows(AgentFailedException.class, invoker::start);
        assertTrue(f.getMessage().contains("in onStart"));
        assertEquals("closed=true", agent.toString());
        assertThrows(IllegalStateException.class, invoker::start);
    }
}

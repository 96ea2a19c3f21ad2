package org.jwarp.engine.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoRegistration;
import org.jwarp.engine.io.SocketIo;
import org.junit.jupiter.api.Test;

/** When a thread running cycles looks for its listeners' readiness itself: on the clock, not per cycle. */
class EngineListenersTest {

    /** Counts readiness checks; nothing is ever ready. */
    static final class CountingDriver implements IoDriver {
        int polls;
        int acceptTakes;

        @Override public String layer() {
            return "counting";
        }

        @Override public SocketIo open(SocketChannel channel, int capacity) {
            throw new UnsupportedOperationException();
        }

        @Override public IoRegistration register(SelectableChannel channel, int interestOps, Object attachment) {
            throw new UnsupportedOperationException();
        }

        @Override public int pollNow(ReadyHandler handler) {
            polls++;
            return 0;
        }

        @Override public boolean takeAcceptReady() {
            acceptTakes++;
            return false;
        }

        @Override public void flush() {
        }

        @Override public void sleep(long nanos) {
        }

        @Override public void wakeup() {
        }

        @Override public long sleeps() {
            return 0;
        }

        @Override public void close() {
        }
    }

    @Test
    void aBusyThreadChecksItsListenersOncePerInterval() {
        CountingDriver io = new CountingDriver();
        EngineListeners listeners = new EngineListeners(io, true);
        long now = 1_000_000_000L;
        listeners.acceptWork(now, false);
        assertEquals(1, io.polls, "the first cycle checks");
        long step = EngineListeners.CHECK_NANOS / 10;
        for (long t = now + step; t < now + EngineListeners.CHECK_NANOS; t += step) {
            listeners.acceptWork(t, false);
        }
        assertEquals(1, io.polls, "no check within the interval");
        listeners.acceptWork(now + EngineListeners.CHECK_NANOS, false);
        assertEquals(2, io.polls, "one once it has passed");
        assertEquals(11, io.acceptTakes, "every cycle reads what sleeps and checks saw");
    }

    @Test
    void aClockThatStandsStillStillGetsChecks() {
        CountingDriver io = new CountingDriver();
        EngineListeners listeners = new EngineListeners(io, true);
        long now = 5_000_000_000L;
        listeners.acceptWork(now, false);
        for (int i = 1; i < EngineListeners.CHECK_CYCLES; i++) {
            listeners.acceptWork(now, false);
        }
        assertEquals(1, io.polls, "fewer cycles than the count: no check");
        listeners.acceptWork(now, false);
        assertEquals(2, io.polls, "the count's cycle checks");
    }

    @Test
    void theSchedulersChecksAreTheListenersToo() {
        CountingDriver io = new CountingDriver();
        EngineListeners listeners = new EngineListeners(io, true);
        long now = 2_000_000_000L;
        for (int i = 0; i < 10 * EngineListeners.CHECK_CYCLES; i++) {
            listeners.acceptWork(now + i * EngineListeners.CHECK_NANOS, true);
        }
        assertEquals(0, io.polls, "the scheduler checked every cycle");
        listeners.acceptWork(now + (10L * EngineListeners.CHECK_CYCLES - 1) * EngineListeners.CHECK_NANOS
                + EngineListeners.CHECK_NANOS / 2, false);
        assertEquals(0, io.polls, "its last check was a cycle ago");
    }

    @Test
    void directSocketsAreAcceptedByTheRingsWithoutChecks() {
        CountingDriver io = new CountingDriver();
        EngineListeners listeners = new EngineListeners(io, false);
        for (long t = 0; t < 10 * EngineListeners.CHECK_NANOS; t += 10_000) {
            listeners.acceptWork(t, false);
        }
        assertEquals(0, io.polls);
    }
}

package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * In invoker and hybrid modes another thread may be inside a duty cycle, or idling between cycles of
 * its wait, when the device closes: the close waits for the cycle to end before it shuts the
 * engine down, and the wait carries on without cycles or their sleep until its deadline.
 */
class CloseUnderInvokedWaitTest {

    @Test
    void aDeviceClosedWhileAnotherThreadWaitsInItsCyclesEndsCleanly() throws Exception {
        for (int round = 0; round < 20; round++) {
            LoopbackPair p = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.invoker(), new byte[0], new byte[0]);
            CountDownLatch waiting = new CountDownLatch(1);
            CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
                waiting.countDown();
                try {
                    return p.server.device.invokeUntil(() -> false, 300, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            assertTrue(waiting.await(20, TimeUnit.SECONDS));
            Thread.sleep(round % 5);                        // a close at different points of the wait's cycles
            p.close();
            assertFalse(waiter.get(20, TimeUnit.SECONDS), "the wait ends at its deadline, without an exception");
            assertNull(((JwarpDevice) p.server.device).failure().orElse(null), "no engine failure at the close");
        }
    }
}

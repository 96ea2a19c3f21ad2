package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jwarp.engine.runtime.CommandQueue;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;

/**
 * A flood of setup commands holds its producers back instead of growing the engine's queue: a thread
 * outside the engine waits for room, an engine cycle is refused at once (it must never wait on a
 * queue that only an engine drains), and every command queued runs, in order.
 */
class CommandFloodTest {

    @Test
    void aFullQueueHoldsBackItsProducerAndRefusesAnEngineCycle() throws Exception {
        DeviceConfig config = DeviceConfig.builder().provider(SuiteConfig.jwarp()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).build()).build();
        try (RdmaDevice device = RdmaDevice.open(config)) {
            EngineWorker engine = ((JwarpDevice) device).engines().workers()[0];
            CountDownLatch blocked = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            engine.execute(() -> {
                blocked.countDown();
                await(release);                            // the engine thread is busy: nothing drains
            });
            assertTrue(blocked.await(20, TimeUnit.SECONDS));
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger outOfOrder = new AtomicInteger();
            for (int i = 0; i < CommandQueue.DEFAULT_CAPACITY; i++) {
                int n = i;
                engine.execute(() -> {
                    if (ran.getAndIncrement() != n) {
                        outOfOrder.incrementAndGet();
                    }
                });
            }
            CompletableFuture<Void> oneMore = CompletableFuture.runAsync(() -> engine.execute(ran::incrementAndGet));
            assertFalse(waitedOut(oneMore), "the producer of a command beyond the capacity waits for room");
            release.countDown();
            oneMore.get(20, TimeUnit.SECONDS);
            CompletableFuture<Throwable> fromEngine = new CompletableFuture<>();
            engine.execute(() -> {
                for (int i = 0; i < CommandQueue.DEFAULT_CAPACITY; i++) {
                    engine.execute(() -> { });              // fills the queue from the engine's own cycle
                }
                fromEngine.complete(assertThrows(RejectedExecutionException.class, () -> engine.execute(() -> { })));
            });
            assertTrue(fromEngine.get(20, TimeUnit.SECONDS).getMessage().contains("command queue is full"));
            CountDownLatch drained = new CountDownLatch(1);
            engine.execute(drained::countDown);
            assertTrue(drained.await(20, TimeUnit.SECONDS));
            assertEquals(CommandQueue.DEFAULT_CAPACITY + 1, ran.get(), "every command queued ran");
            assertEquals(0, outOfOrder.get(), "in the order queued");
        }
    }

    /** Whether {@code f} completes within a short look (it must not: its producer waits). */
    private static boolean waitedOut(CompletableFuture<Void> f) throws InterruptedException {
        try {
            f.get(200, TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException stillWaiting) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError("the waiting producer failed", e.getCause());
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

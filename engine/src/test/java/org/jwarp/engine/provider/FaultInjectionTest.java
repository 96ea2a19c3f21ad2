package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Faults under a busy connection (WRITEs, SENDs and READs) — the peer reset, a peer that stops
 * reading, a peer that stops in the middle of an FPDU — while a second connection shares the client's engine thread: every
 * work request posted on the faulted connection completes exactly once (success or flush), its
 * receives too, and the other connection then moves verified data.
 */
class FaultInjectionTest {

    static final Duration WAIT = Duration.ofSeconds(20);
    static final int SIZE = 64 * 1024;
    static final int WRITES = 48;

    enum Fault { RESET, ZERO_WINDOW, MID_FPDU }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void everyRequestCompletesOnceAndTheOtherConnectionCarriesOn(Fault fault) throws Exception {
        try (DevicePair d = new DevicePair(1024)) {
            RdmaDevice client = d.client;
            CompletionQueue ccq = d.ccq;
            MemoryRegion target = d.serverRegion(SIZE, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            MemoryRegion source = d.clientRegion(SIZE, Access.LOCAL_WRITE);
            MemoryRegion back = d.clientRegion(SIZE, Access.LOCAL_WRITE);
            MemoryRegion inbox = d.clientRegion(4096, Access.LOCAL_WRITE);
            for (int i = 0; i < SIZE; i++) {
                source.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            try (FaultRelay relay = new FaultRelay(d.listener.localAddress())) {
                DevicePair.Connected f = d.connect(relay.address());
                QueuePair faulted = f.client();
                QueuePair healthy = d.connect().client();
                MemoryRegion serverInbox = d.serverRegion(16 * 1024, Access.LOCAL_WRITE);
                for (int r = 0; r < 16; r++) {
                    assertEquals(PostStatus.OK, f.server().postRecv(new RecvWr().wrId(r).addSge(serverInbox, r * 1024L, 1024)));
                }
                for (int r = 0; r < 4; r++) {
                    assertEquals(PostStatus.OK, faulted.postRecv(new RecvWr().wrId(1000 + r).addSge(inbox, r * 512L, 512)));
                }
                switch (fault) {
                    case RESET -> { }
                    case ZERO_WINDOW -> relay.freeze();
                    case MID_FPDU -> relay.cutAfter(SIZE * 3L + 1000);
                }
                // a stream of WRITEs, SENDs and READs on the connection about to fail
                Map<Long, Integer> completions = new HashMap<>();
                int posted = 0;
                for (int i = 0; i < WRITES; i++) {
                    SendWr wr = switch (i % 4) {
                        case 1 -> new SendWr().wrId(i).signaled(true).opcode(WrOpcode.SEND).addSge(source, 0, 1024);
                        case 3 -> new SendWr().wrId(i).signaled(true).opcode(WrOpcode.RDMA_READ).addSge(back, 0, SIZE)
                                .remote(target.iova(), target.rkey());
                        default -> new SendWr().wrId(i).signaled(true).opcode(WrOpcode.RDMA_WRITE)
                                .addSge(source, 0, SIZE).remote(target.iova(), target.rkey());
                    };
                    int rc = faulted.postSend(wr);
                    if (rc == PostStatus.OK) {
                        posted++;
                    } else {
                        break;                          // queue full: what was posted is what counts
                    }
                    if (i == 8 && fault == Fault.RESET) {
                        relay.reset();
                    }
                }
                if (fault == Fault.ZERO_WINDOW) {
                    // nothing moves; the application gives up on the connection
                    client.connectionManager().disconnect(faulted);
                }
                CmEvent end = f.clientEvents().poll(WAIT, client);
                assertNotNull(end, fault + ": the faulted connection must end with an event");
                assertTrue(end instanceof CmEvent.Disconnected, fault + ": " + end);
                // every posted request and receive completes exactly once
                WorkCompletion[] wcs = {new WorkCompletion()};
                long deadline = System.nanoTime() + WAIT.toNanos();
                int expected = posted + 4;
                int seen = 0;
                while (seen < expected) {
                    assertTrue(System.nanoTime() < deadline, fault + ": " + seen + " of " + expected + " completions");
                    if (ccq.poll(wcs) == 0) {
                        Thread.onSpinWait();
                        continue;
                    }
                    WorkCompletion wc = wcs[0];
                    assertTrue(wc.status() == WcStatus.SUCCESS || wc.status() == WcStatus.WR_FLUSH_ERR, wc.toString());
                    assertEquals(null, completions.put(wc.wrId(), 1), "completed twice: " + wc);
                    seen++;
                }
                assertEquals(QpState.ERROR, faulted.state());
                assertEquals(0, ccq.poll(wcs), "nothing completes beyond what was posted");
                // the other connection on the same engine thread moves verified data
                assertEquals(PostStatus.OK, healthy.postSend(new SendWr().wrId(5000).opcode(WrOpcode.RDMA_WRITE)
                        .signaled(true).addSge(source, 0, SIZE).remote(target.iova(), target.rkey())));
                assertEquals(PostStatus.OK, healthy.postSend(new SendWr().wrId(5001).opcode(WrOpcode.RDMA_READ)
                        .signaled(true).addSge(back, 0, SIZE).remote(target.iova(), target.rkey())));
                for (int k = 0; k < 2; k++) {
                    while (ccq.poll(wcs) == 0) {
                        assertTrue(System.nanoTime() < deadline + WAIT.toNanos(), "the healthy connection stalled");
                        Thread.onSpinWait();
                    }
                    assertSame(WcStatus.SUCCESS, wcs[0].status(), wcs[0].toString());
                }
                assertEquals(-1, back.segment().mismatch(source.segment()));
            }
        }
    }
}

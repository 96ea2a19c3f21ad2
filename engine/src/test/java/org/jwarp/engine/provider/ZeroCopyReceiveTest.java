package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jwarp.engine.datapath.SocketReceiver;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.FpduDecoder;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateHeader;

/**
 * Zero-copy receive over real loopback TCP ({@link SocketReceiver}): payloads of segments of
 * {@link SocketReceiver#DIRECT_FROM} bytes or more are read from the socket straight into the
 * target region or the posted receive's buffers — the {@code rx.direct.bytes} counter proves the
 * path was taken — smaller ones go through staging; data is compared byte for byte around the
 * threshold, across several scatter/gather entries at unaligned offsets, with CRC on and off. A
 * bit error inside a directly placed payload still ends in the MPA CRC Terminate.
 */
class ZeroCopyReceiveTest {

    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    static final int T = SocketReceiver.DIRECT_FROM;
    /** Per segment, bytes that may come through staging (the lookahead and a Write's last byte). */
    static final int SLACK = SocketReceiver.LOOKAHEAD + 1;

    static long direct(QueuePair qp) {
        return qp.counters().get(CounterNames.RX_DIRECT_BYTES);
    }

    /** Segments of a message on loopback (MULPDU just under 64 KiB), rounded up generously. */
    static long segments(long size) {
        return size / 60_000 + 1;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void writesAndReadsAroundTheThresholdArePlacedByteForByte(boolean crc) throws Exception {
        DeviceConfig config = LoopbackPair.dedicated().toBuilder()
                .crcPolicy(crc ? DeviceConfig.CrcPolicy.REQUIRED : DeviceConfig.CrcPolicy.OFF).build();
        try (LoopbackPair p = new LoopbackPair(config, config, new byte[0], new byte[0])) {
            assertEquals(crc, p.clientEstablished.attr().crc());
            int[] sizes = {T - 1, T, T + 1, 65_536, (1 << 20) + 3, T - 1};
            for (int size : sizes) {
                MemoryRegion local = p.client.register(size + 7, Access.LOCAL_WRITE);
                MemoryRegion remote = p.server.register(size + 5, RW);
                MemoryRegion back = p.client.register(size + 9, Access.LOCAL_WRITE);
                for (int round = 0; round < 2; round++) {
                    LoopbackTest.fill(local.segment(), size + round);
                    long serverBefore = direct(p.server.qp);
                    long clientBefore = direct(p.client.qp);
                    post(p.client.qp, new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                            .addSge(local, 7, size).remote(remote.iova() + 5, remote.rkey()));
                    post(p.client.qp, new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true)
                            .addSge(back, 9, size).remote(remote.iova() + 5, remote.rkey()));
                    assertSame(WcStatus.SUCCESS, p.client.next().status());
                    WorkCompletion rd = p.client.next();
                    assertSame(WcStatus.SUCCESS, rd.status(), rd.toString());
                    assertSame(WcOpcode.RDMA_READ, rd.opcode());
                    LoopbackTest.assertSameBytes(local.segment(), 7, remote.segment(), 5, size);
                    LoopbackTest.assertSameBytes(local.segment(), 7, back.segment(), 9, size);
                    long toServer = direct(p.server.qp) - serverBefore;
                    long toClient = direct(p.client.qp) - clientBefore;
                    String where = "size " + size + ", round " + round + ": Write placed " + toServer
                            + " bytes directly, Read Response " + toClient;
                    if (size < T) {
                        assertEquals(0, toServer, where);
                        assertEquals(0, toClient, where);
                    } else if (round == 1) {
                        // the first round showed each side large messages: from now on only the
                        // lookahead after each header comes through staging, and a last segment
                        // under the threshold
                        long least = size - segments(size) * SLACK - (size > T + 1 ? T : 0);
                        assertTrue(toServer >= least && toServer < size, where);
                        assertTrue(toClient >= least && toClient <= size, where);
                    }
                }
                local.deregister();
                remote.deregister();
                back.deregister();
            }
            assertEquals(0, p.server.qp.counters().get(CounterNames.CRC_ERRORS));
        }
    }

    /**
     * The threshold is the device's ({@link JwarpConfig#rxDirectFrom()}): never direct stages a
     * 1 MiB Write whole; from 4 KiB on, an 8 KiB Write's payload (under the default) is placed
     * directly. Bytes arrive exact either way.
     */
    @ParameterizedTest
    @ValueSource(longs = {JwarpConfig.NEVER_DIRECT, 4096})
    void theDeviceSetsTheThreshold(long directFrom) throws Exception {
        DeviceConfig config = SuiteConfig.withJwarp(LoopbackPair.dedicated(), j -> j.rxDirectFrom(directFrom));
        int size = directFrom == JwarpConfig.NEVER_DIRECT ? 1 << 20 : 8192;
        try (LoopbackPair p = new LoopbackPair(config, config, new byte[0], new byte[0])) {
            MemoryRegion local = p.client.register(size, Access.LOCAL_WRITE);
            MemoryRegion remote = p.server.register(size, RW);
            for (int round = 0; round < 2; round++) {
                LoopbackTest.fill(local.segment(), size + round);
                long before = direct(p.server.qp);
                post(p.client.qp, new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                        .addSge(local, 0, size).remote(remote.iova(), remote.rkey()));
                assertSame(WcStatus.SUCCESS, p.client.next().status());
                // the Write's completion says it left; a Read behind it says the peer placed it
                post(p.client.qp, new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true)
                        .addSge(local, 0, 1).remote(remote.iova(), remote.rkey()));
                assertSame(WcStatus.SUCCESS, p.client.next().status());
                LoopbackTest.assertSameBytes(local.segment(), 0, remote.segment(), 0, size);
                long placed = direct(p.server.qp) - before;
                if (directFrom == JwarpConfig.NEVER_DIRECT) {
                    assertEquals(0, placed, "round " + round);
                } else if (round == 1) {
                    assertTrue(placed > 0 && placed < size, "round " + round + ": " + placed + " bytes placed directly");
                }
            }
        }
    }

    @Test
    void sendsAreScatteredStraightIntoSeveralEntriesAtUnalignedOffsets() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.invoker(), new byte[0],
                new byte[0])) {
            int size = 300_001;
            MemoryRegion src = p.client.register(size + 3, Access.LOCAL_WRITE);
            MemoryRegion d1 = p.server.register(200_000, Access.LOCAL_WRITE);
            MemoryRegion d2 = p.server.register(150_000, Access.LOCAL_WRITE);
            for (int round = 0; round < 3; round++) {
                LoopbackTest.fill(src.segment(), round);
                d1.segment().fill((byte) 0);
                d2.segment().fill((byte) 0);
                long before = direct(p.server.qp);
                // 1 + 0 + 199 990 + 100 010 bytes (+ 1000 unused) across two regions
                post(p.server.qp, new RecvWr().wrId(10 + round).addSge(d2, 17, 1).addSge(d1, 0, 0)
                        .addSge(d1, 9, 199_990).addSge(d2, 20_001, 101_010));
                post(p.client.qp, new SendWr().wrId(20 + round).opcode(WrOpcode.SEND).signaled(true)
                        .addSge(src, 3, size));
                WorkCompletion s = nextOn(p, p.client);
                assertSame(WcStatus.SUCCESS, s.status(), s.toString());
                WorkCompletion r = nextOn(p, p.server);
                assertSame(WcStatus.SUCCESS, r.status(), r.toString());
                assertEquals(10 + round, r.wrId());
                assertEquals(size, r.byteLen());
                LoopbackTest.assertSameBytes(src.segment(), 3, d2.segment(), 17, 1);
                LoopbackTest.assertSameBytes(src.segment(), 4, d1.segment(), 9, 199_990);
                LoopbackTest.assertSameBytes(src.segment(), 199_994, d2.segment(), 20_001, 100_010);
                assertEquals(0, d2.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 20_001 + 100_010));
                long placed = direct(p.server.qp) - before;
                if (round > 0) {
                    assertTrue(placed >= size - segments(size) * SLACK - T, "round " + round + ": " + placed);
                }
            }
        }
    }

    /**
     * A bit error inside a payload that went straight into the target: the data is already in
     * the region (as on any RNIC that places before the CRC is known, RFC 5044 §4.4), but the
     * FPDU fails its CRC, the receiver sends the MPA CRC Terminate (RFC 5044 §8, error 2) and
     * every request on both sides completes — none lost, none twice, none as a success that
     * depended on the bad FPDU.
     */
    @Test
    void aCrcErrorInADirectlyPlacedPayloadTerminates() throws Exception {
        DeviceConfig config = LoopbackPair.dedicated();
        try (LoopbackPair.End client = new LoopbackPair.End(config);
             LoopbackPair.End server = new LoopbackPair.End(config);
             Listener l = server.device.connectionManager().listen(
                     new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4, server.events);
             FlippingRelay relay = new FlippingRelay(l.localAddress())) {
            client.device.connectionManager().connect(relay.address(), client.qp, ConnectParams.of(new byte[0]),
                    client.events);
            server.events.expect(CmEvent.ConnectRequest.class, LoopbackPair.WAIT).request().accept(server.qp, new byte[0]);
            client.events.expect(CmEvent.Established.class, LoopbackPair.WAIT);
            server.events.expect(CmEvent.Established.class, LoopbackPair.WAIT);
            int size = 1 << 20;
            MemoryRegion src = client.register(size, Access.LOCAL_WRITE);
            MemoryRegion dst = server.register(size, RW);
            MemoryRegion back = client.register(8, Access.LOCAL_WRITE);
            MemoryRegion recv = server.register(64, Access.LOCAL_WRITE);
            LoopbackTest.fill(src.segment(), 5);
            // a clean Write first: the server sees large messages; the Read says it was placed
            post(client.qp, new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(src, 0, size)
                    .remote(dst.iova(), dst.rkey()));
            post(client.qp, new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(back, 0, 8)
                    .remote(dst.iova(), dst.rkey()));
            assertSame(WcStatus.SUCCESS, client.next().status());
            dst.segment().fill((byte) 0);
            long before = direct(server.qp);
            post(server.qp, new RecvWr().wrId(3).addSge(recv, 0, 64));
            // the 300 000th byte of the next Write, well inside its fifth FPDU's payload
            relay.arm(300_000);
            LoopbackTest.fill(src.segment(), 6);
            post(client.qp, new SendWr().wrId(4).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src, 0, size)
                    .remote(dst.iova(), dst.rkey()));

            CmEvent.Disconnected sd = server.events.expect(CmEvent.Disconnected.class, LoopbackPair.WAIT);
            assertSame(CmEvent.Disconnected.Cause.TERMINATE_SENT, sd.cause());
            assertEquals(MpaError.CRC_ERROR.controlBits(), sd.terminate());
            CmEvent.Disconnected cd = client.events.expect(CmEvent.Disconnected.class, LoopbackPair.WAIT);
            assertSame(CmEvent.Disconnected.Cause.TERMINATE_RECEIVED, cd.cause());
            assertEquals(MpaError.CRC_ERROR.controlBits(), cd.terminate());

            // the damaged FPDU was the fifth: more than four FPDUs' payload went straight to the target
            long placed = direct(server.qp) - before;
            assertTrue(placed > 4 * 65_536L && placed < size, "placed directly: " + placed);
            assertEquals(1, server.qp.counters().get(CounterNames.CRC_ERRORS));
            assertEquals(1, server.qp.counters().get(CounterNames.TERMINATES_TX));
            assertEquals(1, client.qp.counters().get(CounterNames.TERMINATES_RX));

            // on the wire: the server's last words are one Terminate naming MPA error 2
            byte[] wire = relay.fromServer();
            FpduDecoder d = new FpduDecoder().start(true, false, true, 0);
            d.feed(MemorySegment.ofArray(wire), 0, wire.length);
            assertEquals(FpduDecoder.HEADER, d.next());
            assertSame(RdmapOpcode.TERMINATE, d.opcode());
            TerminateHeader t = new TerminateHeader().wrap(d.rdmapHeaderSegment(), d.rdmapHeaderOffset(),
                    d.rdmapHeaderLength());
            assertEquals(MpaError.CRC_ERROR.controlBits(), t.controlWord() & 0xFFFF_0000);
            assertEquals(FpduDecoder.END, d.next());
            assertEquals(FpduDecoder.NEED_MORE, d.next());

            // completions: the server's receive flushes; the client's Write completes once
            WorkCompletion r = server.next();
            assertEquals(3, r.wrId());
            assertSame(WcStatus.WR_FLUSH_ERR, r.status());
            WorkCompletion w = client.next();
            assertEquals(4, w.wrId());
            assertTrue(Set.of(WcStatus.SUCCESS, WcStatus.FATAL_ERR, WcStatus.WR_FLUSH_ERR).contains(w.status()),
                    w.toString());
            assertSame(QpState.ERROR, client.qp.state());
            assertSame(QpState.ERROR, server.qp.state());
            client.qp.postSend(new SendWr().wrId(5).opcode(WrOpcode.SEND).signaled(true));
            WorkCompletion late = client.next();
            assertEquals(5, late.wrId());
            assertSame(WcStatus.WR_FLUSH_ERR, late.status());
            Set<Long> extra = new HashSet<>();
            while (client.cq.poll(client.wcs, 1) == 1) {
                extra.add(client.wcs[0].wrId());
            }
            assertTrue(extra.isEmpty(), "completed twice or unasked: " + extra);
        }
    }

    static void post(QueuePair qp, SendWr wr) {
        assertEquals(PostStatus.OK, qp.postSend(wr), () -> qp.toString());
    }

    static void post(QueuePair qp, RecvWr wr) {
        assertEquals(PostStatus.OK, qp.postRecv(wr), () -> qp.toString());
    }

    /** Invoker mode: both devices' duty cycles run while waiting. */
    static WorkCompletion nextOn(LoopbackPair p, LoopbackPair.End end) {
        long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
        while (true) {
            if (end.cq.poll(end.wcs, 1) == 1) {
                return new WorkCompletion().copyFrom(end.wcs[0]);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no completion within " + LoopbackPair.WAIT + " on " + end.qp);
            }
            if (p.client.device.invoke() + p.server.device.invoke() == 0) {
                Thread.onSpinWait();
            }
        }
    }
}

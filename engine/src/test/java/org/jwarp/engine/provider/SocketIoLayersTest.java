package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every socket I/O layer end to end, whatever layer the rest of the suite runs on: a SEND, a WRITE
 * large enough to leave straight from the region and be placed straight from the socket, and a
 * READ back, each byte-exact. The one run of io_uring with SQPOLL on a small machine (the suite's
 * per-layer runs leave it out: its polling kernel threads oversubscribe two CPUs).
 */
class SocketIoLayersTest {

    static final int SIZE = 200_000;

    @ParameterizedTest
    @ValueSource(strings = {"nio", "syscalls", "uring", "uring-sqpoll", "uring-direct"})
    void sendWriteAndReadArriveByteForByte(String layer) throws Exception {
        JwarpConfig.SocketIo io = JwarpConfig.SocketIo.parse(layer);
        DeviceConfig client = SuiteConfig.withJwarp(LoopbackPair.invoker(), j -> j.socketIo(io));
        DeviceConfig server = SuiteConfig.withJwarp(LoopbackPair.dedicated(), j -> j.socketIo(io));
        try (LoopbackPair p = new LoopbackPair(client, server, new byte[0], new byte[0])) {
            assertEquals(layer, p.client.device.socketIoLayer());
            assertEquals(layer, p.server.device.socketIoLayer());
            MemoryRegion src = p.client.register(SIZE, Access.LOCAL_WRITE);
            MemoryRegion back = p.client.register(SIZE, Access.LOCAL_WRITE);
            MemoryRegion dst = p.server.register(SIZE, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            MemoryRegion inbox = p.server.register(4096, Access.LOCAL_WRITE);
            byte[] pattern = new byte[SIZE];
            new Random(layer.hashCode()).nextBytes(pattern);
            src.segment().copyFrom(MemorySegment.ofArray(pattern));

            assertEquals(PostStatus.OK, p.server.qp.postRecv(new RecvWr().wrId(1).addSge(inbox, 0, 4096)));
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.SEND).signaled(true)
                    .addSge(src, 0, 4096)));
            expect(p.client.next(), WcOpcode.SEND);
            WorkCompletion recv = expect(p.server.next(), WcOpcode.RECV);
            assertEquals(4096, recv.byteLen());
            assertEquals(-1, inbox.segment().mismatch(src.segment().asSlice(0, 4096)), "the SEND's bytes");

            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(3).opcode(WrOpcode.RDMA_WRITE)
                    .signaled(true).addSge(src, 0, SIZE).remote(dst.iova(), dst.rkey())));
            expect(p.client.next(), WcOpcode.RDMA_WRITE);
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(4).opcode(WrOpcode.RDMA_READ)
                    .signaled(true).addSge(back, 0, SIZE).remote(dst.iova(), dst.rkey())));
            expect(p.client.next(), WcOpcode.RDMA_READ);
            assertEquals(-1, dst.segment().mismatch(src.segment()), "the WRITE placed every byte");
            assertEquals(-1, back.segment().mismatch(src.segment()), "the READ brought every byte back");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"uring", "uring-sqpoll", "uring-direct"})
    void closingTheDevicesReleasesTheirRings(String layer) throws Exception {
        long before = ringsOpen();
        JwarpConfig.SocketIo io = JwarpConfig.SocketIo.parse(layer);
        DeviceConfig config = SuiteConfig.withJwarp(LoopbackPair.dedicated(), j -> j.socketIo(io));
        try (LoopbackPair p = new LoopbackPair(config, config, new byte[0], new byte[0])) {
            MemoryRegion src = p.client.register(64, Access.LOCAL_WRITE);
            MemoryRegion dst = p.server.register(64, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            assertEquals(PostStatus.OK, p.client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.RDMA_WRITE)
                    .signaled(true).addSge(src, 0, 64).remote(dst.iova(), dst.rkey())));
            expect(p.client.next(), WcOpcode.RDMA_WRITE);
            assertTrue(ringsOpen() > before, "the engine threads made their rings");
        }
        assertEquals(before, ringsOpen(), "every engine thread's ring closed with its device");
    }

    /** io_uring instances this process has open (their descriptors in /proc/self/fd). */
    private static long ringsOpen() throws java.io.IOException {
        try (var fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.filter(f -> {
                try {
                    return java.nio.file.Files.readSymbolicLink(f).toString().contains("io_uring");
                } catch (java.io.IOException e) {
                    return false;  // a descriptor closed while listing
                }
            }).count();
        }
    }

    private static WorkCompletion expect(WorkCompletion wc, WcOpcode op) {
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(op, wc.opcode(), wc.toString());
        return wc;
    }
}

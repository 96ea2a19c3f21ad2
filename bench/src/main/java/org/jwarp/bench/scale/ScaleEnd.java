package org.jwarp.bench.scale;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;

/**
 * One side of a scale run: a device sized for {@code qps} QPs, one PD, one CQ for every QP, and
 * one registered region laid out the same on both sides:
 *
 * <pre>
 *   [0, 8)        ping-pong: the peer's stamp lands here
 *   [64, 72)      ping-pong: this side's stamp leaves from here
 *   SLOTS + i*64  QP i's WRITE: the client's source, the server's target
 *   recv(i)       QP i's posted receive (16 bytes)
 *   send(i)       the client's SEND after QP i's WRITE: i (8 bytes)
 * </pre>
 *
 * Every QP keeps one receive posted, as an application does; the client's SEND after its WRITE
 * consumes the server's.
 */
final class ScaleEnd implements AutoCloseable {

    static final int PING_IN = 0;
    static final int PING_OUT = 64;
    static final int SLOTS = 128;
    static final int WRITE_BYTES = 64;
    static final int RECV_BYTES = 16;
    /** The SEND after each WRITE: the QP's index, as a long. */
    static final int SEND_BYTES = 8;

    final RdmaDevice device;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final MemoryRegion mr;
    final MemorySegment memory;
    final int qps;
    private final Arena arena = Arena.ofShared();
    private final RecvWr recv = new RecvWr(1);

    ScaleEnd(int qps, JwarpConfig.SocketIo io) {
        this(qps, io, DeviceConfig.DEFAULT_PEER_TIMEOUT);
    }

    ScaleEnd(int qps, JwarpConfig.SocketIo io, java.time.Duration peerTimeout) {
        this.qps = qps;
        int cqDepth = qps + 64;
        DeviceLimits limits = DeviceLimits.DEFAULT.withMaxQps(Math.max(DeviceLimits.DEFAULT.maxQps(), qps + 8))
                .withMaxCqDepth(Math.max(DeviceLimits.DEFAULT.maxCqDepth(), cqDepth));
        device = RdmaDevice.open(DeviceConfig.builder().provider(JwarpConfig.builder()
                .socketIo(io).build()).limits(limits).peerTimeout(peerTimeout).build());
        pd = device.allocPd();
        cq = device.createCq(cqDepth, null);
        memory = arena.allocate(sendOffset(qps), 64);
        mr = pd.registerMemory(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
    }

    static long writeOffset(int qp) {
        return SLOTS + (long) qp * WRITE_BYTES;
    }

    long recvOffset(int qp) {
        return recvOffset(qp, qps);
    }

    /** The client's SEND source for QP {@code qp} (its index). */
    long sendOffset(int qp) {
        return sendOffset(qp, qps);
    }

    private static long recvOffset(int qp, int qps) {
        return writeOffset(qps) + (long) qp * RECV_BYTES;
    }

    private static long sendOffset(int qp, int qps) {
        return recvOffset(qps, qps) + (long) qp * SEND_BYTES;
    }

    /** A QP on the shared CQ, with its receive posted (wr_id: its index). */
    QueuePair newQp(int index) {
        QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).build());
        int rc = qp.postRecv(recv.reset().wrId(index).addSge(mr, recvOffset(index), RECV_BYTES));
        if (rc != PostStatus.OK) {
            qp.close();
            throw new IllegalStateException("posting QP " + index + "'s receive failed: " + PostStatus.toString(rc));
        }
        return qp;
    }

    /** Byte {@code j} of QP {@code qp}'s WRITE: different for every QP and every offset. */
    static byte pattern(int qp, int j) {
        int h = qp * 0x9E3779B1 + j * 0x85EBCA6B;
        return (byte) (h ^ h >>> 15);
    }

    /** Private data: an index, and a region's address and key (12 or 16 bytes). */
    static byte[] privateData(int index, MemoryRegion mr) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16);
        b.putInt(index).putLong(mr.iova()).putInt(mr.rkey());
        return b.array();
    }

    static long stamp(MemorySegment s, int at) {
        return s.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
    }

    @Override
    public void close() {
        device.close();
        arena.close();
    }
}

package org.jwarp.disni.rping;

import com.ibm.disni.RdmaActiveEndpoint;
import com.ibm.disni.RdmaActiveEndpointGroup;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One rping connection on DiSNI's endpoint API, with rping's buffers: a 16-byte receive and send
 * buffer, the RDMA buffer (the server's READ sink and WRITE source, the client's WRITE sink) and the
 * client's source buffer, each registered; one receive kept posted; every verb a prepared call
 * executed again for each message. Completions reach {@link #take} through the group's CQ thread.
 */
final class RpingEndpoint extends RdmaActiveEndpoint {

    /** A completion as the loop needs it (the IbvWC object belongs to the CQ thread). */
    record Completion(int opcode, int status, int byteLen) {
        boolean success() {
            return status == IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal();
        }
    }

    private final int size;
    private final BlockingQueue<Completion> completions = new ArrayBlockingQueue<>(64);
    final ByteBuffer recvBuf = ByteBuffer.allocateDirect(RpingData.INFO_LENGTH).order(ByteOrder.BIG_ENDIAN);
    final ByteBuffer sendBuf = ByteBuffer.allocateDirect(RpingData.INFO_LENGTH).order(ByteOrder.BIG_ENDIAN);
    final ByteBuffer rdmaBuf;
    final ByteBuffer startBuf;
    IbvMr rdmaMr;
    IbvMr startMr;
    private SVCPostRecv postRecv;
    private SVCPostSend postSend;
    private SVCPostSend postRead;
    private SVCPostSend postWrite;

    RpingEndpoint(RdmaActiveEndpointGroup<RpingEndpoint> group, RdmaCmId id, boolean serverSide, int size)
            throws IOException {
        super(group, id, serverSide);
        this.size = size;
        this.rdmaBuf = ByteBuffer.allocateDirect(size);
        this.startBuf = serverSide ? null : ByteBuffer.allocateDirect(size);
    }

    /** Registers the buffers, prepares the verb calls and posts the first receive (before the connection is up). */
    @Override
    public void init() throws IOException {
        super.init();
        IbvMr recvMr = registerMemory(recvBuf).execute().free().getMr();
        IbvMr sendMr = registerMemory(sendBuf).execute().free().getMr();
        rdmaMr = registerMemory(rdmaBuf).execute().free().getMr();
        if (startBuf != null) {
            startMr = registerMemory(startBuf).execute().free().getMr();
        }
        IbvRecvWR recv = new IbvRecvWR();
        recv.setWr_id(1);
        recv.setSg_list(sges(recvMr, RpingData.INFO_LENGTH));
        postRecv = postRecv(List.of(recv));
        postSend = postSend(List.of(wr(2, IbvSendWR.IBV_WR_SEND, sendMr, RpingData.INFO_LENGTH)));
        postRead = postSend(List.of(wr(3, IbvSendWR.IBV_WR_RDMA_READ, rdmaMr, size)));
        postWrite = postSend(List.of(wr(4, IbvSendWR.IBV_WR_RDMA_WRITE, rdmaMr, size)));
        postRecv();
    }

    private static LinkedList<IbvSge> sges(IbvMr mr, int length) {
        IbvSge sge = new IbvSge();
        sge.setAddr(mr.getAddr());
        sge.setLength(length);
        sge.setLkey(mr.getLkey());
        LinkedList<IbvSge> list = new LinkedList<>();
        list.add(sge);
        return list;
    }

    private static IbvSendWR wr(long id, int opcode, IbvMr mr, int length) {
        IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(id);
        wr.setOpcode(opcode);
        wr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
        wr.setSg_list(sges(mr, length));
        return wr;
    }

    @Override
    public void dispatchCqEvent(IbvWC wc) {
        completions.offer(new Completion(wc.getOpcode(), wc.getStatus(), wc.getByte_len()));
    }

    void postRecv() throws IOException {
        postRecv.execute();
    }

    /** Sends a buffer advertisement (all zero for the server's go-ahead). */
    void sendInfo(long addr, int rkey, int length) throws IOException {
        RpingData.putInfo(sendBuf, addr, rkey, length);
        postSend.execute();
    }

    /** RDMA READ ({@code read}) into, or WRITE from, the RDMA buffer: {@code length} bytes at the peer's buffer. */
    void rdma(boolean read, long remoteAddr, int rkey, int length) throws IOException {
        SVCPostSend call = read ? postRead : postWrite;
        call.getWrMod(0).getRdmaMod().setRemote_addr(remoteAddr);
        call.getWrMod(0).getRdmaMod().setRkey(rkey);
        call.getWrMod(0).getSgeMod(0).setLength(length);
        call.execute();
    }

    /**
     * The next completion other than a Send's (rping only logs those), or null after {@code timeoutMs}.
     */
    Completion take(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long left = deadline - System.nanoTime();
            Completion c = completions.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
            if (c == null || !c.success() || c.opcode() != IbvWC.IbvWcOpcode.IBV_WC_SEND.getOpcode()) {
                return c;
            }
        }
    }
}

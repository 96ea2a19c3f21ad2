package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.ibm.disni.RdmaEndpoint;
import com.ibm.disni.RdmaEndpointGroup;
import com.ibm.disni.RdmaPassiveEndpointGroup;
import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.SVCPollCq;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WorkCompletion;

/**
 * A DiSNI program's peer need not be DiSNI: the server here is written against jwarp's own verbs API,
 * on a device of its own, and advertises a buffer in its MPA private data as rping does; the DiSNI
 * client reads the advertisement from its ESTABLISHED event, RDMA READs the buffer and SENDs back.
 */
class VerbsApiPeerTest {
    static final Duration WAIT = Duration.ofSeconds(20);

    /** An endpoint that keeps the peer's private data from its ESTABLISHED event. */
    static final class AdvertisedEndpoint extends RdmaEndpoint {
        volatile byte[] advert;

        AdvertisedEndpoint(RdmaEndpointGroup<AdvertisedEndpoint> group, RdmaCmId id, boolean serverSide) throws IOException {
            super(group, id, serverSide);
        }

        @Override
        public synchronized void dispatchCmEvent(RdmaCmEvent event) throws IOException {
            if (event.getEvent() == RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED.ordinal()) {
                int len = event.getConn().getPrivate_data_len() & 0xFF;
                advert = MemorySegment.ofAddress(event.getConn().getPrivate_data()).reinterpret(len)
                        .toArray(ValueLayout.JAVA_BYTE);
            }
            super.dispatchCmEvent(event);
        }
    }

    @Test
    void aDisniClientReadsAndSendsToAServerOnJwarpsOwnVerbsApi() throws Exception {
        byte[] served = "served by jwarp's verbs API".getBytes(StandardCharsets.US_ASCII);
        byte[] sent = "sent by a DiSNI program".getBytes(StandardCharsets.US_ASCII);
        try (RdmaDevice dev = RdmaDevice.open(DeviceConfig.defaults()); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(16, null);
            MemoryRegion source = pd.registerMemory(arena.allocate(64), Access.LOCAL_WRITE | Access.REMOTE_READ);
            MemorySegment.copy(served, 0, source.segment(), ValueLayout.JAVA_BYTE, 0, served.length);
            MemoryRegion inbox = pd.registerMemory(arena.allocate(64), Access.LOCAL_WRITE);
            CmEventQueue events = new CmEventQueue();
            Listener listener = dev.connectionManager().listen(new InetSocketAddress("127.0.0.1", 0), 4, events);

            RdmaPassiveEndpointGroup<AdvertisedEndpoint> group = new RdmaPassiveEndpointGroup<>(1000, 8, 1, 16);
            group.init((id, serverSide) -> new AdvertisedEndpoint(group, id, serverSide));
            try {
                AdvertisedEndpoint client = group.createEndpoint();
                Thread connector = Thread.ofPlatform().start(() -> {
                    try {
                        client.connect(listener.localAddress(), 2000);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                CmEvent.ConnectRequest request = events.expect(CmEvent.ConnectRequest.class, WAIT, dev);
                assertNotNull(request, "the DiSNI client's connection request");
                QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
                qp.postRecv(new RecvWr().wrId(5).addSge(inbox, 0, 64));
                byte[] advert = ByteBuffer.allocate(16).putLong(source.iova()).putInt(source.rkey()).putInt(served.length)
                        .array();
                request.request().accept(qp, AcceptParams.of(advert));
                connector.join(WAIT.toMillis());
                assertTrue(client.isConnected());

                ByteBuffer ad = ByteBuffer.wrap(client.advert);
                long remoteAddr = ad.getLong();
                int rkey = ad.getInt();
                int length = ad.getInt();
                ByteBuffer local = ByteBuffer.allocateDirect(64);
                IbvMr mr = client.registerMemory(local).execute().free().getMr();

                IbvSendWR read = wr(1, IbvSendWR.IBV_WR_RDMA_READ, mr.getAddr(), length, mr.getLkey());
                read.getRdma().setRemote_addr(remoteAddr);
                read.getRdma().setRkey(rkey);
                client.postSend(List.of(read)).execute().free();
                IbvWC wc = next(client);
                assertEquals(IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal(), wc.getStatus());
                assertEquals(IbvWC.IbvWcOpcode.IBV_WC_RDMA_READ.getOpcode(), wc.getOpcode());
                byte[] got = new byte[length];
                local.get(0, got);
                assertArrayEquals(served, got);

                local.put(32, sent);
                client.postSend(List.of(wr(2, IbvSendWR.IBV_WR_SEND, mr.getAddr() + 32, sent.length, mr.getLkey())))
                        .execute().free();
                assertEquals(IbvWC.IbvWcStatus.IBV_WC_SUCCESS.ordinal(), next(client).getStatus());
                WorkCompletion[] wcs = {new WorkCompletion()};
                long deadline = System.nanoTime() + WAIT.toNanos();
                while (cq.poll(wcs) == 0) {
                    assertTrue(System.nanoTime() < deadline, "the verbs server's receive");
                    Thread.onSpinWait();
                }
                assertTrue(wcs[0].isSuccess(), wcs[0].toString());
                assertEquals(WcOpcode.RECV, wcs[0].opcode());
                assertEquals(sent.length, wcs[0].byteLen());
                assertArrayEquals(sent, inbox.segment().asSlice(0, sent.length).toArray(ValueLayout.JAVA_BYTE));
                client.close();
            } finally {
                group.close();
                listener.close();
            }
        }
    }

    static IbvSendWR wr(long id, int opcode, long addr, int length, int lkey) {
        IbvSge sge = new IbvSge();
        sge.setAddr(addr);
        sge.setLength(length);
        sge.setLkey(lkey);
        IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(id);
        wr.setOpcode(opcode);
        wr.setSend_flags(IbvSendWR.IBV_SEND_SIGNALED);
        wr.setSg_list(new LinkedList<>(List.of(sge)));
        return wr;
    }

    static IbvWC next(RdmaEndpoint ep) throws IOException {
        IbvWC[] wcs = {new IbvWC()};
        SVCPollCq poll = ep.getCqProvider().getCQ().poll(wcs, 1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (poll.execute().getPolls() == 0) {
            assertTrue(System.nanoTime() < deadline, "no completion");
            Thread.onSpinWait();
        }
        return wcs[0];
    }
}

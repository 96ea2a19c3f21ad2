package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.Wire;
import org.junit.jupiter.api.Test;

/** Raw-socket responders that behave as Linux siw 6.1 does, seen from a jwarp initiator. */
class SiwLikePeerTest {

    private static final InetAddress LO = InetAddress.getLoopbackAddress();

    /**
     * When our first FPDU arrives between siw's MPA Reply and the moment its QP takes over the
     * socket, siw does not see it until more bytes arrive, and stays silent. The initiator sends one
     * zero-length RDMA Write after {@link StreamDriver#SILENT_PEER_NUDGE_NANOS}, which wakes it.
     */
    @Test
    void aSilentResponderGetsOneZeroLengthWrite() throws Exception {
        DeviceConfig cfg = ConnectionManagerTest.base().peerToPeer(false).build();
        try (ServerSocket peer = new ServerSocket(0, 1, LO);
             LoopbackPair.End client = new LoopbackPair.End(cfg)) {
            client.device.connectionManager().connect(new InetSocketAddress(LO, peer.getLocalPort()), client.qp,
                    ConnectParams.of(new byte[0]), client.events);
            try (Socket s = peer.accept()) {
                s.setSoTimeout((int) LoopbackPair.WAIT.toMillis());
                DataInputStream in = new DataInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                byte[] request = new byte[24];
                in.readFully(request);
                assertEquals("MPA ID Req Frame", new String(request, 0, 16));
                // RFC 6581 Reply as siw answers it: C and S echoed, IRD 16 / ORD 16
                out.write("MPA ID Rep Frame".getBytes());
                out.write(Wire.unhex("50020004" + "00100010"));
                client.events.expect(CmEvent.Established.class, LoopbackPair.WAIT);

                MemoryRegion mr = client.register(4, Access.LOCAL_WRITE);
                mr.segment().copyFrom(MemorySegment.ofArray("ABCD".getBytes()));
                client.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.SEND).signaled(true).addSge(mr, 0, 4));
                byte[] send = new byte[28];
                in.readFully(send);
                // reference §7.2: Send of "ABCD", QN 0, MSN 1, CRC on
                assertEquals("0016414300000000000000000000000100000000414243443 2e61afb".replace(" ", ""), hex(send));

                // ... and silence: the next bytes are the zero-length Write (reference §7.5)
                byte[] nudge = new byte[20];
                in.readFully(nudge);
                assertEquals("000ec140000000010000000000000000ebd34c5f", hex(nudge));
            }
        }
    }

    /**
     * The same on the other side: siw as initiator without an RTR, after our Reply, takes over the
     * socket only once it has read the Reply; our first FPDU can arrive in between, and siw stays
     * silent. The responder sends one zero-length RDMA Write too.
     */
    @Test
    void aSilentInitiatorGetsOneZeroLengthWrite() throws Exception {
        DeviceConfig cfg = ConnectionManagerTest.base().peerToPeer(false).build();
        try (LoopbackPair.End server = new LoopbackPair.End(cfg);
             var listener = server.device.connectionManager().listen(new InetSocketAddress(LO, 0), 1, server.events);
             Socket s = new Socket(LO, listener.localAddress().getPort())) {
            s.setSoTimeout((int) LoopbackPair.WAIT.toMillis());
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            // RFC 6581 Request as siw (no peer-to-peer) sends it: C and S, IRD 16 / ORD 16, no RTR flags
            out.write("MPA ID Req Frame".getBytes());
            out.write(Wire.unhex("50020004" + "00100010"));
            CmEvent.ConnectRequest r = server.events.expect(CmEvent.ConnectRequest.class, LoopbackPair.WAIT);
            r.request().accept(server.qp, org.jwarp.verbs.AcceptParams.of(new byte[0]));
            byte[] reply = new byte[24];
            in.readFully(reply);
            assertEquals("MPA ID Rep Frame", new String(reply, 0, 16));
            server.events.expect(CmEvent.Established.class, LoopbackPair.WAIT);

            MemoryRegion mr = server.register(4, Access.LOCAL_WRITE);
            mr.segment().copyFrom(MemorySegment.ofArray("ABCD".getBytes()));
            server.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.SEND).signaled(true).addSge(mr, 0, 4));
            byte[] send = new byte[28];
            in.readFully(send);
            assertEquals("00164143000000000000000000000001000000004142434432e61afb", hex(send));
            // ... and silence: the next bytes are the zero-length Write (reference §7.5)
            byte[] nudge = new byte[20];
            in.readFully(nudge);
            assertEquals("000ec140000000010000000000000000ebd34c5f", hex(nudge));
        }
    }

    /** siw and cxgb4 refuse more than 256 bytes of private data by closing TCP with no Reply. */
    @Test
    void aPeerThatClosesOnTooMuchPrivateDataIsNamed() throws Exception {
        DeviceConfig cfg = ConnectionManagerTest.base().build();
        try (ServerSocket peer = new ServerSocket(0, 1, LO);
             LoopbackPair.End client = new LoopbackPair.End(cfg)) {
            client.device.connectionManager().connect(new InetSocketAddress(LO, peer.getLocalPort()), client.qp,
                    ConnectParams.of(new byte[300]), client.events);
            try (Socket s = peer.accept()) {
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] request = new byte[20 + 4 + 300];
                in.readFully(request);
                assertEquals(304, ((request[18] & 0xFF) << 8) | (request[19] & 0xFF));
            }
            CmEvent.ConnectError e = client.events.expect(CmEvent.ConnectError.class, LoopbackPair.WAIT);
            assertEquals("the peer closed the connection during MPA setup (our MPA Request carried 304 bytes of"
                    + " private data; siw and cxgb4 close the connection above 256)", e.reason());
        }
    }

    private static String hex(byte[] b) {
        return Wire.hex(MemorySegment.ofArray(b), 0, b.length).replace(" ", "");
    }
}

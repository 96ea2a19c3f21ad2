package org.jwarp.cli.librdmacm;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmId;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.RdmaDevice;

/**
 * librdmacm's {@code rdma_server} and {@code rdma_client} on jwarp: one connection, one 16-byte
 * message each way. The server posts its receive, accepts, waits for the client's message and
 * answers it; the client posts its receive, connects, sends, and waits for the answer. Messages
 * go inline, as the examples send them when the device allows.
 */
public final class RdmaExample {

    /** The examples' message size. */
    public static final int MESSAGE = 16;

    private RdmaExample() {
    }

    /** {@code rdma_server}: serves one client on {@code bind}; returns when done. */
    public static void server(RdmaDevice device, InetSocketAddress bind, Duration timeout, PrintWriter out) {
        say(out, "rdma_server: start");
        CmEvents events = new CmEvents(device, timeout);
        CmNode node = null;
        Arena arena = Arena.ofShared();
        try (CmId listen = CmId.create(device, events.queue)) {
            listen.listen(bind, 0);
            say(out, "rdma_server: listening on port " + listen.localAddress().getPort());
            CmEvent e = events.next("a client", Duration.ofDays(1));
            if (!(e instanceof CmEvent.ConnectRequest r)) {
                throw CmEvents.failed(e);
            }
            node = new CmNode(CmId.forRequest(device, r.request(), events.queue), device.allocPd(), arena, 1, MESSAGE, true);
            node.postRecvs(1);
            node.id.accept(new AcceptParams(new byte[0], ConnectParams.DEFAULT_DEPTH, ConnectParams.DEFAULT_DEPTH));
            expectEstablished(events, "rdma_server");
            node.await(node.recvCq, 1, events.stepDeadline(), "rdma_get_recv_comp");
            node.postSends(1);
            node.await(node.sendCq, 1, events.stepDeadline(), "rdma_get_send_comp");
            node.id.disconnect();
            say(out, "rdma_server: end 0");
        } finally {
            // the QP goes before the memory it may still be receiving into
            if (node != null) {
                node.close();
            }
            arena.close();
        }
    }

    /** {@code rdma_client}: one exchange with the server at {@code server}. */
    public static void client(RdmaDevice device, InetSocketAddress server, Duration timeout, PrintWriter out) {
        say(out, "rdma_client: start");
        CmEvents events = new CmEvents(device, timeout);
        try (Arena arena = Arena.ofShared(); CmId id = CmId.create(device, events.queue)) {
            id.resolveAddress(server);
            expect(events, CmEvent.AddressResolved.class, "rdma_client");
            id.resolveRoute();
            expect(events, CmEvent.RouteResolved.class, "rdma_client");
            CmNode node = new CmNode(id, device.allocPd(), arena, 1, MESSAGE, true);
            try {
                node.postRecvs(1);
                id.connect(new ConnectParams(new byte[0], timeout, ConnectParams.DEFAULT_DEPTH, ConnectParams.DEFAULT_DEPTH));
                expectEstablished(events, "rdma_client");
                node.postSends(1);
                node.await(node.sendCq, 1, events.stepDeadline(), "rdma_get_send_comp");
                node.await(node.recvCq, 1, events.stepDeadline(), "rdma_get_recv_comp");
                id.disconnect();
                say(out, "rdma_client: end 0");
            } finally {
                node.close();                       // before the arena (the try's resources close after)
            }
        }
    }

    private static void expectEstablished(CmEvents events, String who) {
        expect(events, CmEvent.Established.class, who);
    }

    private static void expect(CmEvents events, Class<? extends CmEvent> type, String who) {
        CmEvent e = events.next(type.getSimpleName());
        if (!type.isInstance(e)) {
            throw CmEvents.failed(e);
        }
    }

    private static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}

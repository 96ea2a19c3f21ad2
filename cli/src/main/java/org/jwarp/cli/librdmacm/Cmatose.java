package org.jwarp.cli.librdmacm;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmId;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * librdmacm's {@code cmatose} (installed as {@code ucmatose}) on jwarp: N connections over
 * rdma_cm, then messages each way on every one, then the server disconnects them all.
 *
 * <ul>
 *   <li>Server: accepts N connections, each with its receives posted first; once all are
 *       established, sends C messages of S bytes on each and waits for their completions, then
 *       receives the client's C on each, then disconnects every connection and waits for each
 *       to end.</li>
 *   <li>Client: opens N ids (resolve address, resolve route, QP, receives, connect: ORD and IRD
 *       1, no private data); once all are established, receives C on each, sends C back on each,
 *       and waits for the server's disconnects.</li>
 * </ul>
 *
 * The message is not filled or checked, as in cmatose; sizes and counts are.
 */
public final class Cmatose {

    /** The options, cmatose's letters: {@code -c}, {@code -C}, {@code -S}. */
    public record Options(int connections, int messageCount, int messageSize, Duration timeout) {
    }

    private final RdmaDevice device;
    private final Options o;
    private final PrintWriter out;
    private final CmEvents events;
    private final List<CmNode> nodes = new ArrayList<>();

    public Cmatose(RdmaDevice device, Options o, PrintWriter out) {
        this.device = device;
        this.o = o;
        this.out = out;
        this.events = new CmEvents(device, o.timeout());
    }

    public void server(InetSocketAddress bind) {
        say("cmatose: starting server");
        // the QPs go before the memory they may still be receiving into
        try (Arena arena = Arena.ofShared(); CmId listen = CmId.create(device, events.queue)) {
            try {
                serve(listen, arena, bind);
            } finally {
                closeNodes();
            }
        }
    }

    private void serve(CmId listen, Arena arena, InetSocketAddress bind) {
        ProtectionDomain pd = device.allocPd();
        listen.listen(bind, o.connections());
        InetAddress bound = listen.localAddress().getAddress();
        // the wildcard as the option names it (Java binds it as IPv6's on a dual-stack host); IPv6 in brackets
        String host = bound.isAnyLocalAddress() ? "0.0.0.0" : bound instanceof Inet6Address
                ? "[" + bound.getHostAddress() + "]" : bound.getHostAddress();
        say("cmatose: listening on " + host + ":" + listen.localAddress().getPort());
        int established = 0;
        while (established < o.connections()) {
            // the first client may take its time; later steps have the timeout
            CmEvent e = events.next("connections", established == 0 && nodes.isEmpty() ? Duration.ofDays(1)
                    : o.timeout());
            switch (e) {
                case CmEvent.ConnectRequest r -> {
                    if (nodes.size() == o.connections()) {
                        say("cmatose: failing connection request");
                        r.request().reject(new byte[0]);
                        continue;
                    }
                    CmNode n = new CmNode(CmId.forRequest(device, r.request(), events.queue), pd, arena,
                            o.messageCount(), o.messageSize(), false);
                    nodes.add(n);
                    n.postRecvs(o.messageCount());
                    n.id.accept(new AcceptParams(new byte[0], 1, 1));
                }
                case CmEvent.Established est -> established++;
                default -> throw CmEvents.failed(e);
            }
        }
        transfer(true);
        say("cmatose: disconnecting");
        for (CmNode n : nodes) {
            n.id.disconnect();
        }
        awaitDisconnects();
        say("disconnected");
        say("test complete");
    }

    public void client(InetSocketAddress server) {
        say("cmatose: starting client");
        try (Arena arena = Arena.ofShared()) {
            try {
                connect(arena, server);
            } finally {
                closeNodes();
            }
        }
    }

    private void connect(Arena arena, InetSocketAddress server) {
        ProtectionDomain pd = device.allocPd();
        Map<CmId, Integer> index = new HashMap<>();
        List<CmId> ids = new ArrayList<>();
        say("cmatose: connecting");
        for (int i = 0; i < o.connections(); i++) {
            CmId id = CmId.create(device, events.queue);
            ids.add(id);
            index.put(id, i);
            id.resolveAddress(server);
        }
        CmNode[] byIndex = new CmNode[o.connections()];
        Map<QueuePair, CmNode> byQp = new HashMap<>();
        int established = 0;
        while (established < o.connections()) {
            CmEvent e = events.next("connections");
            switch (e) {
                case CmEvent.AddressResolved a -> a.id().resolveRoute();
                case CmEvent.RouteResolved r -> {
                    CmNode n = new CmNode(r.id(), pd, arena, o.messageCount(), o.messageSize(), false);
                    byIndex[index.get(r.id())] = n;
                    byQp.put(n.qp, n);
                    n.postRecvs(o.messageCount());
                    n.id.connect(new ConnectParams(new byte[0], o.timeout(), 1, 1));
                }
                case CmEvent.Established est -> established++;
                default -> throw CmEvents.failed(e);
            }
        }
        nodes.addAll(List.of(byIndex));
        transfer(false);
        awaitDisconnects();
        say("test complete");
    }

    /** Server: sends, then receives; client: receives, then sends (cmatose's order). */
    private void transfer(boolean server) {
        int c = o.messageCount();
        if (c == 0 || o.messageSize() == 0) {
            return;
        }
        if (server) {
            say("initiating data transfers");
            nodes.forEach(n -> n.postSends(c));
            say("completing sends");
            nodes.forEach(n -> n.await(n.sendCq, c, events.stepDeadline(), "sending"));
        }
        say("receiving data transfers");
        nodes.forEach(n -> n.await(n.recvCq, c, events.stepDeadline(), "receiving"));
        if (!server) {
            say("sending replies");
            nodes.forEach(n -> n.postSends(c));
            nodes.forEach(n -> n.await(n.sendCq, c, events.stepDeadline(), "sending"));
        }
        say("data transfers complete");
    }

    /** Waits for each connection's end (the peer's disconnect, or the end of ours). */
    private void awaitDisconnects() {
        int left = nodes.size();
        while (left > 0) {
            CmEvent e = events.next("disconnects");
            if (e instanceof CmEvent.Disconnected d) {
                left--;
                for (CmNode n : nodes) {
                    if (n.qp == d.qp()) {
                        n.id.disconnect();
                    }
                }
            }
        }
    }

    private void closeNodes() {
        for (CmNode n : nodes) {
            n.close();
        }
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}

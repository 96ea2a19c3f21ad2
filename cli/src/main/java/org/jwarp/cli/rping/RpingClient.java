package org.jwarp.cli.rping;

import java.io.PrintWriter;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.QpAttr;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.WcOpcode;

/**
 * rping's client ({@code rping -c}): connects, then for each ping advertises its source buffer with
 * a Send, waits for the server's go-ahead (the server has RDMA READ the source), advertises its
 * sink buffer, waits for the second go-ahead (the server has RDMA WRITTEN the sink), and compares
 * sink and source ({@code -V}).
 */
final class RpingClient {

    /**
     * rping's {@code rdma_conn_param}: {@code initiator_depth} (ORD) and {@code responder_resources}
     * (IRD) 1, enough for the server's one outstanding READ.
     */
    static final int ORD = 1;
    static final int IRD = 1;

    private RpingClient() {
    }

    /** Runs the client; returns normally when every ping went through. */
    static void run(RdmaDevice device, RpingOptions o, PrintWriter out) throws RpingException {
        int size = o.size();
        try (RpingConnection c = new RpingConnection(device, size, true, o.timeout(), o.debug() ? out : null, "client")) {
            c.postRecv();
            device.connectionManager().connect(o.address(), c.qp,
                    new ConnectParams(new byte[0], o.timeout(), ORD, IRD), c.events);
            CmEvent.Established est = c.expectEvent(CmEvent.Established.class, "connection to " + o.address(), o.address());
            c.debug("rdma_connect successful: %s", describe(est.attr()));
            long t0 = System.nanoTime();
            int ping = 0;
            try {
                for (; o.count() == 0 || ping < o.count(); ping++) {
                    RpingPattern.fill(c.startMr.segment(), size, ping);
                    c.postSend(new RpingInfo(c.startMr.iova(), c.startMr.rkey(), size));
                    c.debug("RDMA addr %x rkey %x len %d", c.startMr.iova(), c.startMr.rkey(), size);
                    c.await(WcOpcode.RECV, "the server's go-ahead after its RDMA READ (ping " + ping + ")");
                    c.postRecv();
                    c.postSend(new RpingInfo(c.rdmaMr.iova(), c.rdmaMr.rkey(), size));
                    c.debug("RDMA addr %x rkey %x len %d", c.rdmaMr.iova(), c.rdmaMr.rkey(), size);
                    c.await(WcOpcode.RECV, "the server's go-ahead after its RDMA WRITE (ping " + ping + ")");
                    c.postRecv();
                    if (o.validate()) {
                        long at = c.startMr.segment().asSlice(0, size).mismatch(c.rdmaMr.segment().asSlice(0, size));
                        if (at >= 0) {
                            throw new RpingException("data mismatch! (ping " + ping + ", first difference at byte " + at
                                    + " of " + size + ")");
                        }
                    }
                    if (o.verbose()) {
                        out.println("ping data: " + RpingPattern.cString(c.rdmaMr.segment(), size));
                        out.flush();
                    }
                }
            } catch (RpingException.Disconnected d) {
                throw new RpingException("the server disconnected after " + ping + " pings"
                        + (ping == 0 && est.attr().mpaRevision() == 1
                        ? " (MPA revision 1 has no IRD/ORD exchange, and siw then gives the accepting side ORD 0:"
                        + " rping's server cannot RDMA READ; use --mpa-rev 2)" : ""));
            }
            rate(c, "client", ping, size, System.nanoTime() - t0);
            device.connectionManager().disconnect(c.qp);
            c.expectEvent(CmEvent.Disconnected.class, "disconnect", o.address());
        }
    }

    static String describe(QpAttr a) {
        return "MPA rev " + a.mpaRevision() + ", CRC " + (a.crc() ? "on" : "off") + ", ORD " + a.ord() + ", IRD "
                + a.ird() + ", RTR " + (a.rtr() == null ? "none" : a.rtr().name().toLowerCase(java.util.Locale.ROOT));
    }

    static void rate(RpingConnection c, String side, int pings, int size, long nanos) {
        double s = nanos / 1e9;
        c.debug("%s: %d pings of %d bytes in %.3f s: %.1f pings/s", side, pings, size, s, s > 0 ? pings / s : 0.0);
    }

}

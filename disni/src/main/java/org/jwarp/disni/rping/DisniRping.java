package org.jwarp.disni.rping;

import com.ibm.disni.RdmaActiveEndpointGroup;
import com.ibm.disni.RdmaServerEndpoint;
import com.ibm.disni.verbs.IbvWC;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * rdma-core's {@code rping}, written against DiSNI's API alone, so that a DiSNI program can be
 * shown to speak iWARP with peers that are not DiSNI: siw's {@code rping}, and jwarp's own
 * {@code jwarp rping}. The exchange is rping's: the client Sends its source buffer's address, rkey
 * and length; the server RDMA READs it and Sends a go-ahead; the client Sends its sink buffer; the
 * server RDMA WRITEs it and Sends a go-ahead; the client compares sink and source ({@code -V}).
 *
 * <pre>
 * java -cp jwarp-disni.jar org.jwarp.disni.rping.DisniRping -s [-a addr] [-p port] [-S size] [-v]
 * java -cp jwarp-disni.jar org.jwarp.disni.rping.DisniRping -c -a addr [-p port] [-C count] [-S size] [-v] [-V]
 * </pre>
 *
 * The server serves one client and ends when it disconnects, as {@code rping -s} without
 * {@code -P}. Exit status 0 when every ping went through, 1 on a failure, 2 on bad options.
 */
public final class DisniRping {

    private final RpingArgs args;
    private final PrintWriter out;

    private DisniRping(RpingArgs args, PrintWriter out) {
        this.args = args;
        this.out = out;
    }

    public static void main(String[] argv) {
        System.exit(run(argv, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one client or server; returns the exit status. */
    public static int run(String[] argv, PrintWriter out, PrintWriter err) {
        RpingArgs a;
        try {
            a = RpingArgs.parse(argv);
        } catch (IllegalArgumentException e) {
            err.println("rping: " + e.getMessage());
            err.flush();
            return 2;
        }
        try {
            DisniRping r = new DisniRping(a, out);
            if (a.server()) {
                r.serve();
            } else {
                r.ping();
            }
            return 0;
        } catch (Exception e) {
            err.println("rping: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            err.flush();
            return 1;
        }
    }

    private RdmaActiveEndpointGroup<RpingEndpoint> group() throws IOException {
        // rping's queue depths: 16 sends, 2 receives; its CQ holds both
        RdmaActiveEndpointGroup<RpingEndpoint> group = new RdmaActiveEndpointGroup<>(1000, false, 16, 1, 32);
        group.init((id, serverSide) -> new RpingEndpoint(group, id, serverSide, args.size()));
        return group;
    }

    private void ping() throws Exception {
        RdmaActiveEndpointGroup<RpingEndpoint> group = group();
        try {
            RpingEndpoint ep = group.createEndpoint();
            ep.connect(new InetSocketAddress(args.address(), args.port()), args.timeoutMs());
            out.println("rdma_connect successful");
            int size = args.size();
            long t0 = System.nanoTime();
            int ping = 0;
            for (; args.count() == 0 || ping < args.count(); ping++) {
                RpingData.fill(ep.startBuf, size, ping);
                ep.sendInfo(ep.startMr.getAddr(), ep.startMr.getRkey(), size);
                await(ep, IbvWC.IbvWcOpcode.IBV_WC_RECV, "the server's go-ahead after its RDMA READ (ping " + ping + ")");
                ep.postRecv();
                ep.sendInfo(ep.rdmaMr.getAddr(), ep.rdmaMr.getRkey(), size);
                await(ep, IbvWC.IbvWcOpcode.IBV_WC_RECV, "the server's go-ahead after its RDMA WRITE (ping " + ping + ")");
                ep.postRecv();
                if (args.validate()) {
                    int at = ep.startBuf.slice(0, size).mismatch(ep.rdmaBuf.slice(0, size));
                    if (at >= 0) {
                        throw new IOException("data mismatch! (ping " + ping + ", first difference at byte " + at + ")");
                    }
                }
                if (args.verbose()) {
                    out.println("ping data: " + RpingData.cString(ep.rdmaBuf, size));
                    out.flush();
                }
            }
            summary("client", ping, size, System.nanoTime() - t0);
            ep.close();
        } finally {
            group.close();
        }
    }

    private void serve() throws Exception {
        RdmaActiveEndpointGroup<RpingEndpoint> group = group();
        try {
            RdmaServerEndpoint<RpingEndpoint> server = group.createServerEndpoint();
            server.bind(new InetSocketAddress(args.address(), args.port()), 8);
            out.println("listening on " + args.address() + ":" + args.port());
            out.flush();
            RpingEndpoint ep = server.accept();
            long t0 = System.nanoTime();
            int ping = 0;
            int length = 0;
            while (true) {
                if (!awaitOrDisconnect(ep, "the client's source buffer (ping " + ping + ")")) {
                    break;
                }
                ep.postRecv();
                long addr = ep.recvBuf.getLong(0);
                int rkey = ep.recvBuf.getInt(8);
                length = ep.recvBuf.getInt(12);
                if (length < 1 || length > args.size()) {
                    throw new IOException("the client's buffer of " + Integer.toUnsignedString(length)
                            + " bytes does not fit the " + args.size() + "-byte RDMA buffer (-S)");
                }
                ep.rdma(true, addr, rkey, length);
                await(ep, IbvWC.IbvWcOpcode.IBV_WC_RDMA_READ, "the RDMA READ of the client's source (ping " + ping + ")");
                if (args.verbose()) {
                    out.println("server ping data: " + RpingData.cString(ep.rdmaBuf, length));
                    out.flush();
                }
                ep.sendInfo(0, 0, 0);
                await(ep, IbvWC.IbvWcOpcode.IBV_WC_RECV, "the client's sink buffer (ping " + ping + ")");
                ep.postRecv();
                ep.rdma(false, ep.recvBuf.getLong(0), ep.recvBuf.getInt(8), Math.min(length, ep.recvBuf.getInt(12)));
                await(ep, IbvWC.IbvWcOpcode.IBV_WC_RDMA_WRITE, "the RDMA WRITE to the client's sink (ping " + ping + ")");
                ep.sendInfo(0, 0, 0);
                ping++;
            }
            summary("server", ping, length, System.nanoTime() - t0);
            ep.close();
            server.close();
        } finally {
            group.close();
        }
    }

    /** Waits for a completion of {@code opcode}; any other outcome is a failure named in one line. */
    private void await(RpingEndpoint ep, IbvWC.IbvWcOpcode opcode, String what) throws Exception {
        RpingEndpoint.Completion c = ep.take(args.timeoutMs());
        if (c == null) {
            throw new IOException("no " + what + " within " + args.timeoutMs() / 1000 + " s");
        }
        if (c.status() == IbvWC.IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal()) {
            throw new IOException("the peer disconnected while we waited for " + what);
        }
        if (!c.success()) {
            throw new IOException("completion failed with status " + IbvWC.IbvWcStatus.valueOf(c.status())
                    + " while waiting for " + what);
        }
        if (c.opcode() != opcode.getOpcode()) {
            throw new IOException("unexpected " + IbvWC.IbvWcOpcode.valueOf(c.opcode()) + " while waiting for " + what);
        }
        if (opcode == IbvWC.IbvWcOpcode.IBV_WC_RECV && c.byteLen() != RpingData.INFO_LENGTH) {
            throw new IOException("Received bogus data, size " + c.byteLen());
        }
    }

    /** As {@link #await} for a receive, but false when the client disconnected instead (the receive was flushed). */
    private boolean awaitOrDisconnect(RpingEndpoint ep, String what) throws Exception {
        RpingEndpoint.Completion c = ep.take(args.timeoutMs());
        if (c != null && c.status() == IbvWC.IbvWcStatus.IBV_WC_WR_FLUSH_ERR.ordinal()) {
            out.println("server DISCONNECT EVENT...");
            return false;
        }
        if (c == null) {
            throw new IOException("no " + what + " within " + args.timeoutMs() / 1000 + " s");
        }
        if (!c.success() || c.opcode() != IbvWC.IbvWcOpcode.IBV_WC_RECV.getOpcode()
                || c.byteLen() != RpingData.INFO_LENGTH) {
            throw new IOException("unexpected completion (opcode " + c.opcode() + ", status "
                    + IbvWC.IbvWcStatus.valueOf(c.status()) + ", " + c.byteLen() + " bytes) while waiting for " + what);
        }
        return true;
    }

    private void summary(String side, int pings, int size, long nanos) {
        double s = nanos / 1e9;
        out.println(String.format(Locale.ROOT, "%s: %d pings of %d bytes in %.3f s: %.1f pings/s", side, pings, size, s,
                s > 0 ? pings / s : 0.0));
        out.flush();
    }
}

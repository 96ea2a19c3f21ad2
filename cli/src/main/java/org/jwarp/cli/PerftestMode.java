package org.jwarp.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.bench.transport.jwarp.PerftestPeer;
import org.jwarp.bench.transport.jwarp.PerftestResult;

/**
 * {@code jwarp TEST --perftest}: one run against perftest ({@code ib_TEST -R}), printed in
 * perftest's columns. With {@code --loopback} both sides are jwarp speaking perftest's protocol
 * in this process (a check of the protocol, not of perftest).
 */
final class PerftestMode {

    private static final String RULE = "-".repeat(87);

    private final PrintWriter out;

    PerftestMode(PrintWriter out) {
        this.out = out;
    }

    int run(Settings s, JwarpOptions options, String host, boolean loopback, int port, boolean portGiven) {
        if (loopback) {
            return loopback(s, options, portGiven ? port : 0);
        }
        PerftestPeer peer;
        if (host != null) {
            InetSocketAddress a = new InetSocketAddress(host, port);
            if (a.isUnresolved()) {
                throw new PerfException("unknown host '" + host + "'");
            }
            peer = PerftestPeer.connect(options, s, a);
        } else {
            peer = PerftestPeer.accept(options, s, new InetSocketAddress(port), a -> {
                // on stdout, where perftest's server says it waits
                out.println("jwarp: " + s.test().command() + " server (--perftest) waiting for perftest (ib_"
                        + s.test().command().replace('-', '_') + " -R ... HOST) on port " + a.getPort());
                out.flush();
            });
        }
        try (peer) {
            header(s, peer.describe());
            print(peer.run());
        }
        return 0;
    }

    /** Both sides here, server on a thread of its own; prints the client's row. */
    private int loopback(Settings s, JwarpOptions options, int port) {
        CompletableFuture<InetSocketAddress> bound = new CompletableFuture<>();
        CompletableFuture<PerftestResult> server = CompletableFuture.supplyAsync(() -> {
            try (PerftestPeer p = PerftestPeer.accept(options, s, new InetSocketAddress("127.0.0.1", port),
                    bound::complete)) {
                return p.run();
            } catch (RuntimeException e) {
                bound.completeExceptionally(e);
                throw e;
            }
        });
        try (PerftestPeer client = PerftestPeer.connect(options, s, bound.join())) {
            header(s, client.describe());
            print(client.run());
            server.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PerfException("interrupted");
        } catch (ExecutionException | java.util.concurrent.CompletionException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            throw c instanceof PerfException pe ? pe : new PerfException(c.toString());
        }
        return 0;
    }

    private void header(Settings s, List<String> describe) {
        out.println(RULE);
        out.println("                    " + s.test().title() + " (jwarp, perftest's protocol)");
        out.printf(" Number of qps   : %-8d Transport type : IW%n", s.qps());
        out.printf(" TX depth        : %-8d RX depth       : %d%n", s.txDepth(), s.rxDepth());
        out.printf(" Max inline data : %d[B]%n", s.inline());
        for (String d : describe) {
            out.println(" " + d);
        }
        out.println(RULE);
        out.flush();
    }

    private void print(PerftestResult r) {
        out.println(r.header());
        out.println(r.row());
        out.println(RULE);
        out.flush();
    }
}

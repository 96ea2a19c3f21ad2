package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code jwarp cmatose}, {@code rdma-server} and {@code rdma-client} against each other over
 * 127.0.0.1, both sides jwarp (siw's ucmatose, rdma_server and rdma_client are the interop suite's).
 */
class LibrdmacmExamplesTest {

    private static final Pattern LISTENING = Pattern.compile("listening on (?:\\S+:|port )(\\d+)");

    @Test
    void cmatoseWithSeveralConnections() throws Exception {
        Pair p = Pair.run("cmatose", new String[] {"-p", "0", "-c", "5", "-C", "20", "-S", "3000"},
                port -> new String[] {"cmatose", "-s", "127.0.0.1", "-p", port, "-c", "5", "-C", "20", "-S", "3000"});
        assertEquals(0, p.server.exit(), p.server.out() + p.server.err());
        assertEquals(0, p.client.exit(), p.client.out() + p.client.err());
        assertEquals("""
                cmatose: starting server
                initiating data transfers
                completing sends
                receiving data transfers
                data transfers complete
                cmatose: disconnecting
                disconnected
                test complete
                return status 0
                """, p.server.out().replaceAll("(?m)^cmatose: listening on .*\\n", ""));
        assertEquals("""
                cmatose: starting client
                cmatose: connecting
                receiving data transfers
                sending replies
                data transfers complete
                test complete
                return status 0
                """, p.client.out());
    }

    @Test
    void rdmaServerAndClient() throws Exception {
        Pair p = Pair.run("rdma-server", new String[] {"-p", "0"}, port -> new String[] {"rdma-client", "-s", "127.0.0.1",
                "-p", port});
        assertEquals("rdma_client: start\nrdma_client: end 0\n", p.client.out(), p.client.err());
        assertTrue(p.server.out().endsWith("rdma_server: end 0\n"), p.server.out() + p.server.err());
    }

    @Test
    void messagesOfAnotherSizeAreNamed() throws Exception {
        Pair p = Pair.run("cmatose", new String[] {"-p", "0", "-C", "2", "-S", "100", "--timeout", "5"},
                port -> new String[] {"cmatose", "-s", "127.0.0.1", "-p", port, "-C", "2", "-S", "200", "--timeout", "5"});
        assertEquals(1, p.client.exit());
        assertTrue(p.client.err().contains("give both sides the same -S") || p.server.err().contains("receiv"),
                p.client.err() + p.server.err());
    }

    @Test
    void badOptionsAreOneLine() {
        PerfRun r = PerfRun.of("cmatose", "-c", "0");
        assertEquals(2, r.exit());
        assertEquals("jwarp: -c must be in 1..1024, not 0 (see 'jwarp cmatose --help')", r.err().strip());
        r = PerfRun.of("rdma-client");
        assertEquals(2, r.exit());
        assertEquals("jwarp: Missing required option: '-s=SERVER' (see 'jwarp rdma-client --help')", r.err().strip());
    }

    @Test
    void aRefusedConnectionIsNamedInWords() {
        // port 1: nothing listens there (the perf and rping tests rely on it too)
        PerfRun r = PerfRun.of("cmatose", "-s", "127.0.0.1", "-p", "1", "--timeout", "5");
        assertEquals(1, r.exit(), r.err());
        assertEquals("jwarp cmatose: cannot reach /127.0.0.1:1: Connection refused", r.err().strip());
        r = PerfRun.of("rdma-client", "-s", "127.0.0.1", "-p", "1", "--timeout", "5");
        assertEquals(1, r.exit(), r.err());
        assertEquals("jwarp rdma-client: cannot reach /127.0.0.1:1: Connection refused", r.err().strip());
    }

    /** A server on a thread of its own and a client here, each with what it printed. */
    private record Pair(PerfRun server, PerfRun client) {

        static Pair run(String serverCommand, String[] serverArgs, java.util.function.Function<String, String[]> client)
                throws Exception {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CompletableFuture<String> port = new CompletableFuture<>();
            PrintWriter watched = new PrintWriter(out, true) {
                @Override
                public void println(String x) {
                    super.println(x);
                    Matcher m = LISTENING.matcher(x);
                    if (m.find()) {
                        port.complete(m.group(1));
                    }
                }
            };
            String[] args = new String[serverArgs.length + 1];
            args[0] = serverCommand;
            System.arraycopy(serverArgs, 0, args, 1, serverArgs.length);
            CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> {
                CommandLine cl = JwarpCommand.newCommandLine();
                cl.setOut(watched);
                cl.setErr(new PrintWriter(err, true));
                int exit = cl.execute(args);
                port.complete("none");
                return exit;
            });
            String p = port.get(30, TimeUnit.SECONDS);
            PerfRun c = PerfRun.of(client.apply(p));
            int exit = server.get(60, TimeUnit.SECONDS);
            return new Pair(new PerfRun(exit, out.toString(), err.toString()), c);
        }
    }
}

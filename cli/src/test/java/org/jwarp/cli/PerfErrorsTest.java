package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every error of the benchmark subcommands is one line starting with "jwarp: ", with a non-zero
 * exit and no stack trace: bad options (exit 2), and a port in use, an unreachable server, a peer
 * that speaks another protocol, a server running another test or transport (exit 1).
 */
class PerfErrorsTest {

    static void assertLine(PerfRun r, int exit, String line) {
        assertEquals(line, r.err().strip(), r.out());
        assertEquals(exit, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    private static String help(String test) {
        return " (see 'jwarp " + test + " --help')";
    }

    @Test
    void rssNumaAndModerationErrors() {
        assertLine(PerfRun.of("write-bw", "--loopback", "--moderation", "16"), 2,
                "jwarp: --moderation moderates completion events: it needs -e" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "-e", "--moderation", "16,x"), 2,
                "jwarp: --moderation takes COUNT or COUNT,MICROS (e.g. 16,50), not '16,x'" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--rss-table", "100"), 2,
                "jwarp: --rss-table must be a power of two from 1 to 65536, not 100" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--rebalance", "sometimes", "--threading", "dedicated", "--engine-threads", "2"),
                2, "jwarp: --rebalance must be off, periodic or threshold, not 'sometimes'" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--rebalance", "periodic"), 2,
                "jwarp: --rebalance periodic needs --threading dedicated and --engine-threads 2 or more" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--steering", "random"), 2,
                "jwarp: --steering must be rss, round-robin or one, not 'random'" + help("write-bw"));
        assertLine(PerfRun.of("write-lat", "--loopback", "--threading", "toad", "--pin", "0,1"), 2,
                "jwarp: --threading toad places every thread itself (the engine on a CPU of its own, the application"
                + " on another): leave out --pin, or use --threading dedicated with --pin" + help("write-lat"));
        assertLine(PerfRun.of("write-bw", "--numa", "--threading", "invoker"), 2,
                "jwarp: --numa pins engine threads of their own: it needs --threading dedicated" + help("write-bw"));
    }

    @Test
    void anOutputFileThatCannotBeWrittenIsRefusedBeforeTheRun(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("no-such-dir").resolve("x.csv");
        PerfRun r = PerfRun.of("write-bw", "--loopback", "-n", "10", "--csv", missing.toString());
        assertLine(r, 2, "jwarp: --csv " + missing + ": no such directory " + missing.getParent()
                + "; create it first or give another path" + help("write-bw"));
        assertEquals("", r.out(), "nothing ran");
        assertLine(PerfRun.of("write-bw", "--loopback", "-n", "10", "--csv", dir.toString()), 2,
                "jwarp: --csv " + dir + ": it is a directory; give a file name" + help("write-bw"));
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Path under = file.resolve("x.csv");
        assertLine(PerfRun.of("write-bw", "--loopback", "-n", "10", "--csv", under.toString()), 2,
                "jwarp: --csv " + under + ": no such directory " + file + "; create it first or give another path"
                + help("write-bw"));
        // permissions let root write anywhere; the file system still refuses a new file here
        assertLine(PerfRun.of("write-bw", "--loopback", "-n", "10", "--csv", "/proc/jwarp-test.csv"), 2,
                "jwarp: --csv /proc/jwarp-test.csv: cannot create it (no such file or directory)" + help("write-bw"));
    }

    @Test
    void optionErrors() {
        assertLine(PerfRun.of("write-bw", "--frob"), 2, "jwarp: Unknown option: '--frob'" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "-s", "12Q"), 2, "jwarp: Invalid value for option '--size':"
                + " bad size '12Q': give bytes from 1 to 1073741824, e.g. 65536, 64K or 1M" + help("write-bw"));
        assertLine(PerfRun.of("send-lat", "--loopback", "-s", "0"), 2, "jwarp: Invalid value for option '--size':"
                + " bad size '0': give bytes from 1 to 1073741824, e.g. 65536, 64K or 1M" + help("send-lat"));
        assertLine(PerfRun.of("send-lat", "--loopback", "-s", "2G"), 2, "jwarp: Invalid value for option '--size':"
                + " bad size '2G': give bytes from 1 to 1073741824, e.g. 65536, 64K or 1M" + help("send-lat"));
        assertLine(PerfRun.of("write-bw", "--loopback", "-s", "64K", "-a"), 2,
                "jwarp: -s and -a exclude each other: give one size or all sizes" + help("write-bw"));
        assertLine(PerfRun.of("read-bw", "--loopback", "-n", "10", "-D", "1"), 2,
                "jwarp: -n and -D exclude each other: give a count or a duration" + help("read-bw"));
        assertLine(PerfRun.of("read-bw", "--loopback", "-n", "0"), 2, "jwarp: -n must be at least 1" + help("read-bw"));
        assertLine(PerfRun.of("atomic-bw", "--loopback", "-s", "64"), 2,
                "jwarp: the atomic tests use 8-byte operands: drop -s" + help("atomic-bw"));
        assertLine(PerfRun.of("atomic-lat", "--loopback", "-a"), 2,
                "jwarp: the atomic tests use 8-byte operands: drop -a" + help("atomic-lat"));
        assertLine(PerfRun.of("atomic-lat", "--loopback", "-A", "SWAP"), 2,
                "jwarp: -A takes FETCH_AND_ADD or CMP_AND_SWAP, not 'SWAP'" + help("atomic-lat"));
        assertLine(PerfRun.of("write-bw", "--loopback", "-A", "CMP_AND_SWAP"), 2,
                "jwarp: -A is for atomic-lat and atomic-bw" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "localhost", "--loopback"), 2,
                "jwarp: give a HOST (client mode) or --loopback, not both" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "--transport", "carrier-pigeon"), 2, "jwarp: unknown --transport"
                + " 'carrier-pigeon': use jwarp, sockets-blocking, sockets-nio or sockets-busypoll" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "--idle", "nap"), 2,
                "jwarp: --idle must be adaptive, spin, backoff or park, not 'nap'" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "--threading", "many"), 2,
                "jwarp: --threading must be dedicated, hybrid, invoker or toad, not 'many'" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "--crc", "maybe"), 2,
                "jwarp: --crc must be preferred, required or off, not 'maybe'" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "--markers", "maybe"), 2,
                "jwarp: --markers must be on or off, not 'maybe'" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "-t", "0"), 2, "jwarp: -t must be in 1..8192, not 0"
                + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "-t", "64", "-Q", "100"), 2, "jwarp: -Q 100 is more than the"
                + " send queue depth -t 64: no completion would ever be signaled; lower -Q or raise -t" + help("write-bw"));
        assertLine(PerfRun.of("send-lat", "--loopback", "-q", "2"), 2,
                "jwarp: latency tests run one QP; -q is for bandwidth tests" + help("send-lat"));
        assertLine(PerfRun.of("write-lat", "--loopback", "-e"), 2, "jwarp: -e does not apply to write-lat: an RDMA"
                + " WRITE raises no completion at its target, so both sides poll memory (as perftest's does); use"
                + " send-lat or write-imm-lat" + help("write-lat"));
        assertLine(PerfRun.of("send-bw", "--loopback", "-e", "--transport", "sockets-nio"), 2, "jwarp: -e is for"
                + " --transport jwarp: the sockets transports wait as their name says (sockets-blocking sleeps in read,"
                + " sockets-nio in select)" + help("send-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "--threading", "invoker", "--engine-threads", "2"), 2,
                "jwarp: --engine-threads 2 needs --threading dedicated (--threading invoker runs the engine on the"
                        + " application's thread)" + help("write-bw"));
        assertLine(PerfRun.of("write-bw", "--loopback", "--pin", "0,x"), 2, "jwarp: --pin '0,x' is not a CPU list:"
                + " give CPU numbers and ranges, e.g. 0,1 or 0-3" + help("write-bw"));
        assertTrue(PerfRun.of("write-bw", "--loopback", "--pin", "1000").err().startsWith(
                "jwarp: --pin: CPU 1000 is not available to this process (it may use "));
    }

    @Test
    void aPortInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            int p = taken.getLocalPort();
            String line = "jwarp: port " + p + " is in use: stop what uses it, or give another port with -p";
            assertLine(PerfRun.of("write-bw", "-p", String.valueOf(p)), 1, line);
            assertLine(PerfRun.of("write-bw", "-p", String.valueOf(p), "--transport", "sockets-nio"), 1, line);
            assertLine(PerfRun.of("send-lat", "--loopback", "-p", String.valueOf(p)), 1, line);
        }
    }

    @Test
    void anUnreachableServer() throws IOException {
        int p = freePort();
        String line = "jwarp: cannot reach a jwarp server at 127.0.0.1:" + p + ": Connection refused (start the same"
                + " test there first, without a host, on the same -p)";
        assertLine(PerfRun.of("write-bw", "127.0.0.1", "-p", String.valueOf(p), "--transport", "sockets-blocking"), 1,
                line);
        PerfRun j = PerfRun.of("write-bw", "127.0.0.1", "-p", String.valueOf(p));
        assertEquals(1, j.exit());
        assertEquals(1, j.err().strip().lines().count(), j.err());
        assertTrue(j.err().startsWith("jwarp: cannot reach a jwarp server at 127.0.0.1:" + p + ": "), j.err());
        assertTrue(j.err().strip().endsWith("(start the same test there first, without a host, on the same -p)"),
                j.err());
        assertTrue(j.err().toLowerCase().contains("refused"), j.err());
    }

    @Test
    void aPeerSpeakingSomethingElse() throws Exception {
        try (ServerSocket http = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            Thread server = Thread.ofPlatform().start(() -> {
                for (int k = 0; k < 2; k++) {
                    try (Socket s = http.accept()) {
                        InputStream in = s.getInputStream();
                        in.read(new byte[64]);
                        OutputStream out = s.getOutputStream();
                        out.write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            String p = String.valueOf(http.getLocalPort());
            assertLine(PerfRun.of("write-bw", "127.0.0.1", "-p", p, "--transport", "sockets-nio"), 1,
                    "jwarp: the peer at 127.0.0.1:" + p + " does not speak jwarp's sockets protocol (it answered"
                            + " 'HTTP/1.1 400 Bad')");
            PerfRun j = PerfRun.of("write-bw", "127.0.0.1", "-p", p);
            assertEquals(1, j.exit(), j.err());
            assertEquals(1, j.err().strip().lines().count(), j.err());
            assertTrue(j.err().startsWith("jwarp: the peer at 127.0.0.1:" + p + " broke off MPA setup ("), j.err());
            assertTrue(j.err().strip().endsWith("): it is not a jwarp server with --transport jwarp, or it refused"
                    + " this client (see its output)"), j.err());
            server.join();
        }
    }

    @Test
    void aJwarpClientAtASocketsServerIsToldInOneLineOnBothSides() throws Exception {
        String p = String.valueOf(freePort());
        PerfRun.Background server = new PerfRun.Background("send-lat", "-p", p, "--transport", "sockets-nio")
                .awaitListening();
        PerfRun client = PerfRun.of("send-lat", "127.0.0.1", "-p", p);
        assertLine(client, 1, "jwarp: the server at 127.0.0.1:" + p + " runs send-lat --transport sockets-nio, this"
                + " client runs send-lat --transport jwarp: run the same test, with the same --transport, on both"
                + " sides");
        PerfRun s = server.join();
        assertEquals(1, s.exit());
        assertTrue(s.err().startsWith("jwarp: send-lat server (--transport sockets-nio) waiting for a client on port "
                + p + "\n"), s.err());
        String last = s.err().strip().lines().toList().getLast();
        assertTrue(last.matches("jwarp: a client at 127\\.0\\.0\\.1:\\d+ speaks MPA \\(--transport jwarp\\), this"
                + " server runs --transport sockets-nio: run both sides with the same --transport"), last);
    }

    @Test
    void aSocketsClientAtAJwarpServerIsToldInOneLine() throws Exception {
        String p = String.valueOf(freePort());
        PerfRun.Background server = new PerfRun.Background("send-lat", "-p", p).awaitListening();
        PerfRun client = PerfRun.of("send-lat", "127.0.0.1", "-p", p, "--transport", "sockets-blocking");
        assertLine(client, 1, "jwarp: the peer at 127.0.0.1:" + p + " closed the connection after the hello: it does"
                + " not speak jwarp's sockets protocol (a jwarp server with --transport jwarp? run both sides with the"
                + " same --transport)");
        // the jwarp server's listener reports a client that does not start with an MPA Request: one line
        PerfRun s = server.join();
        assertEquals(1, s.exit(), s.err());
        String last = s.err().strip().lines().toList().getLast();
        assertTrue(last.matches("jwarp: the peer 127\\.0\\.0\\.1:\\d+ is not speaking MPA: first bytes 'jwarp-pe'"
                + " \\(this server runs send-lat --transport jwarp: run both sides with the same --transport\\)"), last);
    }

    @Test
    void aServerRunningAnotherTestRefusesWithOneLineOnBothSides() throws Exception {
        for (String transport : new String[] {"jwarp", "sockets-busypoll"}) {
            String p = String.valueOf(freePort());
            PerfRun.Background server = new PerfRun.Background("read-lat", "-p", p, "--transport", transport)
                    .awaitListening();
            PerfRun client = PerfRun.of("write-bw", "127.0.0.1", "-p", p, "--transport", transport);
            assertLine(client, 1, "jwarp: the server at 127.0.0.1:" + p + " runs read-lat --transport " + transport
                    + ", this client runs write-bw --transport " + transport + ": run the same test, with the same"
                    + " --transport, on both sides");
            PerfRun s = server.join();
            assertEquals(1, s.exit());
            String last = s.err().strip().lines().toList().getLast();
            assertTrue(last.matches("jwarp: the client at 127\\.0\\.0\\.1:\\d+ runs write-bw --transport " + transport
                    + ", this server runs read-lat --transport " + transport + ": run the same test, with the same"
                    + " --transport, on both sides"), last);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}

package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Bad input gives one line starting with "jwarp:" and a non-zero exit, never a stack trace. */
class DegenCommandTest {

    private record Result(int exit, String out, String err) {
    }

    private static Result run(String... args) {
        CommandLine cl = JwarpCommand.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    private static void assertOneLineError(Result r, String fragment) {
        assertTrue(r.exit() != 0, "exit code");
        String err = r.err().strip();
        assertTrue(err.startsWith("jwarp: "), err);
        assertFalse(err.contains("\n"), "one line: " + err);
        assertFalse(err.contains("Exception"), "no stack trace: " + err);
        assertTrue(err.contains(fragment), err);
    }

    @Test
    void badDurationsRatesAndNamesAreOneLine() {
        assertOneLineError(run("testbed", "up", "--delay", "10parsecs"), "--delay");
        assertOneLineError(run("testbed", "up", "--rate", "fast"), "--rate");
        assertOneLineError(run("testbed", "up", "--a2b", "speed=1g"), "unknown link key");
        assertOneLineError(run("testbed", "up", "--name", "Bad-Name"), "testbed name");
        assertOneLineError(run("testbed", "up", "--emulator", "dummynet"), "--emulator");
        assertOneLineError(run("testbed", "up", "--mtu-b", "100"), "MTU");
        assertOneLineError(run("testbed", "exec", "C", "--", "true"), "must be A or B");
        assertOneLineError(run("testbed", "up", "--reorder", "150%"), "--reorder");
        assertOneLineError(run("testbed", "up", "--duplicate", "lots"), "--duplicate");
        assertOneLineError(run("testbed", "cut", "soon"), "TIME");
        assertOneLineError(run("testbed", "cut", "0s"), "more than 0");
        assertOneLineError(run("degen", "relay", "--listen", "7000", "--to", "nowhere"), "HOST:PORT");
        assertOneLineError(run("degen", "relay", "--listen", "7000", "--to", "localhost:99999"), "port");
    }

    @Test
    void theRelayHelpSaysItIsNotARouter() {
        Result r = run("degen", "relay", "--help");
        assertEquals(0, r.exit());
        assertTrue(r.out().contains("NOT a router"), r.out());
        assertTrue(r.out().contains("terminates TCP"), r.out());
    }

    @Test
    void subcommandsAreRegistered() {
        Result r = run("--help");
        assertTrue(r.out().contains("degen"), r.out());
        assertTrue(r.out().contains("testbed"), r.out());
    }
}

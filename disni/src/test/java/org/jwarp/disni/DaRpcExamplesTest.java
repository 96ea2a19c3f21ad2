package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * DaRPC 1.9's example server and client ({@code com.ibm.darpc:darpc:1.9} and its tests jar,
 * unmodified) as two processes over 127.0.0.1 on jwarp-disni, the client in every {@code -m} mode
 * it offers against one server.
 */
class DaRpcExamplesTest {
    static final String[] MODES = {"future-poll", "stream-poll", "future-take", "stream-take", "batch-stream-take",
        "batch-stream-poll"};
    static final int OPS = 1000;

    @Test
    void theClientCompletesItsRpcLoopInEveryMode() throws Exception {
        // DaRPCServer listens on port 1919, as it does on hardware
        try (ChildJvm server = ChildJvm.start("DaRPCServer", "com.ibm.darpc.examples.server.DaRPCServer", "-a", "127.0.0.1")) {
            assertTrue(server.awaitOutput("running...server 127.0.0.1", 60), server.output());
            Thread.sleep(500);
            for (String mode : MODES) {
                try (ChildJvm client = ChildJvm.start("DaRPCClient-" + mode, "com.ibm.darpc.examples.client.DaRPCClient",
                        "-a", "127.0.0.1", "-m", mode, "-k", String.valueOf(OPS))) {
                    assertEquals(0, client.awaitExit(120), mode + ":\n" + client.output());
                    String c = client.output();
                    assertTrue(c.contains("finished joining worker 0"), mode + ":\n" + c);
                    assertTrue(c.contains("ops " + OPS + ".0"), mode + ":\n" + c);
                    // the client times its loop with DiSNI's StopWatch (milliseconds) and prints seconds
                    java.util.regex.Matcher t = java.util.regex.Pattern.compile("executionTime (\\d+\\.\\d+)").matcher(c);
                    assertTrue(t.find() && Double.parseDouble(t.group(1)) > 0, mode + ":\n" + c);
                }
            }
        }
    }

    /**
     * With {@code jwarp.threading=invoker} there is no engine thread: DiSNI's CM thread runs the
     * duty cycle while it waits for events, and its CQ thread while it waits for completions.
     */
    @Test
    void invokerModeHasNoEngineThreadAndStillCompletes() throws Exception {
        java.util.List<String> invoker = java.util.List.of("-Djwarp.threading=invoker");
        try (ChildJvm server = ChildJvm.start("DaRPCServer-invoker", invoker, "com.ibm.darpc.examples.server.DaRPCServer",
                "-a", "127.0.0.1")) {
            assertTrue(server.awaitOutput("running...server 127.0.0.1", 60), server.output());
            try (ChildJvm client = ChildJvm.start("DaRPCClient-invoker", invoker, "com.ibm.darpc.examples.client.DaRPCClient",
                    "-a", "127.0.0.1", "-m", "future-poll", "-k", String.valueOf(OPS))) {
                assertEquals(0, client.awaitExit(120), client.output());
                assertTrue(client.output().contains("ops " + OPS + ".0"), client.output());
            }
        }
    }
}

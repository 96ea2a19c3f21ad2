package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * DiSNI's own examples ({@code com.ibm.disni:disni:2.0:tests}, unmodified) as two processes over
 * 127.0.0.1 on jwarp-disni: they complete and print what they print on hardware.
 */
class DisniExamplesTest {

    @Test
    void readServerAndReadClientReadTheServersBufferByRdmaRead() throws Exception {
        String port = String.valueOf(ChildJvm.freePort());
        try (ChildJvm server = ChildJvm.start("ReadServer", "com.ibm.disni.examples.ReadServer", "-a", "127.0.0.1", "-p", port)) {
            assertTrue(server.awaitOutput("ReadServer::server bound to address", 60), server.output());
            try (ChildJvm client = ChildJvm.start("ReadClient", "com.ibm.disni.examples.ReadClient", "-a", "127.0.0.1", "-p", port)) {
                assertEquals(0, client.awaitExit(90), client.output());
                assertEquals(0, server.awaitExit(30), server.output());
                String c = client.output();
                String s = server.output();
                assertTrue(s.contains("ReadServer::connection accepted"), s);
                assertTrue(s.contains("ReadServer::final message"), s);
                Matcher info = Pattern.compile("receiving rdma information, addr (\\d+), length 100, key (\\d+)").matcher(c);
                assertTrue(info.find(), c);
                String stag = info.group(2);
                // ten reads of 10, 20, ... 100 bytes of UTF-16 chars: each prints five more characters of the server's string
                String full = "This is a RDMA/read on stag " + stag + " !";
                java.util.List<String> reads = c.lines().filter(l -> l.startsWith("ReadClient::read memory from server: "))
                        .map(l -> l.substring("ReadClient::read memory from server: ".length()).replace('\0', ' ').strip())
                        .toList();
                assertEquals(10, reads.size(), c);
                for (int i = 0; i < reads.size(); i++) {
                    String expected = full.substring(0, Math.min(full.length(), 5 * (i + 1))).strip();
                    assertEquals(expected, reads.get(i), "read of " + 10 * (i + 1) + " bytes");
                }
                assertTrue(c.contains("closing endpoint, done"), c);
            }
        }
    }

    @Test
    void sendRecvServerAndClientExchangeTheirMessages() throws Exception {
        String port = String.valueOf(ChildJvm.freePort());
        try (ChildJvm server = ChildJvm.start("SendRecvServer", "com.ibm.disni.examples.SendRecvServer", "-a", "127.0.0.1", "-p", port)) {
            assertTrue(server.awaitOutput("SimpleServer::servers bound to address", 60), server.output());
            try (ChildJvm client = ChildJvm.start("SendRecvClient", "com.ibm.disni.examples.SendRecvClient", "-a", "127.0.0.1", "-p", port)) {
                assertEquals(0, client.awaitExit(90), client.output());
                assertEquals(0, server.awaitExit(30), server.output());
                String c = client.output();
                String s = server.output();
                assertTrue(s.contains("Message from the client: Hello from the client"), s);
                assertTrue(s.contains("group closed"), s);
                assertTrue(Pattern.compile("SimpleClient::message sent, wr_id \\d+").matcher(c).find(), c);
                assertTrue(c.contains("Message from the server: Hello from the server"), c);
                assertTrue(c.contains("group closed"), c);
            }
        }
    }
}

package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code jwarp rss hash}: the specification's vectors from the command line, and one-line errors. */
class RssCommandTest {

    @Test
    void printsTheHashOfTheSpecificationsFirstVector() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("rss", "hash", "66.9.149.187", "2794", "161.142.100.80", "1766");
        assertEquals(0, r.exit(), r.err());
        assertEquals("0x51ccc178", r.out().strip());
        JwarpCommandTest.Run ip = JwarpCommandTest.run("rss", "hash", "--no-ports", "66.9.149.187", "2794",
                "161.142.100.80", "1766");
        assertEquals("0x323e8fc2", ip.out().strip());
    }

    @Test
    void ipv6AndTheTable() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("rss", "hash", "3ffe:2501:200:1fff::7", "2794",
                "3ffe:2501:200:3::1", "1766", "--table", "--engines", "2");
        assertEquals(0, r.exit(), r.err());
        // 0x40207d3d: low 7 bits 0x3d = entry 61, odd: engine 1 of a table spread over 2
        assertEquals("0x40207d3d entry 61 of 128, engine thread 1 of 2", r.out().strip());
    }

    @Test
    void anotherKeyGivesAnotherHash() {
        String key = "00".repeat(40);
        JwarpCommandTest.Run r = JwarpCommandTest.run("rss", "hash", "--key", key, "10.0.0.1", "1", "10.0.0.2", "2");
        assertEquals("0x00000000", r.out().strip(), "a zero key hashes everything to 0");
    }

    @Test
    void badInputIsOneLine() {
        assertOneLine(JwarpCommandTest.run("rss", "hash", "10.0.0.1", "70000", "10.0.0.2", "2"), "SRC_PORT must be 0 to 65535");
        assertOneLine(JwarpCommandTest.run("rss", "hash", "host.example", "1", "10.0.0.2", "2"), "SRC_IP must be an IPv4 or IPv6");
        assertOneLine(JwarpCommandTest.run("rss", "hash", "1.2.3", "1", "10.0.0.2", "2"), "SRC_IP must be an IPv4 or IPv6");
        assertOneLine(JwarpCommandTest.run("rss", "hash", "10.0.0.1", "1", "10.0.0.256", "2"), "DST_IP must be an IPv4 or IPv6");
        assertOneLine(JwarpCommandTest.run("rss", "hash", "10.0.0.1", "1", "::1", "2"), "must both be IPv4 or both IPv6");
        assertOneLine(JwarpCommandTest.run("rss", "hash", "--key", "abc", "10.0.0.1", "1", "10.0.0.2", "2"), "--key takes hex");
        assertOneLine(JwarpCommandTest.run("rss", "hash", "--key", "00", "10.0.0.1", "1", "10.0.0.2", "2"),
                "--key needs at least 40 bytes");
        assertOneLine(JwarpCommandTest.run("rss", "hash", "--table", "100", "10.0.0.1", "1", "10.0.0.2", "2"),
                "power-of-two size");
    }

    private static void assertOneLine(JwarpCommandTest.Run r, String expected) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}

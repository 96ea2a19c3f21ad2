package org.jwarp.engine.rss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The hash against the verification table of Microsoft's RSS specification ("Verifying the RSS Hash Calculation"). */
class ToeplitzTest {

    private final Toeplitz toeplitz = new Toeplitz();

    @ParameterizedTest(name = "{1}:{3} -> {0}:{2}")
    @CsvSource({
            // destination, source, destination port, source port, addresses only, with TCP ports
            "161.142.100.80, 66.9.149.187, 1766, 2794, 323e8fc2, 51ccc178",
            "65.69.140.83, 199.92.111.2, 4739, 14230, d718262a, c626b0ea",
            "12.22.207.184, 24.19.198.95, 38024, 12898, d2d0a5de, 5c2b394a",
            "209.142.163.6, 38.27.205.30, 2217, 48228, 82989176, afc7327f",
            "202.188.127.2, 153.39.163.191, 1303, 44251, 5d1809c5, 10e828a2",
            "3ffe:2501:200:3::1, 3ffe:2501:200:1fff::7, 1766, 2794, 2cc18cd5, 40207d3d",
            "ff02::1, 3ffe:501:8::260:97ff:fe40:efab, 4739, 14230, 0f0c461c, dde51bbf",
            "fe80::200:f8ff:fe21:67cf, 3ffe:1900:4545:3:200:f8ff:fe21:67cf, 38024, 44251, 4b61e985, 02d1feef",
    })
    void theSpecificationsVerificationTable(String destination, String source, int destinationPort, int sourcePort,
                                            String addressesOnly, String withPorts) throws UnknownHostException {
        InetSocketAddress src = new InetSocketAddress(InetAddress.getByName(source), sourcePort);
        InetSocketAddress dst = new InetSocketAddress(InetAddress.getByName(destination), destinationPort);
        assertEquals(addressesOnly, hex(toeplitz.hash(src, dst, false)));
        assertEquals(withPorts, hex(toeplitz.hash(src, dst, true)));
    }

    @Test
    void aKeyTooShortForAnIpv6TupleIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Toeplitz(new byte[39]));
        assertEquals("an RSS key has at least 40 bytes (IPv6 with ports needs 36 + 4), not 39", e.getMessage());
    }

    @Test
    void mixedAddressFamiliesAreRefused() throws UnknownHostException {
        assertThrows(IllegalArgumentException.class, () -> toeplitz.hash(
                new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 1),
                new InetSocketAddress(InetAddress.getByName("::1"), 2), true));
    }

    @Test
    void theTableSpreadsEntriesOverEnginesAndRebalancesByEntry() {
        IndirectionTable t = new IndirectionTable(128, 3);
        assertEquals(128, t.size());
        assertEquals(0, t.engineOf(0));
        assertEquals(1, t.engineOf(1));
        assertEquals(2, t.engineOf(5));
        assertEquals(0x78, t.entry(0x51ccc178), "the low 7 bits pick the entry");
        assertEquals(0x78 % 3, t.engineFor(0x51ccc178));
        t.assign(0x78, 1);
        assertEquals(1, t.engineFor(0x51ccc178));
        assertThrows(IllegalArgumentException.class, () -> new IndirectionTable(100, 2));
        assertThrows(IllegalArgumentException.class, () -> t.assign(0, 3));
    }

    private static String hex(int h) {
        return String.format("%08x", h);
    }
}

package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad {@code jwarp rping} input: one line saying what is wrong, exit 2, no stack trace. */
class RpingCommandTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "rping|jwarp: give exactly one of -s (server) and -c (client) (see 'jwarp rping --help')",
            "rping -s -c|jwarp: give exactly one of -s (server) and -c (client) (see 'jwarp rping --help')",
            "rping -c|jwarp: the client needs the server's address: -a ADDR (see 'jwarp rping --help')",
            "rping -s -S 22|jwarp: Invalid size 22 (valid range is 23 to 65535) (see 'jwarp rping --help')",
            "rping -s -S 65536|jwarp: Invalid size 65536 (valid range is 23 to 65535) (see 'jwarp rping --help')",
            "rping -c -a 127.0.0.1 -C -1|jwarp: Invalid count -1 (-C must be >= 0) (see 'jwarp rping --help')",
            "rping -s --crc maybe|jwarp: --crc must be preferred, required or off, not 'maybe' (see 'jwarp rping --help')",
            "rping -s --mpa-rev 3|jwarp: --mpa-rev must be 1 or 2, not 3 (see 'jwarp rping --help')",
            "rping -c -a 127.0.0.1 --mpa-rev 1 --p2p|jwarp: --p2p needs --mpa-rev 2: peer-to-peer mode is RFC 6581's,"
                    + " MPA revision 1 has none (see 'jwarp rping --help')",
            "rping -s --rtr write,fax|jwarp: --rtr takes write, read or send, not 'fax' (see 'jwarp rping --help')",
            "rping -c -a 127.0.0.1 -P|jwarp: -P is for the server (-s) (see 'jwarp rping --help')"})
    void badInputIsOneLine(String args, String expected) {
        JwarpCommandTest.Run r = JwarpCommandTest.run(args.split(" "));
        assertEquals(2, r.exit(), r.err());
        assertEquals(expected, r.err().strip());
        assertFalse(r.err().contains("Exception"));
    }

    @ParameterizedTest
    @CsvSource({"rping -c -a 127.0.0.1 -p 1 -C 1 --timeout 5"})
    void aRefusedConnectionIsOneLine(String args) {
        JwarpCommandTest.Run r = JwarpCommandTest.run(args.split(" "));
        assertEquals(1, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertEquals("jwarp: cannot reach /127.0.0.1:1: Connection refused", r.err().strip());
    }
}

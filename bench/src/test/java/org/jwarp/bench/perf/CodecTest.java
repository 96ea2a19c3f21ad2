package org.jwarp.bench.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.jwarp.bench.transport.jwarp.Rendezvous;
import org.junit.jupiter.api.Test;

/** What the two sides send each other: settings, rendezvous frames, control messages. */
class CodecTest {

    static Settings settings() {
        return new Settings(TestKind.READ_BW, TransportKind.JWARP, true, 4096, 1234, true, 2500, 64, 256, 32, true, 4, 8,
                3, 12);
    }

    @Test
    void settingsRoundTrip() {
        Settings s = settings();
        ByteBuffer b = ByteBuffer.allocate(Settings.ENCODED_LENGTH);
        s.writeTo(b);
        assertEquals(Settings.ENCODED_LENGTH, b.position());
        assertEquals(s, Settings.readFrom(b.flip()));
    }

    @Test
    void settingsFromAPeerAreChecked() {
        ByteBuffer b = ByteBuffer.allocate(Settings.ENCODED_LENGTH);
        settings().writeTo(b);
        b.put(0, (byte) 9);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Settings.readFrom(b.flip()));
        assertEquals("settings version 9, this jwarp speaks 1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Settings.readFrom(ByteBuffer.allocate(3)));
    }

    @Test
    void sizesAndTheDefaultIterationCap() {
        Settings all = settings();
        assertEquals(23, all.sizes().size());
        assertEquals(2, all.sizes().getFirst());
        assertEquals(1 << 23, all.sizes().getLast());
        Settings auto = new Settings(TestKind.WRITE_BW, TransportKind.JWARP, false, 1 << 20, 5000, false, 0, 128, 512, 0,
                false, 1, 100, 1, 16);
        assertEquals(256, auto.iterationsFor(1 << 20));
        assertEquals(5000, auto.iterationsFor(4096));
        assertEquals(Settings.MIN_AUTO_ITERATIONS, auto.iterationsFor(1 << 30));
        assertEquals(1234, all.iterationsFor(1 << 23), "-n given: no cap");
    }

    @Test
    void rendezvousFramesFitSiwsPrivateDataLimitAndRoundTrip() {
        byte[] control = Rendezvous.control(settings());
        assertTrue(control.length <= 252, "siw takes 252 bytes of private data in MPA revision 2");
        assertEquals(settings(), Rendezvous.parse(control).settings());
        Rendezvous.Buffers b = new Rendezvous.Buffers(0x7f00_1234_5000L, 0x1122_3344, 0x7f00_9999_0000L, 0x5566_7788,
                1 << 23);
        Rendezvous.Frame d = Rendezvous.parse(Rendezvous.data(7, b));
        assertEquals(7, d.qpIndex());
        assertEquals(b, d.buffers());
        assertEquals(b, Rendezvous.parse(Rendezvous.ok(b)).buffers());
        assertNull(Rendezvous.parse(Rendezvous.ok(null)).buffers());
        assertEquals("server runs read-lat --transport jwarp",
                Rendezvous.parse(Rendezvous.error("server runs read-lat --transport jwarp")).text());
    }

    @Test
    void privateDataThatIsNotOursIsNull() {
        assertNull(Rendezvous.parse(new byte[0]));
        assertNull(Rendezvous.parse("hello, rping".getBytes()));
    }

    @Test
    void aRefusalBecomesTheClientsOneLine() {
        Settings mine = new Settings(TestKind.WRITE_BW, TransportKind.SOCKETS_NIO, false, 8, 10, true, 0, 1, 1, 0,
                false, 1, 1, 1, 1);
        assertEquals("the server at 10.0.0.2:18515 runs read-lat --transport jwarp, this client runs write-bw"
                        + " --transport sockets-nio: run the same test, with the same --transport, on both sides",
                Rendezvous.mismatch("server runs read-lat --transport jwarp", "10.0.0.2:18515", mine));
        assertEquals("the server at h:1 refused: busy", Rendezvous.mismatch("busy", "h:1", mine));
    }

    @Test
    void controlMessagesRoundTrip() {
        Latency lat = new Latency(1000, 1.5, 90.25, 2.0, 2.5, 0.75, 9.0, 40.0);
        SideReport r = new SideReport(true, 4096, 1000, 4_096_000, 123_456_789, 1.5e9, lat, 11, 22, 33, 44,
                SideReport.FAILED, "client: byte 3 of the 4096-byte message is 0x00, expected 0x5a", 1, 5_678);
        for (ControlMessage m : new ControlMessage[] {ControlMessage.prepare(65536, true), ControlMessage.ready(8),
                ControlMessage.report(r), ControlMessage.bye(), ControlMessage.error("the peer's disk is on fire")}) {
            ByteBuffer b = ByteBuffer.allocate(ControlMessage.MAX_LENGTH);
            int len = m.writeTo(b);
            assertTrue(len <= ControlMessage.MAX_LENGTH);
            assertEquals(m, ControlMessage.readFrom(b.flip()));
        }
        assertThrows(IllegalArgumentException.class, () -> ControlMessage.readFrom(ByteBuffer.wrap(new byte[] {42})));
    }
}

package org.jwarp.bench.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A side in a JVM of its own: its announced port, its output, its failure; and the announcement itself. */
class JvmProcessTest {

    /** A side that says a line, announces port ARG0 and exits with status ARG1. */
    public static final class Side {
        public static void main(String[] args) {
            System.out.println("warming up");
            Listening.print(System.out, Integer.parseInt(args[0]));
            System.out.println("done");
            System.exit(Integer.parseInt(args[1]));
        }
    }

    @Test
    void theAnnouncementIsOneJsonLineAndThePerfServersSentenceIsReadToo() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Listening.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 4791);
        assertEquals("{\"listening\":{\"port\":4791}}\n", bytes.toString(StandardCharsets.UTF_8));
        assertEquals(OptionalInt.of(4791), Listening.port("{\"listening\":{\"port\":4791}}"));
        assertEquals(OptionalInt.of(18515), Listening.port(Listening.waiting("write-lat server (--transport jwarp)",
                18515)));
        assertEquals("jwarp: scale server waiting for a client on port 7", Listening.waiting("scale server", 7));
        assertEquals(OptionalInt.empty(), Listening.port("{\"result\":{\"port\":1}}"));
        assertEquals(OptionalInt.empty(), Listening.port("listening on port 1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Listening.port("{\"listening\":{}}"));
        assertEquals("a listening line without a port: {\"listening\":{}}", e.getMessage());
    }

    @Test
    void aSidesPortAndOutputReachTheParent() throws Exception {
        List<String> lines = new ArrayList<>();
        try (JvmProcess p = JvmProcess.start(List.of(), Side.class.getName(), List.of("5123", "0"), "test side",
                lines::add)) {
            assertEquals(5123, p.port());
            assertEquals("warming up\n{\"listening\":{\"port\":5123}}\ndone", p.awaitOutput(60));
        }
        assertEquals(List.of("warming up", "{\"listening\":{\"port\":5123}}", "done"), lines);
    }

    @Test
    void aFailedSideIsAnErrorWithWhatItPrinted() throws Exception {
        try (JvmProcess p = JvmProcess.start(List.of(), Side.class.getName(), List.of("5124", "3"), "test side")) {
            IOException e = assertThrows(IOException.class, () -> p.awaitOutput(60));
            assertEquals("the test side failed (exit 3): warming up\n{\"listening\":{\"port\":5124}}\ndone",
                    e.getMessage());
        }
        IOException e = assertThrows(IOException.class, () -> JvmProcess.run(List.of(), "org.jwarp.NoSuchMain",
                List.of(), "missing side", line -> { }, 60));
        assertTrue(e.getMessage().startsWith("the missing side failed (exit 1): Error: Could not find or load main "
                + "class org.jwarp.NoSuchMain"), e.getMessage());
    }
}

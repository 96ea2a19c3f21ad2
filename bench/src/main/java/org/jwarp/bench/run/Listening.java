package org.jwarp.bench.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jwarp.bench.json.JsonCodec;

/**
 * How a server process says where it listens, and the one place that reads it: a side process of
 * an experiment prints the JSON line {@code {"listening":{"port":N}}}; a {@code jwarp} perf or
 * scale server says, for its user, "jwarp: ... waiting for a client on port N" ({@link #waiting}).
 */
public final class Listening {

    private static final String START = "{\"listening\":";
    private static final Pattern WAITING = Pattern.compile("waiting for a client on port (\\d+)$");

    private Listening() {
    }

    /** The JSON line's one object. */
    private record Port(int port) {
    }

    /** The line wrapper: its one field names the line for what it is. */
    private record Line(Port listening) {
    }

    /** Prints the JSON line that says this process listens on {@code port}, and flushes. */
    public static void print(PrintStream out, int port) {
        out.println(JsonCodec.line(new Line(new Port(port))));
        out.flush();
    }

    /** What a {@code jwarp} server tells its user: {@code who} (e.g. "write-lat server") waits on {@code port}. */
    public static String waiting(String who, int port) {
        return "jwarp: " + who + " waiting for a client on port " + port;
    }

    /** The port {@code line} announces, if it is either announcement. */
    public static OptionalInt port(String line) {
        if (line.startsWith(START)) {
            JsonNode port = JsonCodec.tree(line, "a listening line").path("listening").path("port");
            if (!port.canConvertToInt()) {
                throw new IllegalArgumentException("a listening line without a port: " + line);
            }
            return OptionalInt.of(port.intValue());
        }
        Matcher m = WAITING.matcher(line);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }
}

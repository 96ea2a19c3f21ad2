package org.jwarp.bench.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.bench.json.JsonCodec;

/**
 * How an experiment's side process reports a result to the command that started it: one JSON line
 * {@code {"result": {...}}} on its standard output, among whatever else it prints, the object a
 * record of the side's; the command reads them back with {@link #all}.
 */
public final class ResultLines {

    private static final String START = "{\"result\":";

    private ResultLines() {
    }

    /** The line wrapper: its one field names the line for what it is. */
    private record Line(Object result) {
    }

    /** Prints {@code result} as a result line and flushes. */
    public static void print(PrintStream out, Object result) {
        out.println(JsonCodec.line(new Line(result)));
        out.flush();
    }

    /**
     * Every result line of {@code output}, as a {@code type}, in order.
     *
     * @param what the process, for the error
     * @throws IOException with the output, if there is none
     * @throws IllegalArgumentException one line, if one is not a {@code type}
     */
    public static <T> List<T> all(String output, Class<T> type, String what) throws IOException {
        List<T> out = new ArrayList<>();
        for (String line : output.lines().toList()) {
            if (line.startsWith(START)) {
                out.add(one(line, type, what));
            }
        }
        if (out.isEmpty()) {
            throw new IOException("the " + what + " printed no result: " + output.strip());
        }
        return out;
    }

    /**
     * {@code line} as a {@code type} if it is a result line, else null.
     *
     * @throws IllegalArgumentException one line, if it is a result line but not a {@code type}
     */
    public static <T> T parse(String line, Class<T> type, String what) {
        return line.startsWith(START) ? one(line, type, what) : null;
    }

    private static <T> T one(String line, Class<T> type, String what) {
        try {
            JsonNode result = JsonCodec.tree(line, "the " + what + "'s result line").get("result");
            return JsonCodec.convert(result, type, "the " + what + "'s result line");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + ": " + line, e);
        }
    }
}

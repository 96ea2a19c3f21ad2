package org.jwarp.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The machine an experiment ran on, as the first note of its results: system, processor and Java. */
public final class Machine {

    /** How the note begins; the report reads it back as the machine's row. */
    public static final String NOTE = "machine: ";

    private Machine() {
    }

    /** E.g. {@code machine: Linux 6.1.0 (amd64), Intel(R) Xeon(R) ..., Java 25.0.1}. */
    public static String note() {
        StringBuilder sb = new StringBuilder(NOTE).append(System.getProperty("os.name")).append(' ')
                .append(System.getProperty("os.version")).append(" (").append(System.getProperty("os.arch")).append(')');
        processor().ifPresent(p -> sb.append(", ").append(p));
        return sb.append(", Java ").append(Runtime.version()).toString();
    }

    /** {@code notes} with the machine's note first. */
    public static List<String> withNote(List<String> notes) {
        List<String> all = new ArrayList<>(List.of(note()));
        all.addAll(notes);
        return all;
    }

    /** The processor's model name, where the system says it (Linux: /proc/cpuinfo). */
    private static Optional<String> processor() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}

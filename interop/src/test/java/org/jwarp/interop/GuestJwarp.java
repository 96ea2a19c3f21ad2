package org.jwarp.interop;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.cli.JwarpCommand;

/**
 * Runs several {@code jwarp} command lines, one after another, in one JVM in the guest: each
 * through the real command line ({@link JwarpCommand#newCommandLine()}), as {@code java -jar
 * jwarp.jar ARGS} would. One JVM saves its start-up (tens of seconds in the emulated guest) for every
 * command after the first.
 *
 * <pre>GuestJwarp "write-lat --provider ibverbs ..." "rping ..."</pre>
 * Prints {@value #START}ARGS before each command's output and {@value #EXIT}N (SECONDS s) after it.
 */
final class GuestJwarp {

    static final String START = "=== jwarp ";
    static final String EXIT = "=== exit ";

    private GuestJwarp() {
    }

    public static void main(String[] commands) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        for (String command : commands) {
            out.println(START + command);
            long t0 = System.nanoTime();
            int exit;
            try {
                var cl = JwarpCommand.newCommandLine();
                cl.setOut(out);
                cl.setErr(out);
                exit = cl.execute(command.strip().split("\\s+"));
            } catch (RuntimeException e) {
                out.println("jwarp: " + e);
                exit = 1;
            }
            out.flush();
            out.printf(java.util.Locale.ROOT, "%s%d (%.1f s)%n", EXIT, exit, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The output of each command in a log of {@link #main}, in order; a command that did not end has no exit line. */
    static List<Run> split(String log) {
        List<Run> runs = new ArrayList<>();
        StringBuilder text = null;
        String args = null;
        for (String line : log.split("\n", -1)) {
            if (line.startsWith(START)) {
                if (args != null) {
                    runs.add(new Run(args, text.toString(), -1));
                }
                args = line.substring(START.length());
                text = new StringBuilder();
            } else if (line.startsWith(EXIT) && args != null) {
                runs.add(new Run(args, text.toString(), Integer.parseInt(line.substring(EXIT.length()).strip().split(" ")[0])));
                args = null;
            } else if (text != null) {
                text.append(line).append('\n');
            }
        }
        if (args != null) {
            runs.add(new Run(args, text.toString(), -1));
        }
        return runs;
    }

    /** One command of a batch: its arguments, what it printed, its exit status (-1: it did not end). */
    record Run(String args, String output, int exit) {
    }
}

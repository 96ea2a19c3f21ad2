package org.jwarp.interop;

import java.io.PrintWriter;
import java.util.List;
import org.jwarp.cli.JwarpCommand;
import org.jwarp.disni.rping.DisniRping;
import picocli.CommandLine;

/** The host side of a cell: jwarp's command line, or rping written against DiSNI's API on jwarp-disni. */
@FunctionalInterface
interface HostRping {

    /** Runs the program with {@code args}; returns its exit status. */
    int execute(List<String> args, PrintWriter out, PrintWriter err);

    /** {@code jwarp ...} through the real picocli command line. */
    HostRping JWARP = (args, out, err) -> {
        CommandLine cl = JwarpCommand.newCommandLine();
        cl.setOut(out);
        cl.setErr(err);
        return cl.execute(args.toArray(String[]::new));
    };

    /** {@code DisniRping ...} (its options are rping's). */
    HostRping DISNI = (args, out, err) -> DisniRping.run(args.toArray(String[]::new), out, err);

    static HostRping of(JwarpMpaConfig config) {
        return config.disni() ? DISNI : JWARP;
    }
}

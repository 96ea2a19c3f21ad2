package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.jwarp.bench.experiments.JwarpTool;
import org.jwarp.bench.report.PerfDocument;
import picocli.CommandLine;

/** The {@code jwarp} command as the experiments run it ({@link JwarpTool}): this command line, here or in a process. */
final class CliJwarp implements JwarpTool {

    @Override
    public String mainClass() {
        return JwarpCommand.class.getName();
    }

    @Override
    public PerfDocument runHere(List<String> args) throws IOException {
        CommandLine cl = JwarpCommand.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args.toArray(String[]::new));
        PerfDocument doc = null;
        try {
            doc = exit == 0 ? PerfDocument.parse(out.toString(), "jwarp " + String.join(" ", args)) : null;
        } catch (IllegalArgumentException e) {
            err.write(e.getMessage());
        }
        if (doc == null || !doc.verified()) {
            throw new IOException("jwarp " + String.join(" ", args) + " failed (exit " + exit + "): "
                    + (err + out.toString()).strip());
        }
        return doc;
    }
}

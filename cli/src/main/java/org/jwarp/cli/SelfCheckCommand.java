package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.jwarp.wire.WireSelfCheck;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code jwarp selfcheck}: runs the wire layer's published vectors and prints one line each. */
@Command(name = "selfcheck", mixinStandardHelpOptions = true,
        description = "Check the wire codecs against published vectors (RFC 3720 B.4 CRC32c, RFC 5044 FPDUs, MPA frames).")
final class SelfCheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return run(spec.commandLine().getOut());
    }

    static int run(PrintWriter out) {
        out.println("Wire self-check:");
        var results = WireSelfCheck.runAll();
        int failed = 0;
        for (var r : results) {
            out.printf("  %-4s %s%n", r.passed() ? "ok" : "FAIL", r.name());
            if (!r.passed()) {
                out.printf("       %s%n", r.detail());
                failed++;
            }
        }
        out.printf("%d passed, %d failed%n", results.size() - failed, failed);
        out.flush();
        return failed == 0 ? 0 : 1;
    }
}

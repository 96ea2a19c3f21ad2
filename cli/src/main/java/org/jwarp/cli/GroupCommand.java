package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that only groups subcommands ({@code jwarp degen}, {@code testbed}, {@code rss},
 * {@code experiment}): alone it is incomplete, so it says so with its usage and exits 2, as a bad
 * option does.
 */
abstract class GroupCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": give a subcommand (listed below)");
        spec.commandLine().usage(err);
        err.flush();
        return 2;
    }
}

package org.jwarp.bench.experiment;

import java.io.PrintStream;

/**
 * The {@code main} of an experiment's side process: its output is read by the experiment command,
 * so a failure is printed there (with its stack trace) and turns into exit status 1.
 */
final class SideMain {

    @FunctionalInterface
    interface Body {
        void run(PrintStream out) throws Exception;
    }

    private SideMain() {
    }

    static void run(String what, Body body) {
        try {
            body.run(System.out);
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            System.out.println(what + " failed: " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }
}

package org.jwarp.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.jwarp.degen.sys.Libc;
import org.jwarp.degen.testbed.Testbed;

/** The end of a test class that ran on the two-host testbed: nothing of it is left behind. */
final class TestbedCleanup {

    private TestbedCleanup() {
    }

    /**
     * Takes the testbed down and deletes its state directory (down keeps degen's last statistics
     * and log for the user; a test run has no use for them). Returns false, doing nothing, when
     * not root: the testbed was never up.
     */
    static boolean down(Testbed tb) throws IOException {
        if (Libc.geteuid() != 0) {
            return false;
        }
        tb.down();
        if (Files.exists(tb.stateDir())) {
            try (var files = Files.walk(tb.stateDir())) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        return true;
    }
}

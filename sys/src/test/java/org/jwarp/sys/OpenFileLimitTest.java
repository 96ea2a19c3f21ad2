package org.jwarp.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** RLIMIT_NOFILE through FFM: what getrlimit reads is what the kernel shows, and raising never lowers. */
class OpenFileLimitTest {

    @Test
    void theLimitsAreTheKernelsAndARaiseToTheSoftLimitChangesNothing() throws IOException {
        assertNull(OpenFileLimit.why());
        OpenFileLimit.Limits now = OpenFileLimit.get();
        String line = Files.readAllLines(Path.of("/proc/self/limits")).stream()
                .filter(l -> l.startsWith("Max open files")).findFirst().orElseThrow();
        String[] f = line.substring("Max open files".length()).trim().split("\\s+");
        assertEquals(Long.parseLong(f[0]), now.soft(), line);
        assertEquals(Long.parseLong(f[1]), now.hard(), line);
        assertEquals(now, OpenFileLimit.raiseTo(now.soft() - 1), "a lower wish leaves both limits");
        OpenFileLimit.Limits raised = OpenFileLimit.raiseTo(now.hard());
        assertEquals(now.hard(), raised.soft(), "the soft limit may always rise to the hard one");
        assertTrue(raised.hard() >= now.hard());
    }
}

package org.jwarp.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.RdmaDevice;

/**
 * {@link Conformance} on the jwarp provider, over loopback. The interop suite runs the same checks
 * on {@code ibverbs} over siw in its guest.
 */
class ConformanceTest {

    @Test
    void jwarpPassesEveryCheck() throws InterruptedException {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (RdmaDevice device = RdmaDevice.open(DeviceConfig.builder().providerName("jwarp").build(),
                ConformanceTest.class.getClassLoader())) {
            List<String> failed = Conformance.run(device, "127.0.0.1", new PrintStream(log, true, StandardCharsets.UTF_8));
            String lines = log.toString(StandardCharsets.UTF_8);
            assertEquals(List.of(), failed, lines);
            // the engine has shared receive queues and memory windows: neither check may be skipped
            assertEquals(List.of(), lines.lines().filter(l -> l.startsWith("skip ")).toList(), lines);
            assertTrue(lines.contains("ok srq") && lines.contains("ok memory windows"), lines);
        }
    }
}

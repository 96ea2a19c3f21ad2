package org.jwarp.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-written layouts against the C headers: a C program prints {@code sizeof} of every
 * structure and {@code offsetof} and {@code sizeof} of every named member, and each must equal the
 * layout's. Skipped, with the reason, where gcc or the headers (libibverbs-dev, librdmacm-dev) are
 * missing.
 */
class LayoutsTest {

    @TempDir
    Path dir;

    @Test
    void verbsLayoutsMatchTheHeaders() throws Exception {
        List<StructLayout> all = new ArrayList<>(VerbsStructs.all());
        all.addAll(QpStructs.all());
        compare("#include <infiniband/verbs.h>", "/usr/include/infiniband/verbs.h", all);
    }

    @Test
    void rdmaCmLayoutsMatchTheHeaders() throws Exception {
        compare("#include <rdma/rdma_cma.h>", "/usr/include/rdma/rdma_cma.h", CmStructs.all());
    }

    private void compare(String include, String header, List<StructLayout> layouts) throws Exception {
        assumeTrue(Files.isRegularFile(Path.of(header)), header + " is missing (apt-get install libibverbs-dev librdmacm-dev)");
        Map<String, Long> expected = new LinkedHashMap<>();
        StringBuilder c = new StringBuilder(include).append("\n#include <stdio.h>\n#include <stddef.h>\nint main(void) {\n");
        for (StructLayout l : layouts) {
            String type = "struct " + l.name().orElseThrow();
            line(c, expected, type, "sizeof(" + type + ")", l.byteSize());
            members(c, expected, type, l, "", 0);
        }
        c.append("    return 0;\n}\n");
        Map<String, Long> actual = runC(c.toString());
        assertTrue(actual.size() == expected.size(), "the C program printed " + actual.size() + " of " + expected.size() + " values");
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            assertEquals(actual.get(e.getKey()), e.getValue(), e.getKey() + " (C header vs Java layout)");
        }
    }

    private static void members(StringBuilder c, Map<String, Long> expected, String type, GroupLayout group,
            String prefix, long base) {
        long offset = 0;
        for (MemoryLayout m : group.memberLayouts()) {
            long at = group instanceof StructLayout ? offset : 0;
            if (!(m instanceof PaddingLayout) && m.name().isPresent()) {
                String path = prefix + m.name().get();
                line(c, expected, type, "offsetof(" + type + ", " + path + ")", base + at);
                line(c, expected, type, "sizeof(((" + type + " *) 0)->" + path + ")", m.byteSize());
                if (m instanceof GroupLayout g) {
                    members(c, expected, type, g, path + ".", base + at);
                }
            }
            offset += m.byteSize();
        }
    }

    private static void line(StringBuilder c, Map<String, Long> expected, String type, String expr, long value) {
        expected.put(expr, value);
        c.append("    printf(\"%s=%zu\\n\", \"").append(expr).append("\", (size_t) ").append(expr).append(");\n");
    }

    private Map<String, Long> runC(String source) throws IOException, InterruptedException {
        Path src = dir.resolve("layouts.c");
        Path bin = dir.resolve("layouts");
        Files.writeString(src, source);
        Process cc;
        try {
            cc = new ProcessBuilder("gcc", "-o", bin.toString(), src.toString()).redirectErrorStream(true).start();
        } catch (IOException noCompiler) {
            assumeTrue(false, "gcc is not installed: " + noCompiler.getMessage());
            throw noCompiler;
        }
        String ccOut = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS), "gcc did not finish");
        assertEquals(0, cc.exitValue(), "gcc failed:\n" + ccOut);
        Process run = new ProcessBuilder(bin.toString()).redirectErrorStream(true).start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(run.waitFor(30, TimeUnit.SECONDS), "the layouts program did not finish");
        Map<String, Long> values = new LinkedHashMap<>();
        for (String l : out.lines().toList()) {
            int eq = l.lastIndexOf('=');
            values.put(l.substring(0, eq), Long.parseLong(l.substring(eq + 1)));
        }
        return values;
    }
}

package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * jwarp-disni's public API against disni-2.1.jar's (from Maven Central, copied by the build as a file
 * and read as class files, never loaded as the implementation): the same public classes, and in each
 * the same public and protected fields and methods with the same modifiers, descriptors, generic
 * signatures, exceptions and constant values, and enum constants in the same order.
 */
class DisniApiTest {

    static Path referenceJar() {
        Path p = Path.of(System.getProperty("disni.reference.jar", "target/disni-reference/disni-reference.jar"));
        assertTrue(Files.isRegularFile(p), "the build copies disni-2.1.jar to " + p);
        return p;
    }

    static Path ourClasses() {
        return Path.of(System.getProperty("jwarp.disni.classes", "target/classes"));
    }

    @Test
    void everyPublicClassMethodFieldAndConstantOfDisni21IsThereSpelledTheSame() throws Exception {
        Map<String, List<String>> theirs = ApiSurface.ofJar(referenceJar());
        Map<String, List<String>> ours = ApiSurface.ofDirectory(ourClasses());
        assertTrue(theirs.size() > 60, "read DiSNI's API: " + theirs.size() + " classes");

        List<String> problems = new ArrayList<>();
        for (String cls : new TreeSet<>(theirs.keySet())) {
            List<String> mine = ours.get(cls);
            if (mine == null) {
                problems.add("missing class " + cls);
                continue;
            }
            for (String line : theirs.get(cls)) {
                if (!mine.contains(line)) {
                    problems.add(cls + ": missing or different: " + line);
                }
            }
            for (String line : mine) {
                if (!theirs.get(cls).contains(line)) {
                    problems.add(cls + ": not in DiSNI: " + line);
                }
            }
        }
        for (String cls : ours.keySet()) {
            if (!theirs.containsKey(cls)) {
                problems.add("public class not in DiSNI: " + cls);
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " differences:\n" + String.join("\n", problems));
        }
    }

    /**
     * Non-final static fields (the access and send flags, IbvWC's sizes) get their values at class
     * initialization, which no class file attribute records: they are compared as a program sees
     * them, DiSNI's read in an isolated class loader (only classes that initialize without libdisni).
     */
    @Test
    void initializedStaticValuesAreDisnis() throws Exception {
        String[] classes = {"com.ibm.disni.verbs.IbvMr", "com.ibm.disni.verbs.IbvSendWR", "com.ibm.disni.verbs.IbvWC",
            "com.ibm.disni.verbs.IbvContext", "com.ibm.disni.verbs.IbvQP", "com.ibm.disni.verbs.RdmaCm"};
        int compared = 0;
        try (URLClassLoader isolated = new URLClassLoader(new URL[] {referenceJar().toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            for (String name : classes) {
                Class<?> theirs = Class.forName(name, false, isolated);
                Class<?> ours = Class.forName(name, false, getClass().getClassLoader());
                for (Field f : theirs.getDeclaredFields()) {
                    int m = f.getModifiers();
                    if (!Modifier.isStatic(m) || !(Modifier.isPublic(m) || Modifier.isProtected(m)) || f.isEnumConstant()) {
                        continue;
                    }
                    f.setAccessible(true);
                    Field mine = ours.getDeclaredField(f.getName());
                    mine.setAccessible(true);
                    assertEquals(f.get(null), mine.get(null), name + "." + f.getName());
                    compared++;
                }
            }
        }
        assertTrue(compared >= 30, "compared " + compared + " static values");
    }

    @Test
    void enumValuesMatchOfedNumbers() {
        assertEquals(128, com.ibm.disni.verbs.IbvWC.IbvWcOpcode.IBV_WC_RECV.getOpcode());
        assertEquals(com.ibm.disni.verbs.IbvWC.IbvWcOpcode.IBV_WC_RECV_RDMA_WITH_IMM,
                com.ibm.disni.verbs.IbvWC.IbvWcOpcode.valueOf(129));
        assertEquals(com.ibm.disni.verbs.IbvWC.IbvWcStatus.IBV_WC_WR_FLUSH_ERR,
                com.ibm.disni.verbs.IbvWC.IbvWcStatus.valueOf(5));
        assertEquals(4, com.ibm.disni.verbs.IbvSendWR.IbvWrOcode.IBV_WR_RDMA_READ.ordinal());
        assertEquals(9, com.ibm.disni.verbs.RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED.ordinal());
    }
}

package org.jwarp.disni;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.ConstantValueAttribute;
import java.lang.classfile.attribute.ExceptionsAttribute;
import java.lang.classfile.attribute.SignatureAttribute;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.reflect.AccessFlag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The public API of class files as lines of text, read with {@code java.lang.classfile}: per public
 * class its kind, supertypes and generic signature; per public or protected field and method its
 * modifiers, descriptor, generic signature, thrown exceptions and constant value; enum constants in
 * order. Two surfaces are equal exactly when a program compiled against one links and behaves the
 * same against the other as far as signatures go.
 */
final class ApiSurface {
    /** The packages of DiSNI's API; {@code com.ibm.disni.verbs.impl} is its native provider, not API. */
    static boolean inApi(String internalName) {
        return internalName.startsWith("com/ibm/disni/") && !internalName.startsWith("com/ibm/disni/verbs/impl/")
                && !internalName.startsWith("com/ibm/disni/examples/") && !internalName.startsWith("com/ibm/disni/benchmarks/");
    }

    private static final int CLASS_FLAGS = ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_ABSTRACT
            | ClassFile.ACC_INTERFACE | ClassFile.ACC_ENUM | ClassFile.ACC_ANNOTATION;
    private static final int MEMBER_FLAGS = ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED | ClassFile.ACC_STATIC
            | ClassFile.ACC_FINAL | ClassFile.ACC_ABSTRACT | ClassFile.ACC_VOLATILE | ClassFile.ACC_TRANSIENT
            | ClassFile.ACC_ENUM;
    private static final int METHOD_FLAGS = ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED | ClassFile.ACC_STATIC
            | ClassFile.ACC_FINAL | ClassFile.ACC_ABSTRACT | ClassFile.ACC_BRIDGE;

    private ApiSurface() {
    }

    /** Class name to its API lines, for the public API classes in {@code jar}. */
    static Map<String, List<String>> ofJar(Path jar) throws IOException {
        Map<String, List<String>> out = new TreeMap<>();
        try (ZipFile z = new ZipFile(jar.toFile())) {
            for (var e : java.util.Collections.list(z.entries())) {
                if (e.getName().endsWith(".class") && inApi(e.getName())) {
                    try (InputStream in = z.getInputStream(e)) {
                        add(out, in.readAllBytes());
                    }
                }
            }
        }
        return out;
    }

    /** As {@link #ofJar} for a directory of class files. */
    static Map<String, List<String>> ofDirectory(Path dir) throws IOException {
        Map<String, List<String>> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String rel = dir.relativize(p).toString().replace('\\', '/');
                if (rel.endsWith(".class") && inApi(rel)) {
                    add(out, Files.readAllBytes(p));
                }
            }
        }
        return out;
    }

    private static void add(Map<String, List<String>> out, byte[] bytes) {
        ClassModel cm = ClassFile.of().parse(bytes);
        if (!cm.flags().has(AccessFlag.PUBLIC)) {
            return;
        }
        List<String> lines = new ArrayList<>();
        lines.add("class flags=" + Integer.toHexString(cm.flags().flagsMask() & CLASS_FLAGS)
                + " super=" + cm.superclass().map(ClassEntry::asInternalName).orElse("-")
                + " interfaces=" + cm.interfaces().stream().map(ClassEntry::asInternalName).toList()
                + " signature=" + signature(cm.findAttribute(Attributes.signature())));
        TreeSet<String> members = new TreeSet<>();
        List<String> enumConstants = new ArrayList<>();
        for (FieldModel f : cm.fields()) {
            int flags = f.flags().flagsMask();
            if ((flags & (ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED)) == 0) {
                continue;
            }
            if ((flags & ClassFile.ACC_ENUM) != 0) {
                enumConstants.add(f.fieldName().stringValue());
            }
            members.add("field " + f.fieldName().stringValue() + " " + f.fieldType().stringValue()
                    + " flags=" + Integer.toHexString(flags & MEMBER_FLAGS)
                    + " signature=" + signature(f.findAttribute(Attributes.signature()))
                    + " value=" + f.findAttribute(Attributes.constantValue())
                            .map(ConstantValueAttribute::constant).map(c -> String.valueOf(c.constantValue())).orElse("-"));
        }
        for (MethodModel m : cm.methods()) {
            int flags = m.flags().flagsMask();
            if ((flags & (ClassFile.ACC_PUBLIC | ClassFile.ACC_PROTECTED)) == 0) {
                continue;
            }
            members.add("method " + m.methodName().stringValue() + m.methodType().stringValue()
                    + " flags=" + Integer.toHexString(flags & METHOD_FLAGS)
                    + " signature=" + signature(m.findAttribute(Attributes.signature()))
                    + " throws=" + m.findAttribute(Attributes.exceptions()).map(ExceptionsAttribute::exceptions)
                            .map(l -> l.stream().map(ClassEntry::asInternalName).sorted().toList().toString()).orElse("[]"));
        }
        lines.addAll(members);
        if (!enumConstants.isEmpty()) {
            lines.add("enum constants " + enumConstants);
        }
        out.put(cm.thisClass().asInternalName(), lines);
    }

    private static String signature(java.util.Optional<SignatureAttribute> s) {
        return s.map(a -> a.signature().stringValue()).orElse("-");
    }
}

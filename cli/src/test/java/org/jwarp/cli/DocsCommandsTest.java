package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The docs check: every command that README.md and the pages under {@code docs/} show — in code
 * blocks, or inline as {@code ./jwarp ...} — is parsed by the real command line, so no page names
 * an option, a value or a subcommand that does not exist. Test runs it names ({@code -Dtest=X},
 * {@code -pl M}) must name existing tests and modules, the classes a {@code java} line starts must
 * exist, and a Maven {@code goal@execution} must be one of the parent pom's executions. Running the commands is left to the tests of each command; this check keeps the
 * pages from drifting from the code.
 */
class DocsCommandsTest {

    private static final Path ROOT = Path.of("..");
    /** An inline code span that is a jwarp command line. */
    private static final Pattern INLINE = Pattern.compile("`(\\./jwarp [^`]+)`");
    /** A java launch line's main class or JMH benchmark name. */
    private static final Pattern JAVA_CLASS = Pattern.compile("\\b(org\\.jwarp\\.[a-zA-Z0-9_.]+)");

    @Test
    void everyDocumentedCommandParses() throws IOException {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Path page : pages()) {
            for (DocCommand c : commands(page)) {
                String problem = check(c.line());
                checked++;
                if (problem != null) {
                    failures.add(ROOT.relativize(page) + ":" + c.lineNumber() + ": " + c.line() + "\n    -> " + problem);
                }
            }
        }
        assertTrue(checked > 40, "the docs check found only " + checked + " commands: is the extraction broken?");
        assertTrue(failures.isEmpty(), failures.size() + " documented command(s) do not match the code:\n"
                + String.join("\n", failures));
    }

    @Test
    void everyPageLinkedFromTheReadmeExists() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Matcher m = Pattern.compile("\\]\\((docs/[^)#]+)").matcher(readme);
        int links = 0;
        while (m.find()) {
            links++;
            assertTrue(Files.isRegularFile(ROOT.resolve(m.group(1))), "README links to a missing page: " + m.group(1));
        }
        assertTrue(links >= 8, "README's documentation map links " + links + " pages");
        for (Path page : pages()) {
            Matcher local = Pattern.compile("\\]\\(([a-z0-9-]+\\.md)(#[^)]*)?\\)").matcher(Files.readString(page));
            while (local.find()) {
                assertTrue(Files.isRegularFile(page.resolveSibling(local.group(1))),
                        ROOT.relativize(page) + " links to a missing page: " + local.group(1));
            }
        }
    }

    /** README.md and every page under docs/. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    record DocCommand(int lineNumber, String line) {
    }

    /**
     * Command lines of a page: lines of indented or fenced (untyped, sh, bash) code blocks that run
     * {@code ./jwarp}, {@code jwarp}, {@code ./run-tests} or {@code java}, continuation lines joined,
     * comments and a trailing {@code &} removed; and inline {@code ./jwarp ...} spans of the prose.
     */
    static List<DocCommand> commands(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
        List<DocCommand> out = new ArrayList<>();
        boolean fenced = false;
        boolean shellFence = false;
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i);
            if (raw.startsWith("```")) {
                fenced = !fenced;
                String lang = raw.substring(3).trim();
                shellFence = fenced && (lang.isEmpty() || lang.equals("sh") || lang.equals("bash"));
                continue;
            }
            boolean code = (fenced && shellFence) || (!fenced && raw.startsWith("    ") && !raw.isBlank());
            if (code) {
                int first = i;
                StringBuilder joined = new StringBuilder(raw.strip());
                while (joined.toString().endsWith("\\") && i + 1 < lines.size()) {
                    joined.setLength(joined.length() - 1);
                    joined.append(' ').append(lines.get(++i).strip());
                }
                String line = withoutComment(joined.toString());
                if (line.matches("(\\./)?jwarp .*|\\./run-tests.*|java .*|mvn .*")) {
                    out.add(new DocCommand(first + 1, line));
                }
            } else if (!fenced) {
                Matcher m = INLINE.matcher(raw);
                while (m.find()) {
                    out.add(new DocCommand(i + 1, m.group(1)));
                }
            }
        }
        return out;
    }

    private static String withoutComment(String line) {
        Matcher comment = Pattern.compile("\\s#\\s").matcher(line);
        String s = comment.find() ? line.substring(0, comment.start()) : line;
        s = s.strip();
        if (s.endsWith("&")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s;
    }

    /** Null when the line matches the code, else what is wrong. */
    static String check(String line) throws IOException {
        List<String> words = List.of(line.split("\\s+"));
        String first = words.get(0);
        if (first.equals("./jwarp") || first.equals("jwarp")) {
            return parses(words.subList(1, words.size()));
        }
        if (first.equals("./run-tests")) {
            return runTestsNames(words);
        }
        if (first.equals("mvn")) {
            return mavenExecutions(line);
        }
        return javaClasses(line);
    }

    private static String parses(List<String> args) {
        try {
            CommandLine.ParseResult result = JwarpCommand.newCommandLine().parseArgs(args.toArray(String[]::new));
            // a command run inside a testbed host: `testbed exec A -- jwarp ...`
            int dashes = args.indexOf("--");
            if (dashes >= 0 && dashes + 1 < args.size() && args.get(dashes + 1).equals("jwarp")) {
                return parses(args.subList(dashes + 2, args.size()));
            }
            return result == null ? "no parse result" : null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
    }

    private static String runTestsNames(List<String> words) throws IOException {
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (w.equals("-pl") && i + 1 < words.size()) {
                for (String module : words.get(i + 1).split(",")) {
                    if (!Files.isRegularFile(ROOT.resolve(module).resolve("pom.xml"))) {
                        return "no module " + module;
                    }
                }
            }
            if (w.startsWith("-Dtest=")) {
                for (String test : w.substring("-Dtest=".length()).split(",")) {
                    if (!sourceExists(test + ".java", "test")) {
                        return "no test class " + test;
                    }
                }
            }
        }
        return null;
    }

    /** A {@code goal@execution} a page names must be an execution of the parent pom. */
    private static String mavenExecutions(String line) throws IOException {
        Matcher m = Pattern.compile("[\\w-]+:[\\w-]+@([\\w-]+)").matcher(line);
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        while (m.find()) {
            if (!pom.contains("<id>" + m.group(1) + "</id>")) {
                return "the parent pom has no execution " + m.group(1);
            }
        }
        return null;
    }

    private static String javaClasses(String line) throws IOException {
        Matcher m = JAVA_CLASS.matcher(line);
        while (m.find()) {
            String path = m.group(1).replace('.', '/') + ".java";
            if (!sourceExists(path, "main") && !sourceExists(path, "test")) {
                return "no class " + m.group(1);
            }
        }
        Matcher jmh = Pattern.compile("jwarp-jmh\\.jar (\\w+Benchmark)").matcher(line);
        if (jmh.find() && !sourceExists(jmh.group(1) + ".java", "main")) {
            return "no benchmark " + jmh.group(1);
        }
        return null;
    }

    /** Whether a source file whose path ends with {@code suffix} exists under some module's src/KIND. */
    private static boolean sourceExists(String suffix, String kind) throws IOException {
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path module : modules.filter(Files::isDirectory).toList()) {
                Path src = module.resolve("src").resolve(kind);
                if (!Files.isDirectory(src)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(src)) {
                    if (files.anyMatch(f -> f.toString().endsWith("/" + suffix))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}

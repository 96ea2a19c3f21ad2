package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class JwarpCommandTest {

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cl = JwarpCommand.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void withoutArgumentsPrintsHelpAndAPassingSelfCheck() {
        Run r = run();
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Usage: jwarp"), r.out());
        assertTrue(r.out().contains("ok   RFC 5044 §4.4 Figure 6"), r.out());
        assertTrue(r.out().matches("(?s).*\\n\\d+ passed, 0 failed\\R.*"), r.out());
        assertFalse(r.out().contains("FAIL"));
    }

    /**
     * picocli formats help texts with {@code String.format}: a bare '%' in one makes it print a
     * warning beside the help and show the text unformatted.
     */
    @Test
    void everyHelpTextOfEveryCommandFormats() {
        int[] texts = {0};
        checkHelpTexts(JwarpCommand.newCommandLine(), texts);
        assertTrue(texts[0] > 40, "help texts checked: " + texts[0]);
    }

    private static void checkHelpTexts(CommandLine cl, int[] texts) {
        CommandLine.Model.CommandSpec spec = cl.getCommandSpec();
        // the command's own texts: picocli hands an option's description back formatted already
        CommandLine.Model.UsageMessageSpec usage = spec.usageMessage();
        java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(usage.description()));
        all.addAll(java.util.List.of(usage.header()));
        all.addAll(java.util.List.of(usage.footer()));
        for (String text : all) {
            try {
                String.format(text);
            } catch (java.util.IllegalFormatException e) {
                throw new AssertionError("'" + spec.qualifiedName() + "': a help text does not format (escape '%' as"
                        + " '%%'): " + e + ": " + text);
            }
            texts[0]++;
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            checkHelpTexts(sub, texts);
        }
    }

    @Test
    void selfcheckSubcommand() {
        Run r = run("selfcheck");
        assertEquals(0, r.exit());
        assertFalse(r.out().contains("Usage"));
        assertTrue(r.out().contains("ok   CRC32c RFC 3720 B.4: iSCSI SCSI Read(10) PDU"));
    }

    @Test
    void anUnknownOptionIsOneLineWithoutAStackTrace() {
        Run r = run("--frobnicate");
        assertEquals(2, r.exit());
        assertEquals("jwarp: Unknown option: '--frobnicate' (see 'jwarp --help')", r.err().strip());
        assertEquals(1, r.err().strip().lines().count());
        assertFalse(r.err().contains("Exception"));
    }

    @Test
    void aGroupWithoutItsSubcommandSaysSoAndFails() {
        for (String group : new String[] {"experiment", "degen", "testbed", "rss"}) {
            Run r = run(group);
            assertEquals(2, r.exit(), group);
            assertEquals("jwarp " + group + ": give a subcommand (listed below)", r.err().lines().findFirst().orElseThrow());
            assertTrue(r.err().contains("Usage: jwarp " + group), r.err());
            assertEquals("", r.out(), group);
        }
    }

    @Test
    void anUnknownSubcommandIsOneLine() {
        Run r = run("selfcheck", "extra");
        assertEquals(2, r.exit());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("jwarp: "), r.err());
    }
}

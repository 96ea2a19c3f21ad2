package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.jwarp.cli.PerfErrorsTest.assertLine;

import org.junit.jupiter.api.Test;
import org.jwarp.ibverbs.IbverbsConfig;
import org.jwarp.verbs.DeviceConfig;
import picocli.CommandLine;

/**
 * {@code --provider} and {@code --ib-dev} (the perf tests' {@code -d}) on the commands that open a
 * device: the configuration they build, and each refusal in one line. This host has no RDMA, so
 * {@code --provider ibverbs} ends with the provider's own line.
 */
class ProviderOptionsTest {

    private static final String NO_RDMA = "jwarp: ibverbs: no RDMA device on this host";

    /** The device configuration rping builds from {@code args}. */
    private static DeviceConfig config(String... args) {
        RpingCommand rping = new RpingCommand();
        CommandLine cl = new CommandLine(rping);
        cl.parseArgs(args);
        return rping.device.toConfig(rping.spec);
    }

    @Test
    void theProviderAndDeviceGoIntoTheDeviceConfiguration() {
        DeviceConfig ibverbs = config("-c", "-a", "10.0.0.2", "--provider", "ibverbs", "--ib-dev", "siw0");
        assertEquals("ibverbs", ibverbs.providerName());
        assertEquals(new IbverbsConfig("siw0"), ibverbs.providerConfig());
        DeviceConfig first = config("-c", "-a", "10.0.0.2", "--provider", "ibverbs");
        assertNull(((IbverbsConfig) first.providerConfig()).deviceName());
        assertEquals("jwarp", config("-c", "-a", "10.0.0.2").providerName());
        assertEquals("jwarp", config("-c", "-a", "10.0.0.2", "--provider", "jwarp").providerName());
    }

    @Test
    void anUnknownProviderIsNamedWithTheProvidersFound() {
        assertLine(PerfRun.of("write-lat", "--provider", "rxe", "10.0.0.2"), 2,
                "jwarp: unknown --provider 'rxe': the providers found are jwarp, ibverbs (see 'jwarp write-lat --help')");
        assertLine(PerfRun.of("rping", "-c", "-a", "10.0.0.2", "--provider", "x"), 2,
                "jwarp: unknown --provider 'x': the providers found are jwarp, ibverbs (see 'jwarp rping --help')");
    }

    @Test
    void engineOptionsAreRefusedWithAnotherProvider() {
        for (String[] o : new String[][] {{"--threading", "dedicated"}, {"--io", "nio"}, {"--crc", "off"},
                {"--engine-threads", "1"}, {"--mpa-rev", "1"}, {"--peer-timeout", "10"}}) {
            assertLine(PerfRun.of("write-bw", "--provider", "ibverbs", o[0], o[1], "10.0.0.2"), 2, "jwarp: " + o[0]
                    + " is a setting of jwarp's engine, not of --provider ibverbs (the kernel's RDMA stack negotiates MPA"
                    + " and runs the connection itself): drop " + o[0] + " (see 'jwarp write-bw --help')");
        }
        assertLine(PerfRun.of("cmatose", "--provider", "ibverbs", "--idle", "spin"), 2, "jwarp: --idle is a setting of"
                + " jwarp's engine, not of --provider ibverbs (the kernel's RDMA stack negotiates MPA and runs the"
                + " connection itself): drop --idle (see 'jwarp cmatose --help')");
    }

    @Test
    void aDeviceNameNeedsTheIbverbsProvider() {
        assertLine(PerfRun.of("read-lat", "-d", "siw0", "10.0.0.2"), 2,
                "jwarp: --ib-dev names a kernel RDMA device: it needs --provider ibverbs (see 'jwarp read-lat --help')");
        assertLine(PerfRun.of("rdma-client", "-s", "10.0.0.2", "--ib-dev", "siw0"), 2,
                "jwarp: --ib-dev names a kernel RDMA device: it needs --provider ibverbs (see 'jwarp rdma-client --help')");
    }

    @Test
    void withoutRdmaTheIbverbsProviderSaysSoInOneLine() {
        for (String[] args : new String[][] {{"write-lat", "--provider", "ibverbs", "-d", "siw0", "-n", "5", "10.0.0.2"},
                {"rping", "-c", "-a", "10.0.0.2", "-C", "1", "--provider", "ibverbs"},
                {"rdma-client", "-s", "10.0.0.2", "--provider", "ibverbs"}}) {
            PerfRun r = PerfRun.of(args);
            assertTrue(r.exit() != 0 && r.err().strip().startsWith(NO_RDMA) && r.err().strip().lines().count() == 1,
                    String.join(" ", args) + ": " + r.exit() + " " + r.err());
        }
    }

    @Test
    void demoRefusesAnotherProvider() {
        assertLine(PerfRun.of("demo", "--provider", "ibverbs"), 2, "jwarp: demo measures jwarp's engine against sockets,"
                + " both ends in this process on 127.0.0.1: drop --provider (the perf tests take --provider ibverbs"
                + " against a peer) (see 'jwarp demo --help')");
    }
}

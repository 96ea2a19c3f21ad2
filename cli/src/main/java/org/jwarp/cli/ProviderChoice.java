package org.jwarp.cli;

import java.util.ArrayList;
import java.util.List;
import org.jwarp.ibverbs.IbverbsConfig;
import org.jwarp.ibverbs.IbverbsProvider;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.spi.RdmaProvider;
import org.jwarp.verbs.spi.RdmaProviders;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code --provider} and {@code --ib-dev}: which verbs provider opens a command's device. The jwarp
 * engine takes every device option; another provider (ibverbs: the kernel's RDMA stack) takes only
 * its device name, and an engine or MPA option given with it is refused in one line rather than
 * ignored (the kernel negotiates MPA with its own settings, and has no engine threads).
 *
 * @param name       the provider's name
 * @param deviceName the kernel device to open ({@code --ib-dev}), or {@code null} for the first
 */
record ProviderChoice(String name, String deviceName) {

    /** The device options that set jwarp's engine or its MPA negotiation, not any other provider's. */
    static final List<String> ENGINE_OPTIONS = List.of("--threading", "--engine-threads", "--idle", "--crc", "--markers",
            "--mpa-rev", "--p2p", "--rtr", "--steering", "--rss-table", "--rss-key", "--rebalance", "--rebalance-period",
            "--rebalance-threshold", "--numa", "--io", "--peer-timeout");

    /** {@return whether this is jwarp's own engine} */
    boolean engine() {
        return RdmaProviders.DEFAULT_PROVIDER_NAME.equals(name);
    }

    /**
     * The choice {@code --provider} and {@code --ib-dev} make, checked against the providers on
     * the class path and the other device options given.
     *
     * @throws ParameterException in one line: an unknown provider (naming those found), a device
     *                            name for the engine, or an engine option for another provider
     */
    static ProviderChoice of(CommandSpec spec, String provider, String ibDev) {
        String name = provider == null ? RdmaProviders.DEFAULT_PROVIDER_NAME : provider.strip();
        List<String> found = new ArrayList<>();
        for (RdmaProvider p : RdmaProviders.all(ProviderChoice.class.getClassLoader())) {
            found.add(p.name());
        }
        if (!found.contains(name)) {
            throw bad(spec, "unknown --provider '" + provider + "': the providers found are " + String.join(", ", found));
        }
        if (ibDev != null && ibDev.isBlank()) {
            throw bad(spec, "--ib-dev needs a device name (ibv_devices lists them)");
        }
        ProviderChoice choice = new ProviderChoice(name, ibDev == null ? null : ibDev.strip());
        if (choice.engine() && ibDev != null) {
            throw bad(spec, "--ib-dev names a kernel RDMA device: it needs --provider " + IbverbsProvider.NAME);
        }
        if (!choice.engine()) {
            for (String o : ENGINE_OPTIONS) {
                if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                    throw bad(spec, o + " is a setting of jwarp's engine, not of --provider " + name
                            + " (the kernel's RDMA stack negotiates MPA and runs the connection itself): drop " + o);
                }
            }
        }
        return choice;
    }

    /** {@return the device configuration of a provider other than the engine: its name, and the device} */
    DeviceConfig config(CommandSpec spec) {
        if (!IbverbsProvider.NAME.equals(name)) {
            return DeviceConfig.builder().providerName(name).build();
        }
        return DeviceConfig.builder().provider(IbverbsConfig.device(deviceName)).build();
    }

    private static ParameterException bad(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}

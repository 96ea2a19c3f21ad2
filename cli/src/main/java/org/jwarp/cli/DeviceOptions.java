package org.jwarp.cli;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jwarp.verbs.DeviceConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The MPA connection-setup choices of a jwarp device ({@link DeviceConfig}), as options: what a
 * peer such as siw or a hardware RNIC must agree to.
 */
final class DeviceOptions {

    @Option(names = "--mpa-rev", paramLabel = "1|2", defaultValue = "2",
            description = "MPA revision: 2 = RFC 6581 enhanced setup with IRD/ORD (default), 1 = RFC 5044.")
    int mpaRevision;

    @Option(names = "--p2p", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "As initiator, ask for RFC 6581 peer-to-peer mode and send an RTR (default: on; needs --mpa-rev 2).")
    boolean peerToPeer;

    @Option(names = "--rtr", paramLabel = "KIND,...", split = ",", defaultValue = "write,read",
            description = "RTR messages offered as initiator and accepted as responder: write, read, send (default: ${DEFAULT-VALUE}).")
    List<String> rtr;

    @Option(names = "--crc", paramLabel = "POLICY", defaultValue = "preferred",
            description = "MPA CRC32c: preferred (send C=1; default), required (refuse a peer without it), off (send C=0; CRC runs only if the peer asks).")
    String crc;

    @Option(names = "--markers", description = "Ask the peer for MPA markers (M=1). siw refuses this.")
    boolean markers;

    /** The device configuration these options describe, on this machine's defaults otherwise. */
    DeviceConfig toConfig(CommandSpec spec) {
        DeviceConfig.CrcPolicy crcPolicy = switch (crc.toLowerCase(Locale.ROOT)) {
            case "preferred", "on" -> DeviceConfig.CrcPolicy.PREFERRED;
            case "required" -> DeviceConfig.CrcPolicy.REQUIRED;
            case "off" -> DeviceConfig.CrcPolicy.OFF;
            default -> throw new ParameterException(spec.commandLine(),
                    "--crc must be preferred, required or off, not '" + crc + "'");
        };
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new ParameterException(spec.commandLine(), "--mpa-rev must be 1 or 2, not " + mpaRevision);
        }
        Set<DeviceConfig.RtrKind> kinds = EnumSet.noneOf(DeviceConfig.RtrKind.class);
        for (String k : rtr) {
            try {
                kinds.add(DeviceConfig.RtrKind.valueOf(k.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--rtr takes write, read or send, not '" + k + "'");
            }
        }
        boolean p2p = peerToPeer && mpaRevision == 2;
        if (p2p && kinds.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--p2p needs at least one --rtr kind");
        }
        try {
            return DeviceConfig.builder().mpaRevision(mpaRevision).peerToPeer(p2p).rtrKinds(kinds).crcPolicy(crcPolicy)
                    .markerPolicy(markers ? DeviceConfig.MarkerPolicy.REQUEST : DeviceConfig.MarkerPolicy.NEVER_REQUEST)
                    .build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}

package org.jwarp.cli;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Option checks the small tools share: each failure is one line naming the option. */
final class Validate {

    private Validate() {
    }

    /** A port; a server may take 0 (any free port, which it prints). */
    static void port(CommandSpec spec, String option, int port, boolean server) {
        int min = server ? 0 : 1;
        if (port < min || port > 65535) {
            throw new ParameterException(spec.commandLine(), option + " must be a port in " + min + "..65535, not " + port);
        }
    }

    static void range(CommandSpec spec, String option, int value, int min, int max) {
        if (value < min || value > max) {
            throw new ParameterException(spec.commandLine(), option + " must be in " + min + ".." + max + ", not " + value);
        }
    }

    static InetSocketAddress address(CommandSpec spec, String option, String host, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), option + ": cannot resolve '" + host + "'");
        }
    }
}

package org.jwarp.cli;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jwarp.bench.run.Placement;
import org.jwarp.engine.affinity.Cpus;
import org.jwarp.engine.affinity.ThreadAffinity;
import picocli.CommandLine;

/**
 * Where a perftest-style test's threads run: the CPUs of {@code --pin}, checked against what this
 * process may use, or the places {@code --threading toad} chooses itself, and whether two threads
 * share a CPU. Each bad value is one line naming the option and the fix.
 */
final class PerfPlacement {

    private final CommandLine commandLine;

    PerfPlacement(CommandLine commandLine) {
        this.commandLine = commandLine;
    }

    /** {@code --pin CPUS}: the CPUs in order, each one this process may use; empty without it. */
    List<Integer> pinList(String pin) {
        if (pin == null) {
            return List.of();
        }
        List<Integer> out = new ArrayList<>();
        for (String item : pin.split(",", -1)) {
            Cpus c;
            try {
                c = Cpus.parse(item);
            } catch (IllegalArgumentException e) {
                throw bad("--pin '" + pin + "' is not a CPU list: give CPU numbers and ranges, e.g. 0,1 or 0-3");
            }
            for (int id : c.toArray()) {
                out.add(id);
            }
        }
        Optional<Cpus> allowed = ThreadAffinity.getAffinity();
        if (allowed.isPresent()) {
            for (int cpu : out) {
                if (!allowed.get().contains(cpu)) {
                    throw bad("--pin: CPU " + cpu + " is not available to this process (it may use "
                            + allowed.get() + ")");
                }
            }
        } else if (!ThreadAffinity.isSupported()) {
            throw bad("--pin is not possible here: " + ThreadAffinity.unsupportedReason());
        }
        return out;
    }

    /** {@code --threading toad}: engine and application threads on CPUs of their own ({@link Placement#toad}). */
    Placement toad(String pin, boolean loopback, boolean server, int engineThreads) {
        if (pin != null) {
            throw bad("--threading toad places every thread itself (the engine on a CPU of its own, the application"
                    + " on another): leave out --pin, or use --threading dedicated with --pin");
        }
        if (!ThreadAffinity.isSupported()) {
            throw bad("--threading toad pins threads, which is not possible here: " + ThreadAffinity.unsupportedReason());
        }
        try {
            return Placement.toad(ThreadAffinity.getAffinity().map(Cpus::toList).orElse(List.of()), loopback,
                    server, engineThreads);
        } catch (IllegalArgumentException e) {
            throw bad("--threading toad: " + e.getMessage() + "; use --threading hybrid");
        }
    }

    /** {@return whether two of the placed threads are pinned to the same CPU} */
    static boolean sharesCpu(Placement p) {
        Set<Integer> seen = new HashSet<>();
        List<Integer> all = new ArrayList<>();
        if (p.clientApp() >= 0) {
            all.add(p.clientApp());
        }
        if (p.serverApp() >= 0) {
            all.add(p.serverApp());
        }
        all.addAll(p.clientEngine());
        all.addAll(p.serverEngine());
        for (int c : all) {
            if (!seen.add(c)) {
                return true;
            }
        }
        return false;
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(commandLine, message);
    }
}

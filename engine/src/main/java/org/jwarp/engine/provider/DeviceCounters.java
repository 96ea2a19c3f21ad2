package org.jwarp.engine.provider;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.jwarp.engine.counters.CounterFile;
import org.jwarp.engine.counters.CounterFileReader;
import org.jwarp.engine.counters.CounterFileWriter;
import org.jwarp.engine.counters.CounterPublisher;
import org.jwarp.engine.counters.CounterScopes;
import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.engine.runtime.EngineThreads;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;

/**
 * A device's counters as {@code jwarp stat} and the API show them: the device total, each engine
 * thread's group, the connection manager's, and each queue pair's; and their publication to a file
 * other processes read (docs/design.md rule 9). Setup path: building the groups allocates.
 */
final class DeviceCounters {

    /**
     * What only an engine thread's group counts: the QPs it owns, its RSS entries, the moves to it,
     * its CPU time, the QPs it parked.
     */
    static final List<String> ENGINE_ONLY_NAMES = List.of(CounterNames.QPS, CounterNames.RSS_ENTRIES,
            CounterNames.RSS_MOVES_IN, CounterNames.CPU_NS, CounterNames.QPS_PARKED);
    /** An engine thread's group: its QPs' counters summed, then {@link #ENGINE_ONLY_NAMES}. */
    static final List<String> ENGINE_COUNTER_NAMES = engineCounterNames();

    private static List<String> engineCounterNames() {
        List<String> names = new ArrayList<>(JwarpQp.COUNTER_NAMES);
        names.add(EngineCounters.IDLE_PARKS);     // each park ends in a wake-up
        names.addAll(ENGINE_ONLY_NAMES);
        return List.copyOf(names);
    }

    private final JwarpDevice device;
    /** Clients a listener dropped to make room (silent under pressure, or the oldest at its bound). */
    private final AtomicLong setupsRefused = new AtomicLong();
    private CounterPublisher.Registration publication;

    DeviceCounters(JwarpDevice device) {
        this.device = device;
    }

    /** Starts publishing to the counters file; a device that cannot create it still works and says so in one line. */
    void publish() {
        Path dir = CounterFile.directory();
        if (dir == null) {
            return;
        }
        EngineThreads engines = device.engines();
        String label = JwarpProvider.NAME + " " + device.jwarpConfig().threadingMode().name().toLowerCase(Locale.ROOT)
                + (device.invokerMode() ? "" : " x" + engines.workers().length);
        try {
            CounterFileWriter w = CounterFileWriter.create(dir, ProcessHandle.current().pid(),
                    CounterFileReader.processStartMillis(), device.index(), label, CounterFile.periodMillis());
            publication = CounterPublisher.get().register(w, this::groups, label);
        } catch (IOException e) {
            System.err.println("jwarp: device " + device.index() + " does not publish its counters (" + e
                    + "); set -D" + CounterFile.DIRECTORY_PROPERTY + "=DIR to choose a writable directory");
        }
    }

    /** The publication, or null if the device does not publish one. */
    CounterPublisher.Registration publication() {
        return publication;
    }

    /** The counters file, or null if the device does not publish one. */
    Path file() {
        return publication == null ? null : publication.writer().path();
    }

    /** A listener dropped a client to make room. */
    void setupRefused() {
        setupsRefused.incrementAndGet();
    }

    /**
     * Every counter group, in the stable order {@code jwarp stat} shows: the device total, each
     * engine thread, the connection manager ({@code cm}), each queue pair (by QP number).
     */
    List<Counters> groups() {
        List<Counters> engines = engines();
        List<Counters> all = new ArrayList<>();
        all.add(Counters.sum(CounterScopes.DEVICE, engines));
        all.addAll(engines);
        CounterSet cmGroup = new CounterSet(CounterScopes.CM, List.of(CounterNames.SETUPS_REFUSED));
        cmGroup.add(0, setupsRefused.get());
        all.add(cmGroup);
        for (JwarpQp qp : device.openQps()) {
            all.add(qp.counters());
        }
        return all;
    }

    /**
     * Per engine thread: its doorbell figures (doorbells, wake-ups, parks) and the sums of the
     * standard counters of the QPs it carries and of those it carried that closed (FPDUs and bytes
     * in and out, Terminates, CRC errors).
     */
    List<Counters> engines() {
        List<Counters> out = new ArrayList<>();
        EngineThreads engines = device.engines();
        EngineWorker[] workers = engines.workers();
        List<JwarpQp> qps = device.openQps();
        for (int i = 0; i < workers.length; i++) {
            EngineWorker w = workers[i];
            String scope = CounterScopes.engine(i);
            List<Counters> parts = new ArrayList<>();
            parts.add(new CounterSet(scope, ENGINE_COUNTER_NAMES)); // the names of the sum
            parts.add(w.doorbell().counters(scope));
            parts.add(w.retired());
            int owned = 0;
            for (JwarpQp qp : qps) {
                if (qp.worker() == w) {
                    parts.add(qp.counters());
                    owned++;
                }
            }
            int qpsNow = owned;
            int engine = i;
            parts.add(Counters.view(scope, ENGINE_ONLY_NAMES, index -> switch (index) {
                case 0 -> qpsNow;
                case 1 -> engines.steering().entriesOf(engine);
                case 2 -> w.movesIn();
                case 3 -> engines.cpuNanos(engine);
                case 4 -> w.parkedCount();
                default -> throw new IndexOutOfBoundsException("engine counter index " + index);
            }));
            out.add(Counters.sum(scope, parts));
        }
        return out;
    }
}

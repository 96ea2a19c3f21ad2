package org.jwarp.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jwarp.engine.counters.CounterFileReader.Group;
import org.jwarp.engine.counters.CounterFileReader.Snapshot;

/**
 * One print of {@code jwarp stat --json}, schema {@link #SCHEMA} (docs/json.md): processes by pid,
 * their devices, each device's counter groups by scope.
 */
record StatDocument(String schema, long time, List<Process> processes) {

    static final String SCHEMA = "jwarp-stat/1";

    /** A process and the devices it publishes. */
    record Process(long pid, long startMillis, List<Device> devices) {
    }

    /** A device's last publication: its counters by scope, then name (-1: not known). */
    record Device(int device, String label, long publishCount, long publishedAtMillis, boolean truncated,
                  Map<String, Map<String, Long>> groups) {
    }

    /** The snapshots (sorted by pid), read at {@code nowMillis}. */
    static StatDocument of(List<Snapshot> snapshots, long nowMillis) {
        List<Process> processes = new ArrayList<>();
        for (Snapshot s : snapshots) {
            if (processes.isEmpty() || processes.getLast().pid() != s.pid()) {
                processes.add(new Process(s.pid(), s.startMillis(), new ArrayList<>()));
            }
            Map<String, Map<String, Long>> groups = new LinkedHashMap<>();
            for (Group g : s.groups()) {
                Map<String, Long> values = new LinkedHashMap<>();
                for (int i = 0; i < g.names().size(); i++) {
                    values.put(g.names().get(i), g.values()[i]);
                }
                groups.put(g.scope(), values);
            }
            processes.getLast().devices().add(new Device(s.device(), s.label(), s.publishCount(),
                    s.publishedAtMillis(), s.truncated(), groups));
        }
        return new StatDocument(SCHEMA, nowMillis, processes);
    }
}

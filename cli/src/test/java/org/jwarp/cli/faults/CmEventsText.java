package org.jwarp.cli.faults;

import org.jwarp.verbs.CmEvent;

/** A CM event in a table cell: its kind, and for a disconnection its cause. */
final class CmEventsText {

    private CmEventsText() {
    }

    static String of(CmEvent e) {
        if (e instanceof CmEvent.Disconnected d) {
            return "DISCONNECTED (" + d.cause().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ")";
        }
        return e.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT);
    }
}

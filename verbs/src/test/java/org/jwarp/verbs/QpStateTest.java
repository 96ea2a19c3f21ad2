package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QpStateTest {

    /** The expected table, written out independently of the implementation (kernel ib_modify_qp_is_ok). */
    private static final Map<QpState, Set<QpState>> LEGAL = Map.of(
            QpState.RESET, EnumSet.of(QpState.RESET, QpState.INIT, QpState.ERROR),
            QpState.INIT, EnumSet.of(QpState.RESET, QpState.INIT, QpState.RTR, QpState.ERROR),
            QpState.RTR, EnumSet.of(QpState.RESET, QpState.RTS, QpState.ERROR),
            QpState.RTS, EnumSet.of(QpState.RESET, QpState.RTS, QpState.ERROR),
            QpState.ERROR, EnumSet.of(QpState.RESET, QpState.ERROR));

    @Test
    void everyPairMatchesTheTable() {
        int legal = 0;
        for (QpState from : QpState.values()) {
            for (QpState to : QpState.values()) {
                boolean expected = LEGAL.get(from).contains(to);
                assertEquals(expected, from.canTransitionTo(to), from + " -> " + to);
                if (expected) {
                    assertEquals(to, from.checkTransitionTo(to));
                    legal++;
                } else {
                    IllegalStateException e = assertThrows(IllegalStateException.class, () -> from.checkTransitionTo(to));
                    assertTrue(e.getMessage().contains(from + " -> " + to), e.getMessage());
                    assertTrue(e.getMessage().contains("legal from " + from), e.getMessage());
                }
            }
        }
        assertEquals(15, legal);
    }

    @Test
    void theConnectionPathIsLegalAndSkippingStepsIsNot() {
        assertTrue(QpState.RESET.canTransitionTo(QpState.INIT));
        assertTrue(QpState.INIT.canTransitionTo(QpState.RTR));
        assertTrue(QpState.RTR.canTransitionTo(QpState.RTS));
        assertFalse(QpState.RESET.canTransitionTo(QpState.RTS));
        assertFalse(QpState.INIT.canTransitionTo(QpState.RTS));
        assertFalse(QpState.ERROR.canTransitionTo(QpState.INIT));
        assertFalse(QpState.RTS.canTransitionTo(QpState.INIT));
    }

    @Test
    void libibverbsValuesAndPostRules() {
        assertEquals(0, QpState.RESET.ibvValue());
        assertEquals(1, QpState.INIT.ibvValue());
        assertEquals(2, QpState.RTR.ibvValue());
        assertEquals(3, QpState.RTS.ibvValue());
        assertEquals(6, QpState.ERROR.ibvValue());
        assertEquals(EnumSet.of(QpState.RTS, QpState.ERROR), filter(true));
        assertEquals(EnumSet.of(QpState.INIT, QpState.RTR, QpState.RTS, QpState.ERROR), filter(false));
    }

    private static Set<QpState> filter(boolean send) {
        Set<QpState> s = EnumSet.noneOf(QpState.class);
        for (QpState q : QpState.values()) {
            if (send ? q.acceptsSend() : q.acceptsRecv()) {
                s.add(q);
            }
        }
        return s;
    }
}

package org.jwarp.verbs;

import java.time.Duration;

/**
 * Timers of MPA connection setup (RFC 5044 §7.1.2 rule 6: startup frames and ULP progress should be
 * guarded by timeouts so that a silent peer cannot hold resources). When one expires the
 * connection is closed and its resources released; the application sees
 * {@link CmEvent.ConnectError} (active side) or nothing (passive side, before a request was
 * delivered) and a counter.
 *
 * @param awaitRequest  responder: from TCP accept until the whole MPA Request has arrived (siw: 5 s)
 * @param awaitReply    initiator: from sending the Request until the whole Reply has arrived (siw: 10 s)
 * @param awaitRtr      responder in peer-to-peer mode: from sending the Reply until the RTR (or, in
 *                      client/server mode, the first FPDU) arrives; siw has no such timer
 * @param awaitDecision responder: time the application has to {@code accept} or {@code reject} a
 *                      {@link ConnectionRequest}; when it runs out the provider rejects it
 */
public record MpaTimeouts(Duration awaitRequest, Duration awaitReply, Duration awaitRtr, Duration awaitDecision) {

    /** 5 s, 10 s, 10 s and 10 s. */
    public static final MpaTimeouts DEFAULT = new MpaTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10),
            Duration.ofSeconds(10), Duration.ofSeconds(10));

    /**
     * Validates the timers.
     *
     * @throws IllegalArgumentException if a timer is null or not positive
     */
    public MpaTimeouts {
        check("awaitRequest", awaitRequest);
        check("awaitReply", awaitReply);
        check("awaitRtr", awaitRtr);
        check("awaitDecision", awaitDecision);
    }

    private static void check(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("MPA timeout " + name + " must be > 0: " + d);
        }
    }
}

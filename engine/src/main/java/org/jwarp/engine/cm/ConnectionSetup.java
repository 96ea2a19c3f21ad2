package org.jwarp.engine.cm;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.engine.runtime.EngineScheduler;
import org.jwarp.stack.MpaHandshake;

/**
 * The setup of one connection in one role — the MPA exchange of RFC 5044 §7.1 and RFC 6581 over a
 * connected socket, and for the initiator the TCP connect before it — up to the moment the stream
 * runs ({@link Connection#enterRunning}) or the setup fails ({@link Connection#setupFailed}).
 * What the roles share is here; {@link InitiatorSetup} and {@link ResponderSetup} say what each
 * end means for its side, and which event announces a failure.
 */
public abstract sealed class ConnectionSetup permits InitiatorSetup, ResponderSetup {

    protected final Connection c;
    protected MpaHandshake handshake;

    /** The MPA exchange, once the connection is up (engine thread). */
    public MpaHandshake handshake() {
        return handshake;
    }
    /** The MPA frame being written, or null. */
    private ByteBuffer output;
    /** Bytes that followed the peer's MPA frame (its first FPDUs), for the stream; or null. */
    private byte[] leftover;

    ConnectionSetup(Connection c) {
        this.c = c;
    }

    /** The initiator's TCP connect step; see {@link InitiatorSetup}. */
    public int connectWork(long now) throws IOException {
        throw new IllegalStateException("a responder does not connect");
    }

    /** One step of the MPA exchange: write what is due, read what came, act on the handshake's phase. */
    public final int handshakeWork(long now) throws IOException {
        int work = writeOutput();
        ByteBuffer rx = c.rx().buffer();
        // read when the scheduler says, as a running stream is: on readiness among many connections
        int n = c.schedule().readable() ? c.socket().read(rx) : 0;
        if (n < 0 && peerCloseExpected()) {
            n = 0;
        }
        if (n < 0) {
            peerClosed();
            return 1;
        }
        if (n > 0) {
            received(n);
            long used = handshake.onBytes(c.rx().segment(), 0, n, now);
            if (used < n) {
                // the peer's first FPDUs, right behind its MPA frame
                leftover = c.rx().segment().asSlice(used, n - used).toArray(ValueLayout.JAVA_BYTE);
            }
            rx.clear();
            work++;
        }
        handshake.onTime(now);
        switch (handshake.phase()) {
            case AWAIT_DECISION -> work += awaitingDecision();
            case ESTABLISHED -> {
                work += writeOutput();
                if (outputDone()) {
                    replied();
                    byte[] first = leftover;
                    leftover = null;
                    c.enterRunning(handshake, first);
                    work++;
                }
            }
            case REJECTED -> {
                work += writeOutput();
                if (output == null) {
                    rejected();
                    work++;
                }
            }
            case FAILED -> {
                c.setupFailed(SetupFailure.of(handshake, failureReason(handshake.timedOut())));
                work++;
            }
            default -> {
                // still waiting
            }
        }
        return work;
    }

    /**
     * When this setup next needs a duty cycle that no socket readiness or command brings: the
     * handshake's timeout while it waits for the peer's frame or the application's decision
     * (RFC 5044 §7.1.2 rule 6); {@link EngineScheduler#POLL} while a frame is being written.
     */
    public long deadline() {
        if (output != null || handshake.output().length > 0) {
            return EngineScheduler.POLL;
        }
        return switch (handshake.phase()) {
            case AWAIT_REQUEST, AWAIT_REPLY -> handshake.deadline();
            case AWAIT_DECISION -> decisionDeadline();
            default -> EngineScheduler.POLL;
        };
    }

    /** The deadline while the handshake awaits the application's decision (responder). */
    long decisionDeadline() {
        return EngineScheduler.POLL;
    }

    /** Writes what the handshake wants sent (the Request or the Reply); 1 if anything went out. */
    final int writeOutput() throws IOException {
        if (output == null) {
            byte[] out = handshake.output();
            if (out.length == 0) {
                return 0;
            }
            handshake.outputWritten();
            output = ByteBuffer.wrap(out);
        }
        c.socket().write(output);
        if (!output.hasRemaining()) {
            output = null;
        }
        return 1;
    }

    /** Nothing of the handshake's output is left to write. */
    final boolean outputDone() {
        return output == null && handshake.output().length == 0;
    }

    /** The peer closed TCP: announces the failure (the role's words). */
    abstract void peerClosed();

    /** A responder that rejected expects the client to close on reading the Reject. */
    boolean peerCloseExpected() {
        return false;
    }

    /** {@code n} bytes arrived in the connection's receive buffer (before the handshake reads them). */
    void received(int n) {
        // only the responder looks
    }

    /** The handshake waits for the application's accept or reject (responder). */
    int awaitingDecision() {
        return 0;
    }

    /** The handshake's final frame was handed to TCP. */
    void replied() {
        // only the responder has someone waiting for it
    }

    /** The exchange ended in a rejection and its frame was written. */
    abstract void rejected();

    /** The reason a failed handshake gives, in the role's words. */
    abstract String failureReason(boolean timeout);

    /** Announces a failed setup with the role's one event; the socket is closed and the QP failed. */
    public abstract void announce(SetupFailure f, String peer, JwarpQp qp);

    /** The connection ended (closed, reset, the device closed): whoever waits on the setup learns why. */
    public void ended(String why) {
        // only the responder has someone waiting for it
    }

    /** Device close during the exchange: what the application asked to send still goes out. */
    public void shutdown() {
        // nothing pending on the initiator
    }

    /** A word on why a setup may have failed, for failure reasons; empty if none. */
    public String hint() {
        return "";
    }
}

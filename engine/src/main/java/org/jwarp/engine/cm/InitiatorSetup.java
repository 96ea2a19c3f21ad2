package org.jwarp.engine.cm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.stack.MpaHandshake;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.wire.mpa.MpaFrame;

/**
 * The active side's setup (rdma_cm's {@code rdma_connect}): TCP connect to the target, then the
 * MPA Request and the wait for the Reply. Every failure reaches the application as one event on
 * the connecting QP: {@link CmEvent.Unreachable}, {@link CmEvent.Rejected} or
 * {@link CmEvent.ConnectError}.
 */
public final class InitiatorSetup extends ConnectionSetup {

    private final InetSocketAddress target;
    private final byte[] privateData;
    private final int ord;
    private final int ird;
    private final long deadline;

    public InitiatorSetup(Connection c, InetSocketAddress target, byte[] privateData, int ord, int ird, long deadline) {
        super(c);
        this.target = target;
        this.privateData = privateData;
        this.ord = ord;
        this.ird = ird;
        this.deadline = deadline;
    }

    /** The address connect() dials (a failed connect has no remote address of its own). */
    public InetSocketAddress target() {
        return target;
    }

    @Override
    public int connectWork(long now) {
        boolean connected;
        try {
            connected = c.socket().finishConnect();
        } catch (IOException e) {
            c.setupFailed(new SetupFailure(SetupFailure.Kind.UNREACHABLE,
                    e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        }
        if (!connected) {
            if (now - deadline >= 0) {
                c.setupFailed(new SetupFailure(SetupFailure.Kind.TIMEOUT, "TCP connect timed out"));
                return 1;
            }
            return 0;
        }
        DeviceConfig cfg = c.device().config();
        long replyWait = Math.min(deadline - now, cfg.mpaTimeouts().awaitReply().toNanos());
        handshake = MpaHandshake.initiator(MpaPolicies.of(cfg, ird, ord), privateData, now, Duration.ofNanos(replyWait));
        c.handshaking();
        return 1;
    }

    /** Connecting: the connect's timeout (its completion is a socket's readiness); then the handshake's. */
    @Override
    public long deadline() {
        return handshake == null ? deadline : super.deadline();
    }

    @Override
    void peerClosed() {
        c.setupFailed(new SetupFailure(SetupFailure.Kind.PROTOCOL,
                "the peer closed the connection during MPA setup" + hint()));
    }

    @Override
    void rejected() {
        c.setupFailed(new SetupFailure(SetupFailure.Kind.REJECTED, handshake.failure()));
    }

    @Override
    String failureReason(boolean timeout) {
        return handshake.failure();
    }

    @Override
    public void announce(SetupFailure f, String peer, JwarpQp qp) {
        c.emit(switch (f.kind()) {
            case UNREACHABLE -> new CmEvent.Unreachable(qp, c.remoteAddress(), f.reason());
            case REJECTED -> new CmEvent.Rejected(qp, handshake.peerPrivateData(), f.reason());
            default -> new CmEvent.ConnectError(qp, f.connectErrorKind(), f.reason());
        });
    }

    /**
     * Linux siw and Chelsio cxgb4 take at most 256 bytes of private data (RFC 5044 allows 512) and
     * close the connection, with no Reply, on a larger Request.
     */
    @Override
    public String hint() {
        int pd = handshake == null || handshake.request() == null ? 0 : handshake.request().privateDataLength();
        return pd > MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH ? " (our MPA Request carried " + pd
                + " bytes of private data; siw and cxgb4 close the connection above "
                + MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH + ")" : "";
    }
}

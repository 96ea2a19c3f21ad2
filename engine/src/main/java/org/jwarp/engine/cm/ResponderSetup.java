package org.jwarp.engine.cm;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.engine.runtime.EngineScheduler;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.stack.MpaHandshake;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.wire.mpa.MpaPolicy;
import org.jwarp.wire.mpa.MpaV2Header;

/**
 * The passive side's setup (rdma_cm's listen, {@code RDMA_CM_EVENT_CONNECT_REQUEST}, accept or
 * reject): the wait for the MPA Request, the application's decision, and the Reply. A failure
 * reaches the listener's handler as one {@link CmEvent.ConnectError} (rdma_cm's
 * {@code RDMA_CM_EVENT_CONNECT_ERROR}), so that a server can say why a client got nowhere; a
 * client the application rejected ends with no further event.
 */
public final class ResponderSetup extends ConnectionSetup implements SetupAdmission.Candidate {

    /** Where this setup stands in its listener's admission ({@link SetupAdmission}). */
    enum Stage { UNIDENTIFIED, DECIDING, REPLIED, DONE }

    private final JwarpListener listener;
    private final SetupAdmission<ResponderSetup> admission;
    /** Written on the engine thread; read by the acceptor thread when it drops the oldest. */
    private volatile Stage stage = Stage.UNIDENTIFIED;
    private volatile long stageSince;

    /** What the client sent first, to name a client that does not speak MPA. */
    private final FirstBytes firstBytes = new FirstBytes();
    private boolean requestDelivered;
    /** Completes once the application's accept or reject has its MPA Reply handed to TCP. */
    private CompletableFuture<Void> replySent;

    public ResponderSetup(Connection c, JwarpListener listener, long now) {
        super(c);
        this.listener = listener;
        DeviceConfig cfg = c.device().config();
        MpaPolicy policy = MpaPolicies.of(cfg, cfg.limits().maxIrd(), cfg.limits().maxOrd());
        handshake = MpaHandshake.responder(policy, now, cfg.mpaTimeouts().awaitRequest(),
                cfg.mpaTimeouts().awaitDecision());
        admission = listener.admission();
        stageSince = admission.now();
        admission.enterUnidentified(this);
    }

    @Override
    public long stageSince() {
        return stageSince;
    }

    /** Acceptor thread: the admission dropped this setup; its engine thread ends it, if it is still where it was. */
    @Override
    public void evict(String reason) {
        Stage at = stage;
        EngineWorker owner = c.owner();
        owner.execute(() -> evictOn(owner, at, reason));
    }

    private void evictOn(EngineWorker ranOn, Stage at, String reason) {
        if (c.owner() != ranOn) {
            EngineWorker now = c.owner();                  // moved by rebalancing meanwhile: its new thread ends it
            now.execute(() -> evictOn(now, at, reason));
            return;
        }
        if (stage != at || c.closed()) {
            return;                                        // it moved on (or ended) before the command ran
        }
        listener.droppedOne();
        c.setupFailed(new SetupFailure(SetupFailure.Kind.TIMEOUT, "the client " + c.peerName() + ": " + reason));
    }

    /** Engine thread: the setup left admission (established, failed, closed); once. */
    public void leftAdmission() {
        Stage s = stage;
        stage = Stage.DONE;
        switch (s) {
            case UNIDENTIFIED, REPLIED -> admission.left(this);
            case DECIDING -> admission.decided();
            case DONE -> { }
        }
    }

    private void stage(Stage next) {
        stageSince = admission.now();
        stage = next;
    }

    public JwarpListener listener() {
        return listener;
    }

    @Override
    boolean peerCloseExpected() {
        // the client closed on reading our reject, as it should: the REJECTED step ends it
        return handshake.phase() == MpaHandshake.Phase.REJECTED && outputDone();
    }

    @Override
    void received(int n) {
        firstBytes.add(c.rx().segment(), 0, n);
    }

    @Override
    void peerClosed() {
        if (handshake.phase() == MpaHandshake.Phase.ESTABLISHED && outputDone()) {
            replied(); // the accept's Reply did leave; the client went away after it
        }
        c.setupFailed(new SetupFailure(SetupFailure.Kind.PROTOCOL,
                "the peer " + c.peerName() + " closed the connection during MPA setup"));
    }

    @Override
    int awaitingDecision() {
        if (requestDelivered || !admission.requestComplete(this)) {
            return 0;              // delivered already, or the application's backlog is full: asked again next cycle
        }
        stage(Stage.DECIDING);
        requestDelivered = true;
        c.emit(new CmEvent.ConnectRequest(new JwarpConnectionRequest(c.device(), c)));
        return 1;
    }

    /**
     * The decision timeout once the application has the request; before (its backlog is full) the
     * request is offered again in a later cycle.
     */
    @Override
    long decisionDeadline() {
        return requestDelivered ? handshake.deadline() : EngineScheduler.POLL;
    }

    @Override
    void rejected() {
        if (!requestDelivered) {
            // refused by this side's MPA policy, not by the application: it has not heard of this client yet
            c.setupFailed(new SetupFailure(SetupFailure.Kind.NEGOTIATION, "refused the client " + c.peerName() + ": "
                    + handshake.failure()));
        } else if (c.qp() != null) {
            // the application accepted, but with parameters the Request cannot take
            c.setupFailed(new SetupFailure(SetupFailure.Kind.NEGOTIATION, handshake.failure()));
        } else {
            c.closeRejected();
            replied();
        }
    }

    @Override
    String failureReason(boolean timeout) {
        String peer = c.peerName();
        return timeout ? handshake.failure() + " from " + peer : "the client " + peer + ": " + handshake.failure();
    }

    @Override
    public void announce(SetupFailure f, String peer, JwarpQp qp) {
        CmEvent.ConnectError.Kind kind = f.connectErrorKind();
        String reason = f.reason();
        if (firstBytes.any() && !firstBytes.startsLikeMpa()) {
            kind = CmEvent.ConnectError.Kind.PROTOCOL;
            reason = "the peer " + peer + " is not speaking MPA: first bytes " + firstBytes.quoted();
        }
        ended(reason);
        c.emit(new CmEvent.ConnectError(qp, kind, reason));
    }

    /**
     * Engine thread: the application accepted with {@code acceptor}. Returns false (and fails
     * {@code sent}) if the setup already ended (it timed out, or the client left).
     */
    public boolean accept(JwarpQp acceptor, byte[] privateData, int ord, int ird, CompletableFuture<Void> sent) {
        replySent = sent;
        if (c.closed() || handshake.phase() != MpaHandshake.Phase.AWAIT_DECISION) {
            ended(setupEnded());
            return false;
        }
        c.carry(acceptor);
        admission.decided();
        stage(Stage.REPLIED);
        admission.enterReplied(this);
        DeviceConfig cfg = c.device().config();
        handshake.accept(privateData, MpaPolicies.of(cfg, responderIrd(cfg, ird), ord));
        return true;
    }

    /**
     * The IRD this responder answers with: the application's, raised to the initiator's ORD where
     * the device can serve it (RFC 6581 §9.1: responder IRD >= initiator ORD; AcceptParams says the
     * provider raises it). The responder's ORD needs no care here: the negotiation lowers it to the
     * initiator's IRD.
     */
    private int responderIrd(DeviceConfig cfg, int ird) {
        MpaV2Header h = handshake.request().enhancedHeader();
        if (h == null || h.ord() == MpaV2Header.NO_NEGOTIATION || h.ord() <= ird) {
            return ird;
        }
        return Math.min(h.ord(), cfg.limits().maxIrd());
    }

    /** Engine thread: the application refused. */
    public void reject(byte[] privateData, CompletableFuture<Void> sent) {
        replySent = sent;
        if (c.closed() || handshake.phase() != MpaHandshake.Phase.AWAIT_DECISION) {
            ended(setupEnded());
            return;
        }
        leftAdmission();
        handshake.reject(privateData);
    }

    private String setupEnded() {
        return "the connection setup had already ended" + (handshake.failure() == null ? ""
                : " (" + handshake.failure() + ")");
    }

    /** The MPA Reply the application asked for has been handed to TCP. */
    @Override
    void replied() {
        if (replySent != null) {
            replySent.complete(null);
        }
    }

    /** The MPA Reply the application asked for will never be sent. */
    @Override
    public void ended(String why) {
        if (replySent != null && !replySent.isDone()) {
            replySent.completeExceptionally(new IllegalStateException("the MPA Reply was not sent: " + why));
        }
    }

    /**
     * The socket is non-blocking; a Reply (at most 512 bytes of private data and a 20-byte frame)
     * fits the socket's send buffer, so one write carries it.
     */
    @Override
    public void shutdown() {
        MpaHandshake.Phase p = handshake.phase();
        if (p != MpaHandshake.Phase.REJECTED && p != MpaHandshake.Phase.ESTABLISHED) {
            return;
        }
        try {
            writeOutput();
            if (outputDone()) {
                if (p == MpaHandshake.Phase.REJECTED) {
                    c.closeRejected();
                }
                replied();
            }
        } catch (IOException e) {
            ended(e.toString());
        }
    }
}

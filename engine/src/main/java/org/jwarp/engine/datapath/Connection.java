package org.jwarp.engine.datapath;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.jwarp.engine.cm.ConnectionSetup;
import org.jwarp.engine.cm.InitiatorSetup;
import org.jwarp.engine.cm.JwarpListener;
import org.jwarp.engine.cm.ResponderSetup;
import org.jwarp.engine.cm.SetupFailure;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.Staging;
import org.jwarp.engine.io.TcpSocket;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.engine.runtime.EngineScheduler;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.engine.runtime.Schedule;
import org.jwarp.stack.MpaHandshake;
import org.jwarp.stack.RdmapStream;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.SendWr;

/**
 * One TCP connection and the QP it carries, owned by one engine thread: its socket, its phase
 * (connecting, MPA exchange, running, closed) and its ends. The setup — TCP connect and the MPA
 * exchange — is the role's ({@link InitiatorSetup}, {@link ResponderSetup}); the running stream is
 * driven by a {@link StreamDriver}. Every end of a setup gives exactly one event
 * ({@link #setupFailed}); an established connection ends with one {@link CmEvent.Disconnected}
 * naming its cause. Everything here runs on the owning engine thread.
 */
public final class Connection implements EngineScheduler.Scheduled {

    private static final int CONNECTING = 0;
    private static final int HANDSHAKE = 1;
    private static final int RUNNING = 2;
    private static final int CLOSED = 3;

    private final JwarpDevice device;
    private final ConnectionSocket socket;
    /** Where this connection's events go: the listener's handler, until an accept names one of its own. */
    private volatile CmEventHandler handler;
    private final SocketReceiver receiver;
    private final StreamDriver driver;
    private ConnectionSetup setup;
    /** The engine thread that owns this connection (RSS chose it; rebalancing may move it). */
    private EngineWorker owner;
    /** Passive side: the RSS table entry of the accepted socket, or -1; the accepting QP takes it. */
    private int rssEntry = -1;

    private int phase;
    private JwarpQp qp;

    private Connection(JwarpDevice device, TcpSocket tcp, CmEventHandler handler, EngineWorker owner) {
        this.device = device;
        this.owner = owner;
        this.socket = new ConnectionSocket(tcp);
        this.handler = handler;
        this.receiver = new SocketReceiver();
        this.driver = new StreamDriver(this, receiver);
    }

    /** The active side: TCP connect under way; the MPA Request goes out once it completes. */
    public static Connection connecting(JwarpDevice device, TcpSocket tcp, InetSocketAddress remote, JwarpQp qp,
                                 byte[] privateData, int ord, int ird, long deadline, CmEventHandler handler) {
        Connection c = new Connection(device, tcp, handler, qp.worker());
        c.qp = qp;
        c.setup = new InitiatorSetup(c, remote, privateData, ord, ird, deadline);
        c.phase = CONNECTING;
        return c;
    }

    /** The passive side: TCP accepted; waiting for the MPA Request. */
    public static Connection accepted(JwarpDevice device, TcpSocket tcp, JwarpListener listener, EngineWorker owner,
                               int rssEntry, long now) {
        Connection c = new Connection(device, tcp, listener.handler(), owner);
        c.rssEntry = rssEntry;
        c.setup = new ResponderSetup(c, listener, now);
        c.phase = HANDSHAKE;
        return c;
    }

    public JwarpQp qp() {
        return qp;
    }

    /** The accepting application's handler for this connection's events from now on (rdma_cm's per-id channel). */
    public void handler(CmEventHandler h) {
        handler = h;
    }

    public EngineWorker owner() {
        return owner;
    }

    public int rssEntry() {
        return rssEntry;
    }

    /** Rebalancing, on the old owner's thread after it let go: the connection belongs to {@code next}. */
    public void owner(EngineWorker next) {
        owner = next;
    }

    /** Every change of phase goes through here: a closing passive connection gives its admission place back, once. */
    private void phase(int next) {
        phase = next;
        if (schedule.parked()) {
            owner.unpark(this);              // an end (a command, an event handler) is carried out in the duty cycle
        }
        if (next == CLOSED && setup instanceof ResponderSetup r) {
            r.leftAdmission();
        }
    }

    /** Passive side: the application accepted with {@code acceptor}, which this connection carries from now on. */
    public void carry(JwarpQp acceptor) {
        qp = acceptor;
        acceptor.connection(this);
    }

    public MpaHandshake handshake() {
        return setup.handshake();
    }

    /** The listener that accepted this connection; null on the active side. */
    public JwarpListener listener() {
        return setup instanceof ResponderSetup r ? r.listener() : null;
    }

    /** The passive side's setup, which carries out the application's accept or reject. */
    public ResponderSetup responder() {
        return (ResponderSetup) setup;
    }

    /** This connection's standing with its engine thread's scheduler (engine thread). */
    private final Schedule schedule = new Schedule();
    /** Its index in its engine thread's list ({@link org.jwarp.engine.runtime.IndexedList}); -1 in none. */
    private int listSlot = -1;
    public int listSlot() {
        return listSlot;
    }

    public void listSlot(int slot) {
        listSlot = slot;
    }

    public JwarpDevice device() {
        return device;
    }

    /** The TCP socket (owner thread only: never closed under another thread's call). */
    public TcpSocket socket() {
        return socket.socket();
    }

    @Override
    public Schedule schedule() {
        return schedule;
    }

    /** Running with nothing to send and no timer its thread does not hold; or closed, nothing posted to flush. */
    @Override
    public boolean idle() {
        return phase == RUNNING ? driver.quiet() : phase == CLOSED && qp != null && !qp.hasPosted();
    }

    @Override
    public long deadline() {
        return phase == RUNNING ? driver.deadline() : inSetup() ? setup.deadline() : EngineScheduler.POLL;
    }

    @Override
    public boolean hasPosted() {
        return qp != null && qp.hasPosted();
    }

    @Override
    public void parkedChanged(boolean parked) {
        if (qp != null) {
            qp.parked(parked);
        }
    }

    /** Framed bytes of the running stream wait for room in the socket. */
    public boolean bytesPending() {
        return phase == RUNNING && driver.pending() > 0;
    }

    /**
     * Engine thread: joins the engine's I/O driver, so readiness wakes an idle engine; a running
     * connection that moved here makes its socket calls through this driver from now on.
     */
    public void register(IoDriver io) {
        if (phase == CLOSED) {
            return;
        }
        try {
            socket.register(io, phase == CONNECTING ? IoDriver.OP_CONNECT : IoDriver.OP_READ, this);
            if (phase == RUNNING) {
                driver.reopen(io);
            }
        } catch (IOException | RuntimeException e) {
            device.report(new IOException("cannot watch " + socket.socket() + " for readiness", e));
            lost();
        }
    }

    /** Engine thread: leaves the driver it joined (the connection moves to another engine thread). */
    public void unregister() {
        schedule.readable(true);
        socket.cancel();
    }

    /** Changes what readiness wakes the engine for ({@link IoDriver#OP_READ} bits), only when it changes. */
    void interest(int ops) {
        socket.interest(ops);
    }

    public InetSocketAddress localAddress() {
        return socket.localAddress();
    }

    /** The peer's address; before (or without) a TCP connection, the address we dial; null if neither. */
    public InetSocketAddress remoteAddress() {
        return socket.remoteAddress(setup instanceof InitiatorSetup i ? i.target() : null);
    }

    /** The remote address as host:port, for messages (read before the channel closes). */
    public String peerName() {
        InetSocketAddress a = remoteAddress();
        return a == null ? "(address unknown)" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /** The owning engine thread's receive buffer, for the MPA exchange's reads (cleared after each). */
    public Staging rx() {
        return owner.staging().rx();
    }

    /** Initiator: TCP is connected; the MPA exchange begins. */
    public void handshaking() {
        phase(HANDSHAKE);
        interest(IoDriver.OP_READ);
    }

    /** One step of this connection's work (a connect that completed sends its Request at once); 0 = idle. */
    public int doWork(long now) {
        try {
            return switch (phase) {
                case CONNECTING -> setup.connectWork(now) + (phase == HANDSHAKE ? setup.handshakeWork(now) : 0);
                case HANDSHAKE -> setup.handshakeWork(now);
                case RUNNING -> driver.work(now);
                default -> qp == null ? 0 : qp.stream().flush();
            };
        } catch (IOException e) {
            if (inSetup()) {
                // reset or TCP error before the connection ran: exactly one setup event
                setupFailed(new SetupFailure(SetupFailure.Kind.PROTOCOL, "the peer " + peerName()
                        + " reset the connection during MPA setup ("
                        + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")"
                        + setup.hint()));
            } else {
                failedIo();
            }
            return 1;
        }
    }

    /** A socket call of the running stream failed: the end names the peer's Terminate if it sent one. */
    void failedIo() {
        if (phase == RUNNING && qp != null && qp.stream().state() == RdmapStream.State.RTS
                && driver.peerTerminatedBeforeFailure()) {
            end(CmEvent.Disconnected.Cause.TERMINATE_RECEIVED);
            return;
        }
        lost();
    }

    /**
     * The setup ended without a connection: the socket closes, the QP (if one was given) goes to
     * ERROR and flushes, and the role announces it with its one event.
     */
    public void setupFailed(SetupFailure f) {
        if (phase == CLOSED) {
            return;
        }
        String peer = peerName();
        closeChannel();
        phase(CLOSED);
        if (qp != null) {
            // the QP goes to ERROR and anything posted is flushed
            qp.stream().connectionLost();
            qp.lifecycle().failed();
            qp.stream().flush();
        }
        setup.announce(f, peer, qp);
    }

    /** Passive side: the application's reject went out; the connection ends with no event. */
    public void closeRejected() {
        closeChannel();
        phase(CLOSED);
    }

    /**
     * Something this connection's work threw that is not an I/O error (a bug, or memory that was
     * freed under a region while the engine was using it): the connection ends as a lost one, is
     * reported with its cause, and the engine thread carries on with the others.
     */
    public void failed(Throwable e) {
        device.report(new IllegalStateException("connection " + peerName() + " failed on the engine thread and was"
                + " closed; other connections carry on: " + e, e));
        endAfter(e);
    }

    /** Ends this connection as a lost one because of {@code e} (an event, and a flush of every request). */
    public void endAfter(Throwable e) {
        if (inSetup()) {
            setupFailed(new SetupFailure(SetupFailure.Kind.PROTOCOL, "the connection setup with " + peerName()
                    + " failed: " + e));
        } else if (phase == RUNNING) {
            try {
                lost();
            } catch (RuntimeException again) {
                e.addSuppressed(again);
                phase(CLOSED);
                closeChannel();
            }
        }
    }

    /** In TCP connect or MPA setup (not running, not closed). */
    public boolean inSetup() {
        return phase == CONNECTING || phase == HANDSHAKE;
    }

    /** Closed with nothing left to do on the engine: no QP that may still need its posts flushed. */
    public boolean finished() {
        return phase == CLOSED && qp == null;
    }

    public boolean closed() {
        return phase == CLOSED;
    }

    /** The MPA exchange is done and the stream runs (not yet closed). */
    public boolean isRunning() {
        return phase == RUNNING;
    }

    /**
     * The transmit half of a running connection's work, which the duty cycle runs for every
     * connection before any socket read: a freshly posted request leaves without waiting behind
     * the read system calls of this or another connection.
     */
    public int transmitWork(boolean woke, boolean batch) {
        try {
            return phase == RUNNING ? driver.transmit(woke, batch) : 0;
        } catch (IOException e) {
            failedIo();
            return 1;
        }
    }

    /** The small-message send ({@link StreamDriver#sendDirect}) of a running connection; 0 otherwise. */
    public int sendDirect(SendWr wr) {
        try {
            return phase == RUNNING ? driver.sendDirect(wr) : 0;
        } catch (IOException e) {
            failedIo();
            return 1;
        }
    }

    /**
     * Device close: a Reply the application asked for still goes out before the socket closes
     * (a server that rejects and stops at once must not leave its client without the reason).
     */
    public void shutdown() {
        if (phase == HANDSHAKE) {
            setup.shutdown();
        }
        disconnect();
        setup.ended("the device closed");
    }

    /** The MPA exchange is done: full operation begins, with the bytes that followed the MPA frame. */
    public void enterRunning(MpaHandshake handshake, byte[] leftover) throws IOException {
        driver.start(handshake, leftover);
    }

    /** The stream runs (the driver started it). */
    void running() {
        phase(RUNNING);
    }

    /** Local disconnect: what is framed goes out, then TCP closes and every request is flushed. */
    public void disconnect() {
        if (phase == CLOSED) {
            return;
        }
        if (phase == RUNNING) {
            try {
                driver.flushTx();
            } catch (IOException e) {
                // the connection is going away; the flush below reports every request
            }
        }
        if (qp != null) {
            qp.stream().connectionLost();
        }
        end(CmEvent.Disconnected.Cause.LOCAL);
    }

    /** The QP was moved to ERROR by the application: stop at once. */
    public void abort() {
        if (qp != null) {
            qp.stream().connectionLost();
        }
        end(CmEvent.Disconnected.Cause.LOCAL);
    }

    /** The QP was reset: the connection ends (its one event) without touching the QP's queues; it lets go of the QP. */
    public void abandon() {
        if (phase != CLOSED) {
            boolean wasEstablished = phase == RUNNING && driver.established();
            String peer = peerName();
            phase(CLOSED);
            closeChannel();
            setup.ended("the queue pair was reset");
            if (wasEstablished) {
                emit(new CmEvent.Disconnected(qp, CmEvent.Disconnected.Cause.LOCAL, 0));
            } else {
                setup.announce(new SetupFailure(SetupFailure.Kind.LOCAL,
                        "the queue pair was reset during connection setup"), peer, qp);
            }
        }
        qp = null;
        phase(CLOSED);                      // a parked connection is visited again, and let go
    }

    /** TCP failed under the stream (reset, error): no Terminate can be sent; everything is flushed. */
    private void lost() {
        if (qp != null) {
            qp.stream().connectionLost();
        }
        end(CmEvent.Disconnected.Cause.CONNECTION_LOST);
    }

    /**
     * The running connection ends. One that was established says why with
     * {@link CmEvent.Disconnected}; one that ran but was not yet established (the responder waiting
     * for the RTR) ends its setup with the role's event instead: an application never sees a
     * Disconnected without an Established before it.
     */
    void end(CmEvent.Disconnected.Cause cause) {
        if (phase == CLOSED) {
            return;
        }
        if (phase == RUNNING && !driver.established() || inSetup()) {
            setupFailed(SetupFailure.beforeEstablished(cause, qp == null ? 0 : terminateBits()));
            return;
        }
        phase(CLOSED);
        closeChannel();
        setup.ended("the connection closed (" + cause + ")");
        if (qp != null) {
            qp.lifecycle().failed();
            qp.stream().flush();
            emit(new CmEvent.Disconnected(qp, cause, terminateBits()));
        }
    }

    /** The Terminate behind the end: the peer's if it sent one, else ours, else 0. */
    private int terminateBits() {
        RdmapStream stream = qp.stream();
        return stream.peerTerminate() >= 0 ? stream.peerTerminate()
                : stream.terminateCause() != null ? stream.terminateCause().controlBits() : 0;
    }

    private void closeChannel() {
        IOException failed = socket.close();
        if (failed != null) {
            device.report(failed);
        }
    }

    public void emit(CmEvent event) {
        device.deliver(handler, event);
    }

    @Override
    public String toString() {
        return "Connection[" + (setup instanceof InitiatorSetup ? "active" : "passive") + ", phase " + phase + ", "
                + qp + "]";
    }
}

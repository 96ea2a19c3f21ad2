package org.jwarp.engine.toe;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoRegistration;

/**
 * The engine's side of a listening socket: binds, and accepts one connection per ACCEPT request
 * (seed 001: accept is a synchronous request and its event). Connections not yet asked for wait in
 * the kernel's backlog. An accepted socket lives on the listener's queue pair and engine thread.
 */
final class EngineListener {

    private final ToeEngine engine;
    private final ToeServerSocket host;
    private ServerSocketChannel channel;
    private IoRegistration registration;
    private int asked;
    private boolean owesListening;
    private InetSocketAddress bound;
    private Throwable failure;
    /** Accepted, but the event queue was full. */
    private ToeSocket acceptedNotPosted;
    private boolean closeAsked;
    private boolean finished;

    EngineListener(ToeEngine engine, ToeServerSocket host) {
        this.engine = engine;
        this.host = host;
        host.attach(this);
    }

    void listen(InetSocketAddress at, int backlog) {
        owesListening = true;
        try {
            channel = ServerSocketChannel.open();
            channel.configureBlocking(false);
            channel.bind(at, backlog);
            bound = (InetSocketAddress) channel.getLocalAddress();
            registration = engine.driver().register(channel, 0, this);
        } catch (IOException | RuntimeException e) {
            failure = e;
            release();                              // the listener stays until its LISTENING answer is posted
        }
    }

    void onAccept() {
        asked++;
    }

    void onClose() {
        closeAsked = true;
    }

    int doWork() {
        int work = 0;
        HostQueuePair q = host.home();
        if (owesListening) {
            if (!engine.post(q, Event.Kind.LISTENING, null, host, -1, 0, bound, failure)) {
                return 0;
            }
            owesListening = false;
            work++;
            if (failure != null) {
                finished = true;
                return work;
            }
        }
        if (closeAsked) {
            if (acceptedNotPosted != null) {
                acceptedNotPosted.engineSide().release();
                acceptedNotPosted = null;
            }
            if (engine.post(q, Event.Kind.CLOSED, null, host, -1, 0, null, null)) {
                release();
                finished = true;
                work++;
            }
            return work;
        }
        while (asked > 0) {
            if (acceptedNotPosted == null) {
                SocketChannel c;
                try {
                    c = channel.accept();
                } catch (IOException e) {
                    engine.report(e);               // e.g. too many open files: the listener stays, the next accept retries
                    break;
                }
                if (c == null) {
                    break;
                }
                ToeSocket s = new ToeSocket(q, engine.config());
                EngineSocket es = new EngineSocket(engine, s);
                try {
                    es.adopt(c);
                } catch (IOException | RuntimeException e) {
                    es.release();
                    engine.report(e instanceof IOException io ? io : new IOException(e));
                    continue;
                }
                engine.adopt(es);
                acceptedNotPosted = s;
                work++;
            }
            if (!engine.post(q, Event.Kind.ACCEPTED, acceptedNotPosted, host, -1, 0, null, null)) {
                break;
            }
            acceptedNotPosted = null;
            asked--;
        }
        interest(asked > 0 && acceptedNotPosted == null);
        return work;
    }

    private void interest(boolean accept) {
        if (registration != null && registration.isValid()) {
            int ops = accept ? IoDriver.OP_ACCEPT : 0;
            if (registration.interestOps() != ops) {
                try {
                    registration.interestOps(ops);
                } catch (IOException e) {
                    engine.report(e);               // the listener was closed under it: its close follows
                }
            }
        }
    }

    /** Engine thread: closes the channel (the engine stops, or the listener ends). */
    void release() {
        engine.close(registration, channel);
    }

    boolean finished() {
        return finished;
    }
}

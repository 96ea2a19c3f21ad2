package org.jwarp.bench.transport.sockets;

import java.nio.ByteBuffer;
import java.time.Duration;
import org.jwarp.bench.perf.Control;
import org.jwarp.bench.perf.ControlMessage;
import org.jwarp.bench.perf.PerfDriver;
import org.jwarp.bench.perf.PerfException;

/**
 * The control messages of a sockets test, on the first data connection between sizes (each
 * workload leaves the stream empty at its end, so nothing else is in flight): a 4-byte length,
 * then the message.
 */
final class SocketControl implements Control {

    private final SocketIo io;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(4 + ControlMessage.MAX_LENGTH);

    SocketControl(SocketIo io) {
        this.io = io;
    }

    @Override
    public void send(ControlMessage m) {
        buf.clear().position(4);
        int len = m.writeTo(buf);
        buf.putInt(0, len).flip();
        io.writeFully(buf);
    }

    /** A write returns once the kernel has the bytes, and a close still delivers them. */
    @Override
    public void drain() {
    }

    @Override
    public ControlMessage receive(Duration timeout) {
        buf.clear().limit(4);
        io.readFully(buf);
        int len = buf.getInt(0);
        if (len <= 0 || len > ControlMessage.MAX_LENGTH) {
            throw new PerfException("the peer sent a control message of " + len + " bytes: it is out of step");
        }
        buf.clear().limit(len);
        io.readFully(buf);
        buf.flip();
        ControlMessage m;
        try {
            m = ControlMessage.readFrom(buf);
        } catch (IllegalArgumentException e) {
            throw new PerfException("the peer sent a control message this jwarp does not understand: " + e.getMessage());
        }
        if (m.type() == ControlMessage.Type.ERROR) {
            throw new PerfDriver.PeerFailedException("the peer stopped: " + m.text());
        }
        return m;
    }
}

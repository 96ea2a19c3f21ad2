package org.jwarp.engine.io;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A {@link TcpSocket} that is a {@code SocketChannel}: a descriptor in the process's table, every layer but uring-direct. */
public final class ChannelSocket implements TcpSocket {

    private final SocketChannel channel;

    public ChannelSocket(SocketChannel channel) {
        this.channel = channel;
    }

    public SocketChannel channel() {
        return channel;
    }

    @Override
    public IoRegistration register(IoDriver io, int ops, Object attachment) throws IOException {
        return io.register(channel, ops, attachment);
    }

    @Override
    public SocketIo open(IoDriver io, int capacity) {
        return io.open(channel, capacity);
    }

    @Override
    public boolean finishConnect() throws IOException {
        return channel.finishConnect();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return channel.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return channel.write(src);
    }

    @Override
    public InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public InetSocketAddress remoteAddress() {
        try {
            return (InetSocketAddress) channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public int mss() {
        return TcpMss.of(channel);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    @Override
    public String toString() {
        return channel.toString();
    }
}

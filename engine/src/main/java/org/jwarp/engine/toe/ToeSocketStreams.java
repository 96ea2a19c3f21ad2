package org.jwarp.engine.toe;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The blocking streams of a {@link ToeSocket} ({@link ToeSocket#getInputStream()},
 * {@link ToeSocket#getOutputStream()}): each call goes to the socket's own read or write; closing
 * either closes the socket.
 */
final class ToeSocketStreams {

    private ToeSocketStreams() {
    }

    static final class In extends InputStream {
        private final ToeSocket socket;
        private final byte[] one = new byte[1];

        In(ToeSocket socket) {
            this.socket = socket;
        }

        @Override
        public int read() throws IOException {
            int n = socket.read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return socket.read(b, off, len);
        }

        @Override
        public int available() {
            return socket.available();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static final class Out extends OutputStream {
        private final ToeSocket socket;
        private final byte[] one = new byte[1];

        Out(ToeSocket socket) {
            this.socket = socket;
        }

        @Override
        public void write(int b) throws IOException {
            one[0] = (byte) b;
            socket.write(one, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            socket.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}

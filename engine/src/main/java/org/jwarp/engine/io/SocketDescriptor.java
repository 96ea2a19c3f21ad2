package org.jwarp.engine.io;

import java.lang.reflect.Method;
import java.nio.channels.SelectableChannel;

/**
 * The file descriptor number under a {@code SocketChannel} or {@code ServerSocketChannel}. The JDK keeps it private
 * ({@code sun.nio.ch.SelChImpl#getFDVal}); reading it needs
 * {@code --add-opens java.base/sun.nio.ch=ALL-UNNAMED}. Without that, {@link #why()} says so in
 * one line and the device falls back to NIO.
 */
public final class SocketDescriptor {

    private static final Method GET_FD_VAL;
    private static final String WHY_NOT;

    static {
        Method m = null;
        String why = null;
        try {
            m = Class.forName("sun.nio.ch.SelChImpl").getMethod("getFDVal");
            m.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            m = null;
            why = "the JVM hides sockets' file descriptors (" + e.getClass().getSimpleName()
                    + "); run java with --add-opens java.base/sun.nio.ch=ALL-UNNAMED";
        }
        GET_FD_VAL = m;
        WHY_NOT = why;
    }

    private SocketDescriptor() {
    }

    /** Null if descriptors can be read, else why not (one line). */
    public static String why() {
        return WHY_NOT;
    }

    /** The descriptor of {@code channel} (a socket's or a listener's, open); -1 once it is closed. */
    public static int of(SelectableChannel channel) {
        if (GET_FD_VAL == null) {
            throw new UnsupportedOperationException(WHY_NOT);
        }
        try {
            return (int) GET_FD_VAL.invoke(channel);
        } catch (ReflectiveOperationException e) {
            throw new UnsupportedOperationException("cannot read the file descriptor of " + channel + ": " + e, e);
        }
    }
}

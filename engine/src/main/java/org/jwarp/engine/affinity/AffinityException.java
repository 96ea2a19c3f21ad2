package org.jwarp.engine.affinity;

import org.jwarp.sys.Errno;

import java.io.Serial;

/** The kernel refused an affinity call that is supported here; carries the errno. */
public final class AffinityException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final int errno;

    public AffinityException(String call, int errno, String detail) {
        super(call + " failed: " + Errno.name(errno) + " (errno " + errno + ")" + (detail.isEmpty() ? "" : ": " + detail));
        this.errno = errno;
    }

    /** The C {@code errno} the call set. */
    public int errno() {
        return errno;
    }
}

package org.jwarp.engine.affinity;

/** Names of the Linux errno values the scheduler calls document, for messages. */
final class Errno {

    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int EFAULT = 14;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;

    private Errno() {
    }

    static String name(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM";
            case ESRCH -> "ESRCH";
            case EFAULT -> "EFAULT";
            case EINVAL -> "EINVAL";
            case ENOSYS -> "ENOSYS";
            default -> "errno";
        };
    }
}

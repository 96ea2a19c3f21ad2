package org.jwarp.sys;

/** The Linux errno values jwarp's system calls document, by name and meaning, for messages. */
public final class Errno {

    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSYS = 38;
    public static final int EMSGSIZE = 90;

    private Errno() {
    }

    /** "EINVAL", or "errno" for a value not listed here. */
    public static String name(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case ESRCH -> "ESRCH";
            case EINTR -> "EINTR";
            case EBADF -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case EACCES -> "EACCES";
            case EFAULT -> "EFAULT";
            case EBUSY -> "EBUSY";
            case ENODEV -> "ENODEV";
            case EINVAL -> "EINVAL";
            case ENOSYS -> "ENOSYS";
            case EMSGSIZE -> "EMSGSIZE";
            default -> "errno";
        };
    }

    /** "Resource temporarily unavailable (errno 11)": strerror's words, without a downcall. */
    public static String describe(int errno) {
        String text = switch (errno) {
            case EPERM -> "Operation not permitted";
            case ENOENT -> "No such file or directory";
            case ESRCH -> "No such process";
            case EINTR -> "Interrupted system call";
            case EBADF -> "Bad file descriptor";
            case EAGAIN -> "Resource temporarily unavailable";
            case EACCES -> "Permission denied";
            case EFAULT -> "Bad address";
            case EBUSY -> "Device or resource busy";
            case ENODEV -> "No such device";
            case EINVAL -> "Invalid argument";
            case ENOSYS -> "Function not implemented";
            case EMSGSIZE -> "Message too long";
            default -> "error";
        };
        return text + " (errno " + errno + ")";
    }
}

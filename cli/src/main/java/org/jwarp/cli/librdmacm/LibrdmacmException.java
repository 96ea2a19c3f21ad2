package org.jwarp.cli.librdmacm;

/** A librdmacm example that could not complete: one line saying why. */
public final class LibrdmacmException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LibrdmacmException(String message) {
        super(message);
    }
}

package org.jwarp.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Checks, before a long run, that what it writes at the end can be written there, so that a bad
 * path is one line at once instead of a failure after the run; and says why a write failed in
 * words (the JDK's exceptions for a missing directory or a refused write carry only the path).
 */
final class OutputPath {

    private OutputPath() {
    }

    /**
     * Null if {@code file} can be written, else why not. A file that does not exist yet is
     * created and removed again: permissions alone do not tell (root may write anywhere by them,
     * and still not create a file in {@code /proc}).
     */
    static String whyNotFile(Path file) {
        Path abs = file.toAbsolutePath();
        if (Files.isDirectory(abs)) {
            return "it is a directory; give a file name";
        }
        if (Files.exists(abs)) {
            return Files.isWritable(abs) ? null : "the file is not writable";
        }
        Path parent = abs.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            return "no such directory " + parent + "; create it first or give another path";
        }
        try {
            Files.delete(Files.createFile(abs));
            return null;
        } catch (IOException e) {
            return "cannot create it (" + reason(e) + ")";
        }
    }

    /**
     * Makes {@code dir} (and its parents) now, before a run that writes into it at the end;
     * returns null, or why it cannot be made.
     */
    static String makeDirectory(Path dir) {
        Path abs = dir.toAbsolutePath();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            return existing + " is a file, not a directory";
        }
        try {
            Files.createDirectories(abs);
            return null;
        } catch (IOException e) {
            return "cannot create it (" + reason(e) + ")";
        }
    }

    /** Why {@code e} failed, in words. */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage();
    }
}

package org.jwarp.cli.faults;

import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;

/** Runs work on a thread of its own inside a host's network namespace: the sockets it opens live there. */
final class Netns {

    private Netns() {
    }

    /** Moves the calling thread into {@code ns} for good. */
    static void enter(String ns) throws java.io.IOException {
        org.jwarp.degen.sys.Netns.enterForThisThread(ns);
    }

    static <T> T in(String ns, Callable<T> work) throws Exception {
        FutureTask<T> task = new FutureTask<>(() -> {
            org.jwarp.degen.sys.Netns.enterForThisThread(ns);
            return work.call();
        });
        Thread t = Thread.ofPlatform().name("in-" + ns).start(task);
        t.join();
        return task.get();
    }
}

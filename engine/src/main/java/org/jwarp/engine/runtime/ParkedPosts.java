package org.jwarp.engine.runtime;

import java.util.concurrent.atomic.AtomicReference;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.provider.JwarpQp;

/**
 * The QPs posted to while their connection was parked, on one engine thread: a stack the posters
 * push onto (lock-free, no allocation: the QPs are the links) and the duty cycle takes whole,
 * before its transmits, visiting their connections again.
 */
final class ParkedPosts {

    private final AtomicReference<JwarpQp> listed = new AtomicReference<>();

    /** Any poster: {@code qp} goes on the stack, once until it is taken. */
    void push(JwarpQp qp) {
        if (!qp.list()) {
            return;                                         // on the list already
        }
        JwarpQp head;
        do {
            head = listed.get();
            qp.nextListed(head);
        } while (!listed.compareAndSet(head, qp));
    }

    /** Engine thread: the connections of the QPs posted to while parked are visited again on {@code owner}. */
    void takeAll(EngineWorker owner) {
        if (listed.get() == null) {
            return;
        }
        for (JwarpQp qp = listed.getAndSet(null); qp != null; ) {
            JwarpQp next = qp.nextListed();
            qp.nextListed(null);
            qp.unlist();
            Connection c = qp.connection();
            if (c != null && c.owner() == owner) {
                owner.unpark(c);                            // one that moved away is active on its new thread
            }
            qp = next;
        }
    }
}

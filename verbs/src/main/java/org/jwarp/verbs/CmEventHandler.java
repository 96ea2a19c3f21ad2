package org.jwarp.verbs;

/**
 * Receives {@link CmEvent}s: the callback form of rdma_cm's event channel ({@code
 * rdma_get_cm_event}). Pass one to {@link ConnectionManager#listen}, {@link ConnectionManager#connect}
 * or {@link CmId#create}; {@link CmEventQueue} is the ready-made one that queues events for a thread
 * to take.
 *
 * <p>Called on the engine thread that owns the connection (in
 * a device whose engine runs on its callers' threads, on the thread running the duty cycle). It must
 * return quickly and must not block: while it runs, that engine thread moves no data for any of its
 * queue pairs. Calling {@link ConnectionRequest#accept}, {@code reject}, {@code post*} and
 * {@code poll} from it is allowed (they do not block). Hand anything slower to another thread, for
 * instance through a {@link CmEventQueue}.
 *
 * <p>Events of one connection arrive in order, one at a time. If the handler throws, the provider
 * closes the connection concerned (rejecting a pending request), and passes the exception to the
 * engine thread's uncaught-exception handler without stopping the engine.
 */
@FunctionalInterface
public interface CmEventHandler {

    /**
     * Handles one event; must not block.
     *
     * @param event the event
     */
    void onCmEvent(CmEvent event);
}

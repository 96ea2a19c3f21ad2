package org.jwarp.engine.toe;

/**
 * Counters of the offloaded sockets, summed over their engine threads (a moment's view).
 *
 * @param requests          requests the engine took from the request queues
 * @param eventsPosted      events the engine posted
 * @param eventsTaken       events host threads took
 * @param interrupts        emulated interrupts: wake-ups of host threads sleeping on a queue pair
 * @param bytesSent         bytes the engine passed to TCP
 * @param bytesReceived     bytes the engine read from TCP into anonymous buffers
 * @param socketFailures    connections that ended with an error (reset, refused, ...)
 * @param starvedReads      times a socket could not be read because the pool was empty
 * @param poolStarvations   times the engine found the anonymous pool empty
 * @param eventQueueFull    times an event waited because its queue was full
 * @param requestQueueFull  times a host thread waited because its request queue was full
 * @param freeBuffers       anonymous buffers free at this moment
 */
public record ToeStats(long requests, long eventsPosted, long eventsTaken, long interrupts, long bytesSent,
                       long bytesReceived, long socketFailures, long starvedReads, long poolStarvations,
                       long eventQueueFull, long requestQueueFull, long freeBuffers) {

    /**
     * The sum of two views.
     *
     * @param o the other view
     * @return the sum
     */
    public ToeStats plus(ToeStats o) {
        return new ToeStats(requests + o.requests, eventsPosted + o.eventsPosted, eventsTaken + o.eventsTaken,
                interrupts + o.interrupts, bytesSent + o.bytesSent, bytesReceived + o.bytesReceived,
                socketFailures + o.socketFailures, starvedReads + o.starvedReads, poolStarvations + o.poolStarvations,
                eventQueueFull + o.eventQueueFull, requestQueueFull + o.requestQueueFull, freeBuffers + o.freeBuffers);
    }

    /**
     * What happened between {@code before} and this view (free buffers: this view's).
     *
     * @param before an earlier view
     * @return the difference
     */
    public ToeStats minus(ToeStats before) {
        return new ToeStats(requests - before.requests, eventsPosted - before.eventsPosted,
                eventsTaken - before.eventsTaken, interrupts - before.interrupts, bytesSent - before.bytesSent,
                bytesReceived - before.bytesReceived, socketFailures - before.socketFailures,
                starvedReads - before.starvedReads, poolStarvations - before.poolStarvations,
                eventQueueFull - before.eventQueueFull, requestQueueFull - before.requestQueueFull, freeBuffers);
    }
}

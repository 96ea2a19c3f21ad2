/**
 * The offloaded-sockets personality (seed 001, TOAD's TCP Offload Engine): TCP sockets with a
 * {@link java.net.Socket}-like API whose system calls and kernel copies run on a jwarp device's
 * engine threads. The host/engine interface is the paper's (§III): one request/event queue pair per
 * host thread ({@code HostQueuePair}), a doorbell for requests and an emulated, moderated interrupt
 * for events, cumulative send completion mirrored in the socket ({@link org.jwarp.engine.toe.ToeSocket#bytesSent()}),
 * and anonymous receive buffers shared by an engine thread's sockets ({@code AnonymousPool}). Entry
 * point: {@link org.jwarp.engine.toe.OffloadedSockets#open(org.jwarp.verbs.RdmaDevice)}.
 */
package org.jwarp.engine.toe;

/**
 * The jwarp verbs API: what an application codes against, in the style of OFED libibverbs and
 * librdmacm, for a software iWARP RNIC (RDMAP RFC 5040, DDP RFC 5041, MPA RFC 5044 / RFC 6581,
 * RFC 7306 extensions).
 *
 * <h2>Objects and their owners</h2>
 * <pre>
 * RdmaDevice ── open(DeviceConfig) through a {@link org.jwarp.verbs.spi.RdmaProvider}
 *  ├─ ProtectionDomain ── MemoryRegion (MemorySegment + Access flags + STag)
 *  ├─ CompletionChannel (event notification, interrupt moderation)
 *  ├─ CompletionQueue  ── poll(WorkCompletion[]) / requestNotify(solicitedOnly)
 *  ├─ QueuePair (RC)   ── postSend(SendWr[] , n) / postRecv(RecvWr[], n), QpState machine
 *  └─ ConnectionManager ── listen / connect / accept / reject, CmEvent callbacks
 * </pre>
 *
 * <h2>Threading contract (summary; each type states its own)</h2>
 * <ul>
 *   <li>Setup calls (open, allocPd, registerMemory, createCq, createQp, modify, listen, connect,
 *       accept, reject, close) may be made from any thread; they may block briefly and may
 *       allocate. They throw on misuse ({@link java.lang.IllegalArgumentException} for bad
 *       arguments, {@link java.lang.IllegalStateException} for wrong state).</li>
 *   <li>The data path (post, poll, requestNotify) is single-threaded per object: one thread at a
 *       time posts to a given queue pair's send queue, one to its receive queue, and one thread
 *       polls a given completion queue. It allocates nothing, takes no lock and never throws for a
 *       data-path condition: post methods return a {@link org.jwarp.verbs.PostStatus} code and
 *       failures of posted work become {@link org.jwarp.verbs.WorkCompletion} statuses.</li>
 *   <li>Connection-manager events run on the engine thread that owns the connection (or on the
 *       invoking thread in {@link org.jwarp.verbs.DeviceConfig.ThreadingMode#INVOKER} mode) and
 *       must not block; {@link org.jwarp.verbs.CmEventQueue} hands them to a thread that may.</li>
 * </ul>
 */
package org.jwarp.verbs;

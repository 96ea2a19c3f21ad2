/**
 * The jwarp verbs API: what an application codes against, in the style of OFED libibverbs and
 * librdmacm, for a software iWARP RNIC (RDMAP RFC 5040, DDP RFC 5041, MPA RFC 5044 / RFC 6581,
 * RFC 7306 extensions).
 *
 * <h2>The typical sequence</h2>
 * Open a device, allocate a protection domain, register memory, create a completion queue and a
 * queue pair, connect it through the connection manager, then post work requests and poll their
 * completions. The active side:
 * <pre>{@code
 * try (RdmaDevice dev = RdmaDevice.open(DeviceConfig.defaults());     // ibv_open_device
 *      Arena arena = Arena.ofShared()) {
 *     ProtectionDomain pd = dev.allocPd();                              // ibv_alloc_pd
 *     MemoryRegion mr = pd.registerMemory(arena.allocate(4096),       // ibv_reg_mr
 *             Access.LOCAL_WRITE);
 *     CompletionQueue cq = dev.createCq(64, null);                      // ibv_create_cq
 *     QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build()); // ibv_create_qp, in INIT
 *
 *     InetSocketAddress server = new InetSocketAddress("192.0.2.1", 7174); // the listener's
 *     CmEventQueue events = new CmEventQueue();                         // rdma_cm's event channel
 *     dev.connectionManager().connect(server, qp, ConnectParams.of(null), events); // rdma_connect
 *     CmEvent.Established up = events.expect(CmEvent.Established.class, Duration.ofSeconds(10), dev);
 *     // the peer's private data (up.peerPrivateData()) may advertise its buffer's address and rkey
 *
 *     qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.SEND).signaled(true) // ibv_post_send
 *             .addSge(mr, 0, 64));                                      // returns a PostStatus code
 *     WorkCompletion[] wcs = {new WorkCompletion()};
 *     while (cq.poll(wcs) == 0) {                                       // ibv_poll_cq
 *         Thread.onSpinWait();
 *     }
 *     dev.connectionManager().disconnect(qp);                           // rdma_disconnect
 * }                                                                     // closing the device frees the rest
 * }</pre>
 * The passive side creates its queue pair the same way, posts receives
 * ({@link org.jwarp.verbs.QueuePair#postRecv(org.jwarp.verbs.RecvWr) postRecv}), listens
 * ({@link org.jwarp.verbs.ConnectionManager#listen listen}) and answers each
 * {@link org.jwarp.verbs.CmEvent.ConnectRequest} with
 * {@link org.jwarp.verbs.ConnectionRequest#accept(org.jwarp.verbs.QueuePair, org.jwarp.verbs.AcceptParams) accept}
 * (or {@code reject}).
 * {@link org.jwarp.verbs.CmId} offers the same steps in rdma_cm's id-based form
 * ({@code rdma_resolve_addr}, {@code rdma_resolve_route}, ...). To sleep instead of polling, create
 * the completion queue with a {@link org.jwarp.verbs.CompletionChannel}, arm it with
 * {@link org.jwarp.verbs.CompletionQueue#requestNotify(boolean)} and wait in
 * {@link org.jwarp.verbs.CompletionChannel#await(java.time.Duration)}.
 *
 * <h2>Configuration</h2>
 * {@link org.jwarp.verbs.DeviceConfig} holds what every provider accepts: MPA negotiation and its
 * timeouts ({@link org.jwarp.verbs.MpaTimeouts}), resource limits
 * ({@link org.jwarp.verbs.DeviceLimits}), RFC 7306 and the peer timeout. A provider's own settings
 * (the jwarp engine's threading mode, engine threads, idle strategy, socket I/O layer, CPU pinning
 * and Receive-Side Scaling: its {@code JwarpConfig}) go in one slot beside them, a
 * {@link org.jwarp.verbs.spi.ProviderConfig}; without one the provider uses its defaults, which
 * suit the machine it runs on.
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
 *       invoking thread where the engine runs on its callers' threads) and
 *       must not block; {@link org.jwarp.verbs.CmEventQueue} hands them to a thread that may.</li>
 * </ul>
 */
package org.jwarp.verbs;

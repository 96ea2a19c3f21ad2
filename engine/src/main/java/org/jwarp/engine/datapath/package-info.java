/**
 * The data path of a connection once it runs: {@link org.jwarp.engine.datapath.Connection} keeps its
 * phase and its socket, {@link org.jwarp.engine.datapath.StreamDriver} moves a QP's RDMAP stream
 * between the send queue, the socket and registered memory, {@link org.jwarp.engine.datapath.SocketReceiver}
 * reads FPDUs (straight into the target buffer where it can) and
 * {@link org.jwarp.engine.datapath.GatherFpduSink} writes them gathered from registered memory.
 * Engine thread only; nothing here decides when a connection is visited (that is
 * {@link org.jwarp.engine.runtime.EngineScheduler}'s rule).
 */
package org.jwarp.engine.datapath;

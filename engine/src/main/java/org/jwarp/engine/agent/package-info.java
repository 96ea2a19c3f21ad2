/**
 * Duty-cycle agents (Aeron/Agrona style): an {@link org.jwarp.engine.agent.Agent} is the engine's
 * event loop body (seed 001: "the OE processor keeps on polling for events coming from the
 * network, from the host processors or from an internal timer"), run either by an
 * {@link org.jwarp.engine.agent.AgentRunner} on a dedicated thread or by an
 * {@link org.jwarp.engine.agent.AgentInvoker} on the caller's thread.
 */
package org.jwarp.engine.agent;

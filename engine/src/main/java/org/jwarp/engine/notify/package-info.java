/**
 * Doorbells and interrupt emulation: the two directions of seed 001's host/offload-engine
 * notification. The host "writes a register" to tell the engine that a request is queued
 * ({@link org.jwarp.engine.notify.Doorbell}); the engine posts events and raises an interrupt only
 * when the host asked for one ({@link org.jwarp.engine.notify.CompletionNotifier}), with moderation.
 */
package org.jwarp.engine.notify;

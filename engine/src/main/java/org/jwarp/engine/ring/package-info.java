/**
 * Bounded rings of preallocated slots between threads: seed 001's "descriptors ... stored in rings
 * located in main memory". The application thread copies a work request into a send- or
 * receive-queue slot ({@link org.jwarp.engine.ring.SpscSlotRing}); engine threads copy work
 * completions into completion-queue slots ({@link org.jwarp.engine.ring.MpscSlotRing}). Slots are
 * reused, so a steady stream of operations allocates nothing; ordering is VarHandle
 * acquire/release (docs/design.md: no {@code sun.misc.Unsafe}).
 */
package org.jwarp.engine.ring;

/**
 * Idle strategies: what an engine thread (or an invoker-mode waiter) does when a duty cycle found
 * no work. docs/design.md rule 2: {@code doWork()} never blocks; idling is this package's job.
 */
package org.jwarp.engine.idle;

/**
 * Receive-Side Scaling (seed 004): the Toeplitz hash of a connection's 4-tuple and the indirection
 * table that maps it to an engine thread.
 */
package org.jwarp.engine.rss;

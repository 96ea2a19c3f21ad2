/**
 * Receive-Side Scaling (seed 004): the Toeplitz hash of a connection's 4-tuple, the indirection table
 * that maps it to an engine thread, the device's steering of new connections through them, and the
 * rebalancer that rewrites table entries when engine threads are unevenly loaded.
 */
package org.jwarp.engine.rss;

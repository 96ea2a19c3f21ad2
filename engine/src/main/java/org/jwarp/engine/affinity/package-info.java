/**
 * CPU affinity and the NUMA map, through the FFM API (docs/design.md: no JNI, a clean fallback where
 * the call is unavailable). Seed 001 dedicates processors to the offload engine; pinning an
 * engine thread is this project's version of that partitioning.
 */
package org.jwarp.engine.affinity;

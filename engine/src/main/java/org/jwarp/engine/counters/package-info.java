/**
 * Engine counters and the in-process registry that {@code jwarp stat} will read (docs/design.md rule 9:
 * stable names, readable from outside the data path).
 */
package org.jwarp.engine.counters;

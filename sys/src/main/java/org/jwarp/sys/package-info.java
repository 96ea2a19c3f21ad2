/**
 * What the engine and degen share of the operating system: {@link org.jwarp.sys.NanoClock}, the
 * clock everything that waits on time takes (DESIGN rule 7); {@link org.jwarp.sys.Downcalls}, libc
 * through the FFM API with errno; {@link org.jwarp.sys.Errno}, errno's names for messages;
 * {@link org.jwarp.sys.Epoll} and {@link org.jwarp.sys.EventFd}, the readiness and the wake-up of
 * the engine's system-call I/O drivers.
 */
package org.jwarp.sys;

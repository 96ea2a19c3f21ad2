/**
 * The jwarp provider's connection manager: the rdma_cm-style {@link org.jwarp.verbs.ConnectionManager},
 * listeners and their connection requests, and the MPA exchange of a connection being set up by role
 * (RFC 5044 §7, RFC 6581): {@link org.jwarp.engine.cm.InitiatorSetup} sends the MPA Request,
 * {@link org.jwarp.engine.cm.ResponderSetup} answers it, and {@link org.jwarp.engine.cm.SetupAdmission}
 * bounds what connections may hold while they are set up.
 */
package org.jwarp.engine.cm;

package org.jwarp.stack;

import org.jwarp.verbs.WcStatus;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * The work-completion status for a request the peer terminated, from the Terminate's (layer,
 * type, code), following the mapping documented on {@link WcStatus}: protection errors become
 * {@link WcStatus#REM_ACCESS_ERR}, operation errors {@link WcStatus#REM_OP_ERR}, an STag that
 * cannot be invalidated {@link WcStatus#REM_INV_REQ_ERR}, and LLP/MPA errors
 * {@link WcStatus#FATAL_ERR} (the stream itself failed).
 */
final class TerminateStatus {

    private TerminateStatus() {
    }

    static WcStatus of(int layer, int errorType, int errorCode) {
        switch (layer) {
            case TerminateError.LAYER_RDMAP -> {
                if (errorType == RdmapError.TYPE_REMOTE_PROTECTION) {
                    return errorCode == 0x09 ? WcStatus.REM_INV_REQ_ERR : WcStatus.REM_ACCESS_ERR;
                }
                if (errorType == RdmapError.TYPE_REMOTE_OPERATION) {
                    return errorCode == 0x09 ? WcStatus.REM_INV_REQ_ERR : WcStatus.REM_OP_ERR;
                }
                return WcStatus.REM_OP_ERR;
            }
            case TerminateError.LAYER_DDP -> {
                return errorType == DdpError.TYPE_TAGGED_BUFFER ? WcStatus.REM_ACCESS_ERR : WcStatus.REM_OP_ERR;
            }
            default -> {
                return WcStatus.FATAL_ERR;
            }
        }
    }
}

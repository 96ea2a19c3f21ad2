package org.jwarp.interop;

import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A debugging aid, not part of the suite: repeats one jwarp -> siw cell in a warm JVM until it
 * fails, leaving the VM running for a look at its kernel log. Run with
 * {@code -Pinterop -Djwarp.interop.groups=interop-probe -Dtest=SiwProbe} against a started VM.
 */
@Tag("interop-probe")
class SiwProbe {

    @Test
    void repeatUntilFailure() throws InterruptedException {
        SiwVm vm = SiwVm.locate();
        CellRunner runner = new CellRunner(vm);
        int size = Integer.getInteger("probe.size", 1001);
        int rounds = Integer.getInteger("probe.rounds", 40);
        JwarpMpaConfig config = Boolean.getBoolean("probe.p2p") ? JwarpMpaConfig.V2_RTR_CRC : JwarpMpaConfig.V2_CRC;
        for (int i = 0; i < rounds; i++) {
            CellResult r = runner.run(new Cell("stock", true, config, size, 3, Optional.empty()));
            System.out.println("[probe] round " + i + ": " + r.mark() + " " + r.detail());
            if (!r.good()) {
                System.out.println(r.log());
                return;
            }
        }
    }
}

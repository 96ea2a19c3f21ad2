package org.jwarp.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The matrix plan and table, without the VM. */
class MatrixTest {

    @Test
    void everyVariantMeetsEveryConfigurationInBothDirections() {
        List<Cell> cells = Matrix.cells();
        assertEquals(SiwVm.VARIANTS.size() * (JwarpMpaConfig.CLIENT.size() + JwarpMpaConfig.SERVER.size()) + 3, cells.size());
        for (String v : SiwVm.VARIANTS) {
            assertTrue(cells.stream().anyMatch(c -> c.variant().equals(v) && c.toSiw()));
            assertTrue(cells.stream().anyMatch(c -> c.variant().equals(v) && !c.toSiw()));
        }
        // every size shows up in the rotation, and the sweep has each size in both directions
        for (int size : Matrix.SIZES) {
            assertTrue(cells.stream().anyMatch(c -> c.size() == size), "size " + size);
        }
        assertEquals(2 * Matrix.SIZES.size(), Matrix.sweep().size());
    }

    @Test
    void strictRefusesCrcAndV1CannotRead() {
        assertTrue(Matrix.refusal("strict", true, JwarpMpaConfig.V2_CRC).isPresent());
        assertEquals(Optional.empty(), Matrix.refusal("strict", true, JwarpMpaConfig.V2_NOCRC));
        assertTrue(Matrix.refusal("stock", true, JwarpMpaConfig.V1_NOCRC).isPresent());
        assertEquals(Optional.empty(), Matrix.refusal("mpav1", false, JwarpMpaConfig.V2_RTR_NOCRC));
        assertTrue(Matrix.refusal("strict", false, JwarpMpaConfig.V2_RTR_CRC).isPresent());
    }

    @Test
    void theTableHasARowPerVariantAndDirection() {
        Cell a = new Cell("stock", true, JwarpMpaConfig.V2_CRC, 64, 3, Optional.empty());
        Cell b = new Cell("stock", false, JwarpMpaConfig.V2_RTR_CRC, 23, 3, Optional.empty());
        String t = Matrix.render(List.of(new CellResult(a, CellResult.Outcome.PASS, "", 12.3, ""),
                new CellResult(b, CellResult.Outcome.FAIL, "", 0, "")));
        List<String> lines = t.lines().toList();
        assertEquals(3, lines.size(), t);
        assertTrue(lines.get(1).startsWith("stock    jwarp->siw") && lines.get(1).contains("ok 64B 12/s"), t);
        assertTrue(lines.get(2).startsWith("stock    siw->jwarp") && lines.get(2).contains("FAIL 23B"), t);
    }
}

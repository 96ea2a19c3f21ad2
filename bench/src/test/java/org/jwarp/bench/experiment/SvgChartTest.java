package org.jwarp.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SvgChartTest {

    /** XChart draws text as glyph outlines, each group placed by a translate(x y). */
    private static final Pattern PLACED = Pattern.compile("translate\\((-?[0-9.]+) ");

    @Test
    void aLongTitleStaysInsideThePicture() {
        String svg = new SvgChart("Blast, RDMA WRITE, small messages: one-way time by buffers (seed 003 Fig. 3a, 3c)",
                "outstanding buffers", "one-way time, µs")
                .point("16 B", 1, 6.2).point("16 B", 64, 7.5)
                .point("16 B, post lists", 4, 1.8).point("16 B, post lists", 64, 0.4).render();
        Matcher m = PLACED.matcher(svg);
        int placed = 0;
        while (m.find()) {
            placed++;
            assertFalse(Double.parseDouble(m.group(1)) < 0, "text placed left of the picture: " + m.group());
        }
        assertTrue(placed > 0, "the title and labels are drawn as placed glyphs");
    }
}

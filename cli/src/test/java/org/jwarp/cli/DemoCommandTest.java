package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code jwarp demo --json}: the comparison as one JSON document, every row's figures positive and verified. */
class DemoCommandTest {

    @Test
    @SuppressWarnings("unchecked")
    void theComparisonAsJson() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("demo", "--json");
        assertEquals(0, r.exit(), r.err());
        Map<String, Object> doc = (Map<String, Object>) StrictJson.parse(r.out());
        assertEquals(DemoCommand.JSON_SCHEMA, doc.get("schema"));
        assertEquals(Boolean.TRUE, doc.get("verified"));
        assertEquals("sockets-busypoll", doc.get("sockets"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) doc.get("rows");
        assertEquals(DemoCommand.cases().size(), rows.size());
        for (Map<String, Object> row : rows) {
            for (String side : List.of("jwarp", "sockets", "ratio")) {
                Map<String, Object> f = (Map<String, Object>) row.get(side);
                double median = ((Number) f.get("median")).doubleValue();
                assertTrue(median > 0, row.toString());
                assertEquals(1, ((List<?>) f.get("runs")).size(), row.toString());
            }
        }
        assertEquals("WRITE latency", rows.getFirst().get("test"));
    }
}

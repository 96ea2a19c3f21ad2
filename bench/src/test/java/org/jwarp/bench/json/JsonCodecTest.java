package org.jwarp.bench.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {

    @Test
    void writesEscapedStringsNumbersAndNullsOneFieldPerLine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "a\"b\\c\nd\u0001");
        m.put("i", 42L);
        m.put("d", 2.5);
        m.put("whole", 3.0);
        m.put("nan", Double.NaN);
        m.put("null", null);
        m.put("b", true);
        m.put("l", new ArrayList<>(Arrays.asList(1, "x")));
        m.put("e", List.of());
        m.put("o", Map.of());
        assertEquals("{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n  \"i\": 42,\n  \"d\": 2.5,\n  \"whole\": 3,\n"
                + "  \"nan\": null,\n  \"null\": null,\n  \"b\": true,\n  \"l\": [\n    1,\n    \"x\"\n  ],\n"
                + "  \"e\": [],\n  \"o\": {}\n}", JsonCodec.write(m));
        assertEquals("{\"s\":\"a\\\"b\\\\c\\nd\\u0001\",\"i\":42,\"d\":2.5,\"whole\":3,\"nan\":null,\"null\":null,"
                + "\"b\":true,\"l\":[1,\"x\"],\"e\":[],\"o\":{}}", JsonCodec.line(m));
    }

    @Test
    void aFractionHasSixSignificantDigitsWithoutExponent() {
        assertEquals("0.000123", JsonCodec.line(0.000123));
        assertEquals("1234.57", JsonCodec.line(1234.5678));
        assertEquals("397.5", JsonCodec.line(397.50021999999996));
        assertEquals("12345700", JsonCodec.line(12345678.9));
        assertEquals("123457000000000000000", JsonCodec.line(1.234567e20));
        assertEquals("-0.5", JsonCodec.line(-0.5));
        assertEquals("3", JsonCodec.line(2.9999999));
    }

    record Point(String name, double value, double unknown, long count) {
    }

    @Test
    void aRecordInItsComponentsOrderAndBackWithNullAsNaN() {
        String text = JsonCodec.write(new Point("a", 0.25, Double.POSITIVE_INFINITY, 7));
        assertEquals("{\n  \"name\": \"a\",\n  \"value\": 0.25,\n  \"unknown\": null,\n  \"count\": 7\n}", text);
        Point back = JsonCodec.convert(JsonCodec.read("{\"schema\": \"x/1\", \"name\": \"a\", \"value\": 0.25, "
                + "\"unknown\": null, \"count\": 7, \"later\": 1}", "p", List.of("x/1")), Point.class, "p");
        assertEquals("a", back.name());
        assertEquals(0.25, back.value());
        assertTrue(Double.isNaN(back.unknown()));
        assertEquals(7, back.count());
    }

    @Test
    void aForeignOrUnknownVersionOrBrokenDocumentIsOneLine() {
        List<String> known = List.of("jwarp-perf/1");
        JsonNode ok = JsonCodec.read("{\"schema\": \"jwarp-perf/1\"}", "f.json", known);
        assertEquals("jwarp-perf/1", ok.get("schema").asText());
        assertEquals("f.json is jwarp-perf/2, a version this jwarp does not read; expected jwarp-perf/1",
                error("{\"schema\": \"jwarp-perf/2\"}", known));
        assertEquals("f.json is a other-tool/3 document; expected jwarp-perf/1",
                error("{\"schema\": \"other-tool/3\"}", known));
        assertEquals("f.json is JSON but no jwarp document (it names no \"schema\"); expected jwarp-perf/1",
                error("[1, 2]", known));
        assertEquals("f.json is empty; expected a jwarp-perf/1 document", error("  ", known));
        String broken = error("{\"schema\": ", known);
        assertTrue(broken.startsWith("f.json is not JSON (") && broken.endsWith("; expected a jwarp-perf/1 document"),
                broken);
        assertEquals(1, broken.lines().count(), broken);
        assertEquals("f.json is a x/1 document; expected one of a/1, b/1", error("{\"schema\": \"x/1\"}",
                List.of("a/1", "b/1")));
    }

    private static String error(String text, List<String> known) {
        return assertThrows(IllegalArgumentException.class, () -> JsonCodec.read(text, "f.json", known)).getMessage();
    }
}

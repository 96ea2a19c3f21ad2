package org.jwarp.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void writesEscapedStringsNumbersAndNulls() {
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
        assertEquals("{\n  \"s\": \"a\\\"b\\\\c\\nd\\u0001\",\n  \"i\": 42,\n  \"d\": 2.5,\n  \"whole\": 3,\n"
                + "  \"nan\": null,\n  \"null\": null,\n  \"b\": true,\n  \"l\": [\n    1,\n    \"x\"\n  ],\n"
                + "  \"e\": []\n}", Json.write(m));
    }

    @Test
    void smallAndLargeNumbers() {
        assertEquals("0.000123", Json.write(0.000123));
        assertEquals("1234.57", Json.write(1234.5678));
        assertEquals("1.23457e+20", Json.write(1.234567e20));
    }
}

package org.jwarp.bench.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

/**
 * Every JSON document jwarp writes or reads (docs/json.md) goes through here: records, maps and
 * lists in, text out, and back. Three rules hold for numbers: a value that is not finite (NaN:
 * unknown) is written as {@code null} and read back as NaN; a whole number is written without a
 * fraction; any other has six significant digits, without exponent (measurements carry no more). Documents are written one field per line, two spaces a level, {@code "key": value};
 * {@link #line} writes the same on one line. Unknown fields are ignored when reading, so that a
 * reader of version 1 of a schema also reads its later additions.
 */
public final class JsonCodec {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new SimpleModule("jwarp-numbers")
                    .addSerializer(Double.class, new FiniteDoubles())
                    .addSerializer(Double.TYPE, new FiniteDoubles())
                    .addDeserializer(Double.TYPE, new NumberDeserializers.DoubleDeserializer(Double.TYPE, Double.NaN)))
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final ObjectWriter PRETTY = MAPPER.writer(layout());

    private static final ObjectWriter LINE = MAPPER.writer();

    private JsonCodec() {
    }

    /** {@code value} as a document: one field or element per line. */
    public static String write(Object value) {
        try {
            return PRETTY.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName() + ": "
                    + e.getOriginalMessage(), e);
        }
    }

    /** {@code value} on one line (a JSON line). */
    public static String line(Object value) {
        try {
            return LINE.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName() + ": "
                    + e.getOriginalMessage(), e);
        }
    }

    /**
     * The JSON value in {@code text}, whatever it is: for the lines jwarp's own processes exchange,
     * which name no schema.
     *
     * @throws IllegalArgumentException one line, if {@code text} is not JSON
     */
    public static JsonNode tree(String text, String source) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + " is not JSON (" + e.getOriginalMessage().lines().findFirst()
                    .orElse("") + ", line " + e.getLocation().getLineNr() + "): " + text.strip());
        }
    }

    /**
     * The document in {@code text}, whose {@code "schema"} must be one of {@code known}.
     *
     * @param source what the text is, for the error (a file, "the write-lat client's output")
     * @throws IllegalArgumentException one line: what the text is and what was expected
     */
    public static JsonNode read(String text, String source, List<String> known) {
        String expected = known.size() == 1 ? known.getFirst() : "one of " + String.join(", ", known);
        JsonNode doc;
        try {
            doc = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + " is not JSON (" + e.getOriginalMessage().lines().findFirst()
                    .orElse("") + ", line " + e.getLocation().getLineNr() + "); expected a " + expected + " document");
        }
        if (doc == null || doc.isMissingNode()) {
            throw new IllegalArgumentException(source + " is empty; expected a " + expected + " document");
        }
        JsonNode schema = doc.get("schema");
        if (schema == null || !schema.isTextual()) {
            throw new IllegalArgumentException(source + " is JSON but no jwarp document (it names no \"schema\"); "
                    + "expected " + expected);
        }
        String id = schema.asText();
        if (known.contains(id)) {
            return doc;
        }
        String name = id.replaceFirst("/[^/]*$", "");
        boolean otherVersion = known.stream().anyMatch(k -> k.replaceFirst("/[^/]*$", "").equals(name));
        throw new IllegalArgumentException(source + (otherVersion ? " is " + id + ", a version this jwarp does not read"
                : " is a " + id + " document") + "; expected " + expected);
    }

    /** {@code node} as a {@code type} (a record of the schema). */
    public static <T> T convert(JsonNode node, Class<T> type, String source) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            String why = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            throw new IllegalArgumentException(source + " does not have the fields of its schema: "
                    + why.lines().findFirst().orElse(""));
        }
    }

    /** The written layout: {@code "key": value}, a field or element per line, {@code {}} and {@code []} when empty. */
    private static DefaultPrettyPrinter layout() {
        DefaultIndenter twoSpaces = new DefaultIndenter("  ", "\n");
        return new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator(""))
                .withObjectIndenter(twoSpaces)
                .withArrayIndenter(twoSpaces);
    }

    /** NaN and the infinities as {@code null}; a whole number without fraction; else six significant digits. */
    private static final class FiniteDoubles extends StdSerializer<Double> {

        private static final MathContext SIGNIFICANT = new MathContext(6, RoundingMode.HALF_UP);

        FiniteDoubles() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            double d = value;
            if (!Double.isFinite(d)) {
                gen.writeNull();
            } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                gen.writeNumber((long) d);
            } else {
                gen.writeNumber(BigDecimal.valueOf(d).round(SIGNIFICANT).stripTrailingZeros().toPlainString());
            }
        }
    }
}

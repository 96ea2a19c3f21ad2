package org.jwarp.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jwarp.bench.json.JsonCodec;
import org.junit.jupiter.api.Test;

/** The RSS experiment's results.json as the hand-written writer before Jackson wrote it: read, and written again the same. */
class RssDocumentTest {

    @Test
    void anOldResultsJsonReadsAndWritesAgainAsItWas() throws Exception {
        Path sample = Path.of(RssDocumentTest.class.getResource("/old-format/rss/results.json").toURI());
        String old = Files.readString(sample);
        RssDocument doc = JsonCodec.convert(JsonCodec.read(old, sample.toString(), List.of(RssReport.SCHEMA)),
                RssDocument.class, sample.toString());
        assertEquals(16384, doc.messageBytes());
        assertEquals(4, doc.results().size());
        assertEquals("rss", doc.results().getFirst().steering());
        assertEquals(0.112269, doc.results().getFirst().gbps());
        assertEquals(old, JsonCodec.write(doc) + "\n");
    }
}

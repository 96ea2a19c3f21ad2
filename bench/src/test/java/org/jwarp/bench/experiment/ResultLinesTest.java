package org.jwarp.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A side process's result lines: printed among other output, read back as the side's record. */
class ResultLinesTest {

    @Test
    void resultsAmongOtherLinesReadBackInOrder() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        out.println("listening on port 4791");
        ResultLines.print(out, new RendezvousSide.Result("eager", 1024, 0, 100, 21.5, 40.25, 19.0, 123_000, 456_000));
        ResultLines.print(out, new RendezvousSide.Result("read", 1024, 0, 100, Double.NaN, 40.25, 19.0, 1, 2));
        out.println("done");
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("\n{\"result\":{\"protocol\":\"eager\",\"size\":1024,\"repeat\":0,\"count\":100,"
                + "\"medianUs\":21.5,\"p99Us\":40.25,\"minUs\":19,\"serverAppNs\":123000,\"serverEngineNs\":456000}}\n"),
                text);
        List<RendezvousSide.Result> rs = ResultLines.all(text, RendezvousSide.Result.class, "sender");
        assertEquals(new RendezvousSide.Result("eager", 1024, 0, 100, 21.5, 40.25, 19.0, 123_000, 456_000), rs.get(0));
        assertTrue(Double.isNaN(rs.get(1).medianUs()), "NaN travels as null and back");
        assertNull(ResultLines.parse("listening on port 4791", RendezvousSide.Result.class, "sender"));
    }

    @Test
    void noResultOrABrokenOneIsOneLine() {
        IOException none = assertThrows(IOException.class, () -> ResultLines.all("the side failed: x\n",
                ProgressSide.Result.class, "progress client"));
        assertEquals("the progress client printed no result: the side failed: x", none.getMessage());
        IllegalArgumentException broken = assertThrows(IllegalArgumentException.class, () -> ResultLines.all(
                "{\"result\": {\"medianUs\": \"fast\"}}\n", ProgressSide.Result.class, "progress client"));
        assertTrue(broken.getMessage().startsWith("the progress client's result line does not have the fields of "
                + "its schema: "), broken.getMessage());
        assertEquals(1, broken.getMessage().lines().count(), broken.getMessage());
    }
}

package org.jwarp.bench.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

class SvgChartTest {

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }

    private static List<Element> all(Document d, String tag) {
        NodeList n = d.getElementsByTagName(tag);
        List<Element> out = new ArrayList<>();
        for (int i = 0; i < n.getLength(); i++) {
            out.add((Element) n.item(i));
        }
        return out;
    }

    @Test
    void everyWordIsTextAndALongTitleStaysInsideThePicture() throws Exception {
        String title = "Blast, RDMA WRITE, small messages: one-way time by buffers (seed 003 Fig. 3a, 3c) and more words";
        String svg = new SvgChart(title, "outstanding buffers", "one-way time, µs")
                .point("16 B", 1, 6.2).point("16 B", 64, 7.5)
                .point("16 B, post lists", 4, 1.8).point("16 B, post lists", 64, 0.4).render();
        Document d = parse(svg);
        assertEquals("svg", d.getDocumentElement().getTagName());
        assertFalse(svg.contains("<!DOCTYPE"), "standalone: no external DTD");
        int width = Integer.parseInt(d.getDocumentElement().getAttribute("width"));
        List<String> words = new ArrayList<>();
        for (Element t : all(d, "text")) {
            words.add(t.getTextContent());
            double x = Double.parseDouble(t.getAttribute("x"));
            double w = SvgText.width(t.getTextContent(), Double.parseDouble(t.getAttribute("font-size")));
            String anchor = t.getAttribute("text-anchor");
            double from = anchor.equals("middle") ? x - w / 2 : anchor.equals("end") ? x - w : x;
            if (t.getAttribute("transform").isEmpty()) {
                assertTrue(from >= 0 && from + w <= width, "text outside the picture: " + t.getTextContent()
                        + " from " + from + " to " + (from + w));
            }
        }
        assertEquals(title, String.join(" ", words.subList(0, 2)), "the long title, on two lines: " + words);
        for (String w : List.of("outstanding buffers", "one-way time, µs", "16 B", "16 B, post lists", "1", "4", "64")) {
            assertTrue(words.contains(w), w + " is a text element: " + words);
        }
        assertEquals(title, all(d, "title").getFirst().getTextContent());
    }

    @Test
    void pointsFallWhereTheirValuesSayOnALogarithmicXAndALinearY() throws Exception {
        String svg = new SvgChart("t", "x", "y").point("a", 1, 0).point("a", 10, 50).point("a", 100, 100).render();
        Document d = parse(svg);
        List<Element> dots = all(d, "circle");
        assertEquals(3 + 1, dots.size(), "a marker per point, one in the legend");
        double x0 = Double.parseDouble(dots.get(0).getAttribute("cx"));
        double x1 = Double.parseDouble(dots.get(1).getAttribute("cx"));
        double x2 = Double.parseDouble(dots.get(2).getAttribute("cx"));
        assertEquals(x1 - x0, x2 - x1, 0.2, "decades equally spaced");
        double y0 = Double.parseDouble(dots.get(0).getAttribute("cy"));
        double y1 = Double.parseDouble(dots.get(1).getAttribute("cy"));
        double y2 = Double.parseDouble(dots.get(2).getAttribute("cy"));
        assertEquals(y0 - y1, y1 - y2, 0.2, "y linear");
        assertTrue(y2 < y0, "up is larger");
        List<String> words = all(d, "text").stream().map(Element::getTextContent).toList();
        assertTrue(words.containsAll(List.of("1", "10", "100", "0", "100")), words.toString());
    }

    @Test
    void manySeriesStaySmallAndDistinct() throws Exception {
        SvgChart c = new SvgChart("Wake-ups per second by connections", "connections", "wake-ups per second");
        for (int s = 0; s < 8; s++) {
            for (int n = 1; n <= 1024; n *= 2) {
                c.point("2 engines, round-robin, moderated " + s, n, 1000.0 / n + s);
            }
        }
        String svg = c.render();
        assertTrue(svg.length() < 20_000, "8 series of 11 points in " + svg.length() + " characters");
        Document d = parse(svg);
        assertEquals(8, all(d, "path").stream().filter(p -> p.getAttribute("stroke-width").equals("1.8")
                && p.getAttribute("d").contains("L")).count(), "a line per series");
        assertTrue(words(d).contains("1Ki"), "sizes in Ki: " + words(d));
        // names this long go below the plot, two to a row: the picture grows by four rows
        int height = Integer.parseInt(d.getDocumentElement().getAttribute("height"));
        assertEquals(400 + 4 * 17 + 6, height);
        for (Element t : all(d, "text")) {
            double y = Double.parseDouble(t.getAttribute("y"));
            assertTrue(y > 0 && y < height, t.getTextContent() + " at y " + y);
        }
    }

    @Test
    void aLogarithmicYAndNoData() throws Exception {
        Document d = parse(new SvgChart("t", "x", "y").logY().point("a", 1, 1).point("a", 2, 1000).render());
        assertTrue(words(d).containsAll(List.of("1", "10", "100", "1000")), words(d).toString());
        assertTrue(words(parse(new SvgChart("t", "x", "y").render())).contains("no data"));
        assertThrowsOnZeroX();
    }

    private static void assertThrowsOnZeroX() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new SvgChart("t", "x", "y").point("a", 0, 1));
        assertEquals("a point needs x > 0 on the logarithmic axis, not 0.0", e.getMessage());
    }

    private static List<String> words(Document d) {
        return all(d, "text").stream().map(Element::getTextContent).toList();
    }
}

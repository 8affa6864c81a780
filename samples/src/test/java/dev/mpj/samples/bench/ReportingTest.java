package dev.mpj.samples.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportingTest {
    @Test
    void tablePrintsOsuLayoutAndCsv() {
        BenchTable t = new BenchTable("Size", "Latency (us)").row(0, 1.5).row(1048576, 123.456);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        t.print(new PrintStream(buf, true, StandardCharsets.UTF_8));
        List<String> lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.get(0).matches("# Size +Latency \\(us\\)"), lines.get(0));
        assertTrue(lines.get(1).startsWith("0 ") && lines.get(1).endsWith("1.50"), lines.get(1));
        assertTrue(lines.get(2).startsWith("1048576") && lines.get(2).endsWith("123.46"), lines.get(2));
        assertEquals("Size,Latency (us)\n0,1.50000\n1048576,123.456\n", t.csv());
    }

    @Test
    void rowOfWrongWidthIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BenchTable("a", "b").row(1));
    }

    @Test
    void chartDrawsOnePolylinePerSeriesWithLegend() {
        String svg = new SvgChart("Init time", "ranks", "ms").logX()
                .series("simple", new double[]{2, 4, 8}, new double[]{10, 20, 45})
                .series("roots", new double[]{2, 4, 8}, new double[]{9, 12, 15}).svg();
        assertTrue(svg.startsWith("<svg"));
        assertEquals(2, svg.split("<polyline").length - 1);
        assertTrue(svg.contains(">simple</text>") && svg.contains(">roots</text>"));
    }

    @Test
    void logTicksArePowersOfTen() {
        assertEquals(List.of(1.0, 10.0, 100.0, 1000.0), SvgChart.ticks(new double[]{1, 1000}, true));
    }
}

package dev.mpj.samples.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
    void chartIsAPngWithOneLinePerSeries(@TempDir Path dir) throws Exception {
        LineChart chart = new LineChart("Init time", "ranks", "ms").logX()
                .series("simple", new double[]{2, 4, 8}, new double[]{10, 20, 45})
                .series("roots", new double[]{2, 4, 8}, new double[]{9, 12, 15});
        Path png = dir.resolve("init.png");
        chart.write(png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(800, image.getWidth());
        assertEquals(480, image.getHeight());
        assertEquals(List.of("simple", "roots"), chart.seriesNames());
    }

    @Test
    void logAxisLeavesOutPointsItCannotShow() {
        LineChart chart = new LineChart("t", "x", "y").logY()
                .series("some", new double[]{1, 2, 3}, new double[]{0, 5, 6})
                .series("none", new double[]{1}, new double[]{-1});
        assertEquals(List.of("some"), chart.seriesNames());
    }

    @Test
    void chartRefusesSeriesOfUnequalLengthAndOtherFormats(@TempDir Path dir) {
        LineChart chart = new LineChart("t", "x", "y");
        assertThrows(IllegalArgumentException.class, () -> chart.series("a", new double[]{1, 2}, new double[]{1}));
        assertThrows(IllegalArgumentException.class, () -> chart.write(dir.resolve("chart.gif")));
    }
}

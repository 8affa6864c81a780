package dev.mpj.samples.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OsuReportTest {
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);

    private List<String> lines() {
        return buf.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void fullTablePrintsEveryColumnAlignedAndIterationsWithoutDecimals() {
        OsuReport r = new OsuReport("OSU MPI-style Allreduce Latency Test", true,
                List.of("Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations"),
                List.of("avg_us", "min_us", "max_us", "iterations"), out);
        r.header();
        r.row(1024, 12.345, 10.0, 15.5, 100);
        List<String> lines = lines();
        assertEquals("# OSU MPI-style Allreduce Latency Test", lines.get(0));
        assertEquals(List.of("#", "Size", "Avg", "Latency(us)", "Min", "Latency(us)", "Max", "Latency(us)",
                "Iterations"), List.of(lines.get(1).trim().split(" +")));
        assertEquals(List.of("1024", "12.35", "10.00", "15.50", "100"), List.of(lines.get(2).trim().split(" +")));
        assertEquals(lines.get(1).length(), lines.get(2).length(), "values right-aligned under their headings");
    }

    @Test
    void csvHasTheSameColumnsAsTheTable() throws Exception {
        OsuReport r = new OsuReport("t", true, List.of("Avg Latency(us)", "Iterations"), List.of("avg_us", "iterations"),
                out);
        r.row(4, 1.5, 1000);
        r.row(8, 2.25, 1000);
        buf.reset();
        r.csv("-");
        assertEquals("size,avg_us,iterations\n4,1.500,1000\n8,2.250,1000\n", buf.toString(StandardCharsets.UTF_8));
    }

    @Test
    void tableWithoutSizesHasNoSizeColumn() throws Exception {
        OsuReport r = new OsuReport("OSU MPI-style Barrier Latency Test", false, List.of("Avg Latency(us)"),
                List.of("avg_us"), out);
        r.header();
        r.unsizedRow(3.5);
        r.csv("-");
        List<String> lines = lines();
        assertEquals(List.of("#", "Avg", "Latency(us)"), List.of(lines.get(1).split(" +")));
        assertEquals("3.50", lines.get(2).trim());
        assertEquals(List.of("avg_us", "3.500"), lines.subList(3, 5));
    }

    @Test
    void rowOfTheWrongShapeIsRefused() {
        OsuReport sized = new OsuReport("t", "Latency (us)", "latency_us", out);
        assertThrows(IllegalArgumentException.class, () -> sized.row(4, 1.0, 2.0));
        assertThrows(IllegalStateException.class, () -> sized.unsizedRow(1.0));
        OsuReport unsized = new OsuReport("t", false, List.of("a"), List.of("a"), out);
        assertThrows(IllegalStateException.class, () -> unsized.row(4, 1.0));
    }
}

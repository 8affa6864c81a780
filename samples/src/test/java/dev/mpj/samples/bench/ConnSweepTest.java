package dev.mpj.samples.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConnSweepTest {
    private static final String HEADER = String.join(",", ConnBench.COLUMNS);

    private static String row(String mode, double initMs, double firstMs) {
        return mode + ",16,4,alltoall,64," + initMs + "," + firstMs + ",1.5,1.2,2,12,4.5,0,0,0";
    }

    @Test
    void readsTheRowsOfConnbenchsCsvAndSkipsItsTable() {
        String out = "# connbench: mode eager, np 16 on 4 nodes\n# mode  np  pattern\neager  16  alltoall  1.00\n"
                + HEADER + "\n" + row("eager", 100, 7) + "\n";

        List<Map<String, String>> rows = ConnSweep.readCsv(out);

        assertEquals(1, rows.size());
        assertEquals("eager", rows.get(0).get("mode"));
        assertEquals("100.0", rows.get(0).get("init_ms"));
    }

    @Test
    void medianIsTakenPerColumnOverTheRepetitions() {
        List<Map<String, String>> runs = ConnSweep.readCsv(HEADER + "\n" + row("eager", 300, 5) + "\n"
                + row("eager", 100, 9) + "\n" + row("eager", 200, 7) + "\n");

        Map<String, String> median = ConnSweep.median(runs);

        assertEquals(200, Double.parseDouble(median.get("init_ms")));
        assertEquals(7, Double.parseDouble(median.get("first_ms")));
        assertEquals("alltoall", median.get("pattern"));
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        List<Map<String, String>> runs = ConnSweep.readCsv(HEADER + "\n" + row("ondemand", 100, 1) + "\n"
                + row("ondemand", 400, 3) + "\n");

        assertEquals(250, Double.parseDouble(ConnSweep.median(runs).get("init_ms")));
    }
}

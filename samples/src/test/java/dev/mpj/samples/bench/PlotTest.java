package dev.mpj.samples.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlotTest {
    @Test
    void quotedFieldsKeepTheirCommasAndQuotes() {
        assertEquals(List.of("a", "b,c", "say \"hi\"", ""), CsvTable.fields("a,\"b,c\",\"say \"\"hi\"\"\","));
    }

    @Test
    void everyNumericColumnBesidesXIsALine(@TempDir Path dir) throws Exception {
        Path csv = Files.writeString(dir.resolve("lat.csv"), "Size,Latency (us),note\n1,0.5,a\n2,0.6,b\n");
        LineChart chart = Plot.chart(CsvTable.read(csv), null, null, null, false, false, "t");
        assertEquals(List.of("Latency (us)"), chart.seriesNames());
    }

    @Test
    void byColumnSplitsTheRowsIntoOneLinePerValue(@TempDir Path dir) throws Exception {
        Path csv = Files.writeString(dir.resolve("conn.csv"),
                "mode,np,init_ms,first_ms\neager,4,100,10\nondemand,4,80,30\neager,8,200,20\nondemand,8,150,60\n");
        LineChart chart = Plot.chart(CsvTable.read(csv), "np", List.of("init_ms"), "mode", false, true, "t");
        assertEquals(List.of("eager", "ondemand"), chart.seriesNames());
    }

    @Test
    void writesAnSvgAndNamesAMissingColumn(@TempDir Path dir) throws Exception {
        Path csv = Files.writeString(dir.resolve("x.csv"), "x,y\n1,2\n2,4\n");
        Plot.main(new String[] {csv.toString(), dir.resolve("x.svg").toString(), "--logx"});
        assertTrue(Files.readString(dir.resolve("x.svg")).contains("<svg"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Plot.chart(CsvTable.read(csv), "x", List.of("z"), null, false, false, "t"));
        assertTrue(e.getMessage().contains("no column 'z'"), e.getMessage());
    }
}

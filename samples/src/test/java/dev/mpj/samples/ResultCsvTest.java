package dev.mpj.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ResultCsvTest {
    @Test
    void runsAccumulateUnderOneHeader(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub/ft.csv");
        ResultCsv.write(file.toString(), List.of("class", "np", "mops"), List.of("S", 2, 123.4567891));
        ResultCsv.write(file.toString(), List.of("class", "np", "mops"), List.of("W", 4, 1.5));
        assertEquals(List.of("class,np,mops", "S,2,123.457", "W,4,1.50000"), Files.readAllLines(file));
    }

    @Test
    void targetIsTheValueAfterCsv() {
        assertEquals("-", ResultCsv.target(new String[] {"--class", "S", "--csv", "-"}));
        assertNull(ResultCsv.target(new String[] {"--class", "S"}));
    }
}

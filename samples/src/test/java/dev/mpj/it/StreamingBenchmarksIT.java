package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The message-rate and unexpected-storm benchmarks, briefly, over shared memory and over TCP between 2 pretend
 * nodes: {@code msgrate} on 4 ranks (two pairs) prints one row per size whose MB/s is its message rate times the
 * size, and {@code storm} receives every one of its messages in order (the program checks each index) and prints
 * its count with positive times, then the same row as CSV.
 */
@Timeout(120)
@Tag("multi-jvm")
class StreamingBenchmarksIT {
    @ParameterizedTest(name = "fake nodes {0}")
    @ValueSource(ints = {1, 2})
    void messageRateSumsThePairsRatesPerSize(int fakeNodes) {
        Job.Result r = Job.np(4).launcherOptions("--fake-nodes", Integer.toString(fakeNodes)).run("msgrate", "-m", "8:16", "-i", "20", "-x", "2");
        assertEquals(0, r.exitCode(), r::toString);
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).contains("2 pair(s), window 64"), r::toString);
        assertEquals("# Size|MB/s|Messages/s", lines.get(1).replaceAll("\\s{2,}", "|"), r::toString);
        int size = 8;
        for (String row : lines.subList(2, lines.size())) {
            String[] f = row.trim().split(" +");
            assertEquals(size, Integer.parseInt(f[0]), row);
            double mbs = Double.parseDouble(f[1]);
            double rate = Double.parseDouble(f[2]);
            assertTrue(rate > 0, row);
            assertEquals(rate * size / 1e6, mbs, 0.01 + mbs * 1e-3, row);
            size *= 2;
        }
        assertEquals(32, size, r::toString);
    }

    @ParameterizedTest(name = "fake nodes {0}")
    @ValueSource(ints = {1, 2})
    void stormDeliversEveryMessageInOrderToTheWokenRank(int fakeNodes) {
        int count = 20_000;
        Job.Result r = Job.np(2).launcherOptions("--fake-nodes", Integer.toString(fakeNodes))
                .run("storm", "-n", Integer.toString(count), "-s", "300", "--csv", "-");
        assertEquals(0, r.exitCode(), r::toString);
        List<String> lines = r.out().lines().toList();
        assertEquals("#|Messages|Receive (s)|Send (s)|Receive CPU (s)|Send CPU (s)|Receive JIT (s)|Send JIT (s)", lines.get(1).replaceAll("\\s{2,}", "|"), r::toString);
        String[] f = lines.get(2).trim().split(" +");
        assertEquals(count, Integer.parseInt(f[0]), r::toString);
        assertTrue(Double.parseDouble(f[1]) > 0 && Double.parseDouble(f[2]) > 0 && Double.parseDouble(f[3]) > 0
                && Double.parseDouble(f[4]) > 0 && Double.parseDouble(f[5]) >= 0 && Double.parseDouble(f[6]) >= 0,
                r::toString);
        assertEquals("messages,receive_s,send_s,receive_cpu_s,send_cpu_s,receive_jit_s,send_jit_s", lines.get(3), r::toString);
        assertTrue(lines.get(4).startsWith(count + ","), r::toString);
    }
}

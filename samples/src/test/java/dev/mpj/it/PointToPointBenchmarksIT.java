package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bw} and {@code latency}, briefly, from heap arrays and from {@code MPI.Alloc_mem} memory, over shared memory
 * and over TCP between 2 pretend nodes: each prints a positive figure for every size of its sweep, through eager and
 * rendezvous sizes, and with {@code --buffer alloc-mem} how many receives were copied straight out of the peer's
 * memory: some over shared memory, where that path applies, none over TCP.
 */
@Timeout(120)
@Tag("multi-jvm")
class PointToPointBenchmarksIT {
    private static final Pattern COPIED = Pattern.compile(
            "^# (\\d+) receives copied out of the peer's Alloc_mem memory$", Pattern.MULTILINE);
    private static final int MIN = 1024;

    /**
     * {@code max}: over TCP a window of 1 MiB sends from direct memory needs more direct memory than the test's small
     * rank heap allows, so the TCP rows stop at 256 KiB, still above the eager threshold.
     */
    @ParameterizedTest(name = "{0} --buffer {1}, fake nodes {2}, up to {3} B")
    @CsvSource({"bw, heap, 1, 1048576", "bw, alloc-mem, 1, 1048576", "bw, alloc-mem, 2, 262144",
            "latency, heap, 1, 1048576", "latency, alloc-mem, 1, 1048576", "latency, alloc-mem, 2, 262144"})
    void everySizeHasAFigureAndAllocMemIsCopiedOnceOverSharedMemory(String sample, String buffer, int fakeNodes,
                                                                     int max) {
        Job.Result r = Job.np(2).launcherOptions("--fake-nodes", Integer.toString(fakeNodes))
                .run(sample, "-m", MIN + ":" + max, "-i", "20", "-x", "2", "--buffer", buffer);
        assertEquals(0, r.exitCode(), r::toString);
        List<String> rows = r.out().lines().filter(l -> !l.startsWith("#")).toList();
        int size = MIN;
        for (String row : rows) {
            String[] f = row.trim().split(" +");
            assertEquals(size, Integer.parseInt(f[0]), r::toString);
            assertTrue(Double.parseDouble(f[1]) > 0, row);
            size *= 2;
        }
        assertEquals(2 * max, size, r::toString);
        Matcher m = COPIED.matcher(r.out());
        if (buffer.equals("heap")) {
            assertFalse(m.find(), r::toString);
        } else {
            assertTrue(m.find(), r::toString);
            long copied = Long.parseLong(m.group(1));
            assertTrue(fakeNodes == 1 ? copied > 0 : copied == 0, r::toString);
        }
    }
}

package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * mpjrun binds each rank to a CPU of its own when the ranks do not outnumber the CPUs it may run on, and not when
 * told {@code --bind-to none} or when they do; a bound job's collectives and finalize complete.
 */
@Timeout(120)
@Tag("multi-jvm")
class CpuBindingIT {
    /** The CPUs this JVM, and so the mpjrun it starts, may run on. */
    private static String allowed() throws IOException {
        return CpuProbeProgram.allowedCpus();
    }

    private static int allowedCount() {
        return Runtime.getRuntime().availableProcessors();
    }

    @Test
    void eachRankOfAJobThatFitsRunsOnACpuOfItsOwn() throws IOException {
        assumeTrue(allowedCount() >= 2, "needs two CPUs");
        Job.Result r = Job.np(2).timeout(90).run(CpuProbeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        Set<String> cpus = new HashSet<>();
        for (int rank = 0; rank < 2; rank++) {
            String line = lineOf(r, rank);
            String cpu = line.split(" ")[3];
            assertTrue(cpu.matches("[0-9]+"), () -> "one CPU: " + line);
            cpus.add(cpu);
            assertTrue(line.endsWith(" nodeCpus " + allowedCount() + " sum 1"), () -> line + "\n" + r);
        }
        assertEquals(2, cpus.size(), r::toString);
    }

    @Test
    void bindToNoneLeavesEveryRankOnEveryCpu() throws IOException {
        Job.Result r = Job.np(2).launcherOptions("--bind-to", "none").timeout(90).run(CpuProbeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < 2; rank++) {
            assertEquals("rank " + rank + " cpus " + allowed() + " nodeCpus null sum 1", lineOf(r, rank), r::toString);
        }
    }

    @Test
    void ranksThatOutnumberTheCpusStayFreeToMove() throws IOException {
        int np = allowedCount() + 1;
        assumeTrue(np <= 8, "a job larger than this suite runs");
        Job.Result r = Job.np(np).launcherOptions("--oversubscribe").timeout(100).run(CpuProbeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        int sum = np * (np - 1) / 2;
        for (int rank = 0; rank < np; rank++) {
            assertEquals("rank " + rank + " cpus " + allowed() + " nodeCpus null sum " + sum, lineOf(r, rank),
                    r::toString);
        }
    }

    private static String lineOf(Job.Result r, int rank) {
        return r.out().lines().filter(l -> l.startsWith("rank " + rank + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no line of rank " + rank + "\n" + r));
    }
}

package dev.mpj.samples.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessCpuTest {
    @Test
    void countsTheCpuThisProcessSpends() {
        double before = ProcessCpu.millis();
        assertTrue(before > 0, "a running JVM has used some CPU: " + before);
        long end = System.nanoTime() + 50_000_000;
        long spins = 0;
        while (System.nanoTime() < end) {
            spins++;
        }
        double after = ProcessCpu.millis();
        assertTrue(after > before, "50 ms of spinning (" + spins + " loops) adds CPU: " + before + " -> " + after);
    }
}

package dev.mpj.samples.bench;

import dev.mpj.samples.bench.BenchOptions.Accepts;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOptionsTest {
    private static BenchOptions parse(EnumSet<Accepts> accepts, String... args) {
        return BenchOptions.parse(args, "bench", 4, 1 << 20, 1000, 200, accepts);
    }

    @Test
    void defaultsApplyWhenNoOptionIsGiven() {
        BenchOptions o = parse(EnumSet.of(Accepts.SIZES));
        assertEquals(List4.of(4, 1 << 20, 1000, 200), List4.of(o.minSize, o.maxSize, o.iterations, o.warmup));
        assertFalse(o.full);
    }

    @Test
    void rangeIterationsWarmupAndFullAreRead() {
        BenchOptions o = parse(EnumSet.of(Accepts.SIZES, Accepts.FULL), "-m", "8:64", "-i", "10", "-x", "2", "-f");
        assertEquals(List4.of(8, 64, 10, 2), List4.of(o.minSize, o.maxSize, o.iterations, o.warmup));
        assertTrue(o.full);
    }

    @Test
    void largeMessagesGetATenthOfTheIterationsAndWarmup() {
        BenchOptions o = parse(EnumSet.of(Accepts.SIZES), "-i", "1000", "-x", "200");
        assertEquals(1000, o.iterationsFor(8192));
        assertEquals(100, o.iterationsFor(16384));
        assertEquals(20, o.warmupFor(16384));
    }

    @Test
    void fullReportIsRefusedByABenchmarkThatDoesNotDeclareIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(EnumSet.of(Accepts.SIZES), "-f"));
        assertTrue(e.getMessage().contains("unknown option -f"), e.getMessage());
        assertFalse(e.getMessage().contains("[-f]"), "usage names only what the benchmark takes");
    }

    @Test
    void sizesAreRefusedByABenchmarkWithoutMessages() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(EnumSet.of(Accepts.FULL), "-m", "1024"));
        assertTrue(e.getMessage().contains("usage: bench [-f] [-i ITERATIONS]"), e.getMessage());
    }

    @Test
    void badValuesAreRefusedWithTheUsage() {
        for (String[] bad : new String[][] {{"-i", "0"}, {"-m", "64:8"}, {"-x", "many"}, {"-i"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> parse(EnumSet.of(Accepts.SIZES), bad));
            assertTrue(e.getMessage().contains("usage: bench"), e.getMessage());
        }
    }

    @Test
    void bufferKindIsHeapUnlessAllocMemIsAsked() {
        EnumSet<Accepts> accepts = EnumSet.of(Accepts.SIZES, Accepts.BUFFER);
        assertEquals(BufferKind.HEAP, parse(accepts).buffer);
        assertEquals(BufferKind.HEAP, parse(accepts, "--buffer", "heap").buffer);
        assertEquals(BufferKind.ALLOC_MEM, parse(accepts, "--buffer", "alloc-mem").buffer);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(accepts, "--buffer", "device"));
        assertTrue(e.getMessage().contains("heap or alloc-mem") && e.getMessage().contains("[--buffer heap|alloc-mem]"),
                e.getMessage());
    }

    @Test
    void bufferKindIsRefusedByABenchmarkThatDoesNotDeclareIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parse(EnumSet.of(Accepts.SIZES), "--buffer", "alloc-mem"));
        assertTrue(e.getMessage().contains("unknown option --buffer"), e.getMessage());
        assertFalse(e.getMessage().contains("[--buffer"), "usage names only what the benchmark takes");
    }

    /** Four ints compared as one value, so a failure shows all of them. */
    private record List4(int a, int b, int c, int d) {
        static List4 of(int a, int b, int c, int d) {
            return new List4(a, b, c, d);
        }
    }
}

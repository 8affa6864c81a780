package dev.mpj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.mpj.samples.MatMul;
import dev.mpj.samples.ft.Ft;
import dev.mpj.samples.stencil.Stencil3d;

/**
 * The application samples as users run them under mpjrun: NAS FT verifies against NPB's reference
 * checksums on slab and pencil layouts, and the 3D stencil gives the same numbers however the same
 * global grid is distributed, whether faces are packed or sent as derived datatypes, and whether its residual
 * reduction is blocking or overlapped with the next sweep.
 */
@Timeout(300)
@Tag("multi-jvm")
class ApplicationsIT {
    private static final List<String> STENCIL_RESULTS = List.of("residual", "res1", "maxdiff", "checksum");

    private static void assertFtVerifies(Job.Result r) {
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains(" Verification    =               SUCCESSFUL"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    @ParameterizedTest(name = "class {0} np={1} {2} over {3} node(s)")
    @CsvSource({ // one node: shared memory; one fake node per rank: TCP
        "S, 1, 0D, 1", "W, 1, 0D, 1",
        "S, 2, 1D, 1", "S, 2, 1D, 2", "W, 2, 1D, 1", "W, 2, 1D, 2",
        "S, 4, 1D, 1", "S, 4, 1D, 4", "W, 4, 1D, 1", "W, 4, 1D, 4",
    })
    void ftVerifiesWithNpbsDefaultLayout(String cls, int np, String layout, int nodes) {
        Job.Result r = Job.np(np).launcherOptions("--fake-nodes", Integer.toString(nodes)).run(Ft.class, "--class", cls);
        assertFtVerifies(r);
        assertTrue(r.out().contains("Layout type         :             " + layout), r::toString);
    }

    @Test
    void ftVerifiesOnTwoDimensionalPencils() {
        // 2x2 splits the world into row and column communicators; 4 fake nodes put them over TCP
        for (String[] run : new String[][]{{"4x1", "1"}, {"2x2", "1"}, {"2x2", "4"}}) {
            Job.Result r = Job.np(4).launcherOptions("--fake-nodes", run[1])
                    .run(Ft.class, "--class", "S", "--grid", run[0]);
            assertFtVerifies(r);
            assertTrue(r.out().contains("Layout type         :             2D"), r::toString);
        }
    }

    @Test
    void ftRefusesAProcessCountThatIsNotAPowerOfTwo() {
        Job.Result r = Job.np(3).run(Ft.class, "--class", "S");
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains("must be a power of two"), r::toString);
    }

    /** The key=value numbers of the stencil's result line. */
    private static Map<String, Double> stencilResults(Job.Result r) {
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
        String line = r.out().lines().filter(l -> l.startsWith("stencil3d ")).findFirst()
                .orElseThrow(() -> new AssertionError("no result line\n" + r));
        Map<String, Double> values = new HashMap<>();
        for (String field : line.split(" ")) {
            int eq = field.indexOf('=');
            String key = eq < 0 ? "" : field.substring(0, eq);
            if (STENCIL_RESULTS.contains(key)) {
                values.put(key, Double.parseDouble(field.substring(eq + 1)));
            }
        }
        assertEquals(STENCIL_RESULTS.size(), values.size(), line);
        return values;
    }

    private static void assertSameResults(Map<String, Double> expected, Map<String, Double> actual) {
        for (String key : STENCIL_RESULTS) {
            double e = expected.get(key), a = actual.get(key);
            assertEquals(e, a, 1e-12 * Math.abs(e), key + ": expected " + expected + " got " + actual);
        }
    }

    @Test
    void stencilOnEightRanksMatchesOneRankOnTheSameGlobalGrid() {
        Map<String, Double> one = stencilResults(Job.np(1).run(Stencil3d.class, "16", "5"));
        Map<String, Double> eight = stencilResults(Job.np(8).run(Stencil3d.class, "8", "5"));
        assertSameResults(one, eight);
        assertSameResults(StencilReference.run(16, 16, 16, 5, true), one);
    }

    @Test
    void stencilFacesAsDerivedDatatypesGiveExactlyThePackedResults() {
        Map<String, Double> packed = stencilResults(Job.np(2).run(Stencil3d.class, "8", "5"));
        Map<String, Double> datatypes = stencilResults(Job.np(2).run(Stencil3d.class, "8", "5", "1", "--datatypes"));
        assertEquals(packed, datatypes);
        assertSameResults(StencilReference.run(16, 8, 8, 5, true), packed);
    }

    @Test
    void stencilWithClosedEdgesOnFourRanksMatchesTheSerialGrid() {
        Map<String, Double> four = stencilResults(Job.np(4).run(Stencil3d.class, "8", "5", "periodic=0", "--datatypes"));
        assertSameResults(StencilReference.run(16, 16, 8, 5, false), four);
    }

    /** Over shared memory and over TCP; sums of 2 and 4 doubles come out the same in any tree, so exactly equal. */
    @ParameterizedTest(name = "np={0} over {1} node(s)")
    @CsvSource({"2, 1", "4, 4"})
    void stencilWithItsResidualReductionOverlappedGivesExactlyTheBlockingResults(int np, int nodes) {
        Job job = Job.np(np).launcherOptions("--fake-nodes", Integer.toString(nodes));
        Map<String, Double> blocking = stencilResults(job.run(Stencil3d.class, "8", "5"));
        Map<String, Double> overlapped = stencilResults(job.run(Stencil3d.class, "8", "5", "--overlap"));
        assertEquals(blocking, overlapped);
    }

    @Test
    void stencilPerIterationTimesGiveARowPerIterationAndRankWithOneRankWaitingNothing() {
        Job.Result r = Job.np(2).run(Stencil3d.class, "8", "3", "--per-iteration", "-");
        assertEquals(0, r.exitCode(), r::toString);
        List<String> rows = r.out().lines().filter(l -> l.matches("\\d+,\\d+,.*")).toList();
        assertEquals(6, rows.size(), r::toString);
        assertTrue(r.out().contains("iteration,rank,halo_us,update_us,allreduce_us,halo_wait_us,allreduce_wait_us"),
                r::toString);
        for (int it = 0; it < 3; it++) {
            String prefix = it + ",";
            List<String[]> ofIteration = rows.stream().filter(l -> l.startsWith(prefix)).map(l -> l.split(",")).toList();
            assertEquals(2, ofIteration.size(), r::toString);
            // the rank whose halo took least waited nothing in it
            assertTrue(ofIteration.stream().anyMatch(f -> Double.parseDouble(f[5]) == 0.0), r::toString);
            assertTrue(ofIteration.stream().allMatch(f -> Double.parseDouble(f[2]) > 0), r::toString);
        }
    }

    @Test
    void matMulRowBlocksGiveTheExactProductOnUnevenRanks() {
        Job.Result r = Job.np(3).run(MatMul.class, "40");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("matmul n=40 np=3") && r.out().contains(" correct"), r::toString);
    }
}

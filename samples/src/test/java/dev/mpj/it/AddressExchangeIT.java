package dev.mpj.it;

import dev.mpj.runtime.bootstrap.ExchangeFormula;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The address exchanges in real jobs of 7 ranks on 1 to 4 fake nodes (uneven: 7 on 3 nodes is 3 + 3 + 1), and
 * the ring exchange in jobs of 4 and 8 ranks: every rank's node segment holds the same table, byte for byte the
 * table the cards define whatever the strategy, the exchange's PMI operations follow the strategy's formula, and
 * every pair of ranks can talk afterwards.
 */
@Timeout(120)
@Tag("multi-jvm")
class AddressExchangeIT {
    private static final int NP = 7;

    @TempDir
    Path segments;

    static Stream<Arguments> jobs() {
        return Stream.of("simple", "shm", "roots").flatMap(x -> Stream.of(1, 2, 3, 4).map(n -> Arguments.of(x, n)));
    }

    @ParameterizedTest(name = "{0} on {1} nodes")
    @MethodSource("jobs")
    void everyRankHoldsTheTableTheCardsDefineAndTheExchangeCountsMatchItsFormula(String exchange, int nodes)
            throws Exception {
        Job.Result r = Job.np(NP).launcherOptions("--fake-nodes", Integer.toString(nodes))
                .env("MPJ_ADDRESS_EXCHANGE", exchange).env("MPJ_SEGMENT_DIR", segments.toString())
                .run(CardTableProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(NP, r.linesContaining("cardtable OK rank"), r::toString);
        CardTables.Operations ops = CardTables.assertOneTable(r.out(), NP, exchange);
        // mpjrun offers its allgather, so simple makes one per rank instead of a put, a fence and P gets
        ExchangeFormula formula = ExchangeFormula.of(exchange, NP, nodes, exchange.equals("simple"));
        assertEquals("puts=" + formula.puts() + " gets=" + formula.gets() + " barriers=" + formula.fences()
                + " allgathers=" + formula.other(), "puts=" + ops.puts() + " gets=" + ops.gets() + " barriers="
                + ops.barriers() + " allgathers=" + ops.allgathers(), formula.text());
        assertSegmentDirectoryEmpty();
    }

    /** PMIX_Ring needs the PMI-2 client; over shared memory within the nodes and TCP between, or TCP alone. */
    static Stream<Arguments> ringJobs() {
        return Stream.of(4, 8).flatMap(np -> Stream.of(1, 2, 4).flatMap(nodes -> Stream.of("auto", "tcp")
                .map(transports -> Arguments.of(np, nodes, transports))));
    }

    @ParameterizedTest(name = "np {0} on {1} nodes, transports {2}")
    @MethodSource("ringJobs")
    void ringExchangeBuildsTheTableWithoutPutsGetsOrFenceAndMessagesFlow(int np, int nodes, String transports)
            throws Exception {
        Job.Result r = Job.np(np).launcherOptions("--fake-nodes", Integer.toString(nodes))
                .env("MPJ_ADDRESS_EXCHANGE", "ring").env("MPJ_PMI", "pmi2").env("MPJ_TRANSPORTS", transports)
                .env("MPJ_SEGMENT_DIR", segments.toString())
                .run(CardTableProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("cardtable OK rank"), r::toString);
        CardTables.Operations ops = CardTables.assertOneTable(r.out(), np, "ring");
        assertEquals(new CardTables.Operations(0, 0, 0, nodes == 1 ? 0 : np, 0), ops,
                "one ring per rank and nothing else; on one node no PMI at all");
        assertSegmentDirectoryEmpty();
    }

    @Test
    void ringUnderAClientWithoutItFailsInInitSayingWhatItNeeds() throws Exception {
        Job.Result r = Job.np(2).env("MPJ_ADDRESS_EXCHANGE", "ring").env("MPJ_PMI", "pmi1")
                .env("MPJ_SEGMENT_DIR", segments.toString())
                .run(CardTableProgram.class);
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.err().contains("mpj.addressExchange=ring needs PMIX_Ring, which the pmi1 PMI client here does"
                + " not offer"), r::toString);
        assertEquals(0, r.linesContaining("cardtable OK"), r::toString);
    }

    /** mpjrun's PMI-1 and PMI-2 servers, one node and two: the non-blocking fence keeps a blocking one's semantics. */
    @ParameterizedTest(name = "{0} on {1} nodes")
    @MethodSource("dialectsAndNodes")
    void nonBlockingFenceRefusesEarlyGetsAndKeepsTheCounts(String dialect, int nodes) throws Exception {
        Job.Result r = Job.np(4).launcherOptions("--fake-nodes", Integer.toString(nodes)).env("MPJ_PMI", dialect)
                .env("MPJ_SEGMENT_DIR", segments.toString())
                .run(FenceProbeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(4, r.linesContaining("fenceprobe OK rank"), r::toString);
        FenceProbes.assertEveryRankKeptPmiSemantics(r.out(), 4);
    }

    static Stream<Arguments> dialectsAndNodes() {
        return Stream.of("pmi1", "pmi2").flatMap(d -> Stream.of(1, 2).map(n -> Arguments.of(d, n)));
    }

    private void assertSegmentDirectoryEmpty() throws Exception {
        try (Stream<Path> files = Files.list(segments)) {
            List<Path> left = files.toList();
            assertTrue(left.isEmpty(), "segment files left behind: " + left);
        }
    }

    @Test
    void aRankKilledRightAfterCreatingItsNodeSegmentLeavesNoSegmentFile() throws Exception {
        Job.Result r = Job.np(4).launcherOptions("--fake-nodes", "2")
                .env("MPJ_SEGMENT_DIR", segments.toString())
                .env("MPJ_TEST_KILL_AFTER_PHASE", "segment@2") // rank 2 is node 1's root: it created the file
                .run(CardTableProgram.class);
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.err().contains("kills itself (SIGKILL): phase segment ended"), r::toString);
        assertEquals(0, r.linesContaining("cardtable OK"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
        assertSegmentDirectoryEmpty();
    }
}

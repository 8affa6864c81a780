package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.node.NodeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static dev.mpj.runtime.config.AddressExchangeMode.AUTO;
import static dev.mpj.runtime.config.AddressExchangeMode.RING;
import static dev.mpj.runtime.config.AddressExchangeMode.ROOTS;
import static dev.mpj.runtime.config.AddressExchangeMode.SHM;
import static dev.mpj.runtime.config.AddressExchangeMode.SIMPLE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The four strategies, each rank a thread of this JVM (in-process PMI, real node segment files, engines wired
 * in memory): every node segment ends with the same full table, and the job's PMI operations follow the
 * formulas exactly.
 */
@Timeout(120)
class AddressExchangeTest {
    private static final List<AddressExchangeMode> STRATEGIES = List.of(SIMPLE, SHM, ROOTS, RING);

    @TempDir
    Path dir;

    /** Block placements with uneven nodes, one rank per node, one node, and a cyclic (non-contiguous) one. */
    static Stream<Arguments> jobs() {
        return Stream.of(
                Arguments.of("7 ranks on 3 nodes", NodeMap.blocks(7, 3)),
                Arguments.of("5 ranks on 2 nodes", NodeMap.blocks(5, 2)),
                Arguments.of("4 ranks on 4 nodes", NodeMap.blocks(4, 4)),
                Arguments.of("6 ranks on 1 node", NodeMap.blocks(6, 1)),
                Arguments.of("8 ranks on 3 nodes, cyclic", NodeMap.fromNodeIds(new int[] {0, 1, 2, 0, 1, 2, 0, 1})),
                Arguments.of("6 ranks: 1 + 4 + 1, interleaved", NodeMap.fromNodeIds(new int[] {0, 1, 1, 2, 1, 1})));
    }

    /** A card per rank: its node, the root flag, and an address unique to the rank, all of one length. */
    private static byte[] card(NodeMap map, int rank) {
        byte[] address = new byte[23];
        for (int i = 0; i < address.length; i++) {
            address[i] = (byte) (rank * 31 + i);
        }
        return new BusinessCard(map.nodeOf(rank), map.isRoot(rank) ? BusinessCard.FLAG_NODE_ROOT : 0, address)
                .encode();
    }

    /** Cards of different lengths: rank r's address has 3 + 5·(r mod 4) bytes. */
    private static byte[] irregularCard(NodeMap map, int rank) {
        byte[] address = new byte[3 + 5 * (rank % 4)];
        for (int i = 0; i < address.length; i++) {
            address[i] = (byte) (rank * 17 + i);
        }
        return new BusinessCard(map.nodeOf(rank), 0, address).encode();
    }

    private List<InProcessExchangeJob.RankResult> run(NodeMap map, AddressExchangeMode strategy, boolean irregular)
            throws Exception {
        Path jobDir = Files.createTempDirectory(dir, strategy.settingValue());
        List<InProcessExchangeJob.RankResult> results = new InProcessExchangeJob(map, jobDir,
                irregular ? r -> irregularCard(map, r) : r -> card(map, r), Duration.ofSeconds(20))
                .run(strategy, irregular);
        try (Stream<Path> left = Files.list(jobDir)) {
            assertEquals(0, left.count(), "the last rank of each node to close removes its segment");
        }
        return results;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void everyStrategyLeavesTheSameFullTableInEveryNodeSegment(String name, NodeMap map) throws Exception {
        Set<String> digests = new HashSet<>();
        for (AddressExchangeMode strategy : STRATEGIES) {
            for (InProcessExchangeJob.RankResult r : run(map, strategy, false)) {
                for (int peer = 0; peer < map.size(); peer++) {
                    assertArrayEquals(card(map, peer), r.cards()[peer], strategy + ": card of rank " + peer);
                }
                digests.add(r.digest());
            }
        }
        assertEquals(1, digests.size(), "one table, byte for byte, on every rank after every strategy");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void pmiOperationsOfEachStrategyFollowTheFormulas(String name, NodeMap map) throws Exception {
        int p = map.size();
        int n = map.nodeCount();
        assertJobCounts(run(map, SIMPLE, false), p, (long) p * p);
        assertJobCounts(run(map, SHM, false), p, (long) n * p);
        assertJobCounts(run(map, ROOTS, false), n, (long) n * (n - 1));
        List<InProcessExchangeJob.RankResult> ring = run(map, RING, false);
        assertJobCounts(ring, 0, 0);
        assertEquals(0, ring.stream().mapToLong(InProcessExchangeJob.RankResult::barriers).sum(), "no PMI barrier");
        assertEquals(n == 1 ? 0 : p, ring.stream().mapToLong(InProcessExchangeJob.RankResult::rings).sum(),
                "one ring per rank, none on one node");
    }

    private static void assertJobCounts(List<InProcessExchangeJob.RankResult> results, long puts, long gets) {
        assertEquals(puts, results.stream().mapToLong(InProcessExchangeJob.RankResult::puts).sum(), "puts");
        assertEquals(gets, results.stream().mapToLong(InProcessExchangeJob.RankResult::gets).sum(), "gets");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jobs")
    void irregularCardsAgreeOnTheLongestAndStillGiveOneTable(String name, NodeMap map) throws Exception {
        Set<String> digests = new HashSet<>();
        for (AddressExchangeMode strategy : STRATEGIES) {
            List<InProcessExchangeJob.RankResult> results = run(map, strategy, true);
            for (InProcessExchangeJob.RankResult r : results) {
                for (int peer = 0; peer < map.size(); peer++) {
                    assertArrayEquals(irregularCard(map, peer), r.cards()[peer], strategy + ": rank " + peer);
                }
                digests.add(r.digest());
            }
            // the agreement: one put per node, every rank gets the N node maxima
            assertEquals(map.nodeCount(), results.stream().mapToLong(InProcessExchangeJob.RankResult::agreementPuts)
                    .sum());
            assertEquals((long) map.nodeCount() * map.size(),
                    results.stream().mapToLong(InProcessExchangeJob.RankResult::agreementGets).sum());
        }
        assertEquals(1, digests.size(), "one table on every rank after every strategy");
    }

    @Test
    void cardsOfDifferentLengthsWithoutAgreementFailNamingTheSetting() {
        NodeMap map = NodeMap.blocks(4, 2);
        AssertionError e = assertThrows(AssertionError.class, () -> new InProcessExchangeJob(map,
                Files.createTempDirectory(dir, "bad"), r -> irregularCard(map, r), Duration.ofSeconds(2))
                .run(ROOTS, false));
        assertTrue(e.getMessage().contains("cards differ in length")
                && e.getMessage().contains("set mpj.irregularCards=true"), e.getMessage());
    }

    @Test
    void ringWithoutAClientThatOffersItFailsNamingWhereItRuns() {
        NodeMap map = NodeMap.blocks(4, 2);
        AssertionError e = assertThrows(AssertionError.class, () -> new InProcessExchangeJob(map,
                Files.createTempDirectory(dir, "noring"), r -> card(map, r), Duration.ofSeconds(2))
                .ringOrder(null).run(RING, false));
        assertTrue(e.getMessage().contains("mpj.addressExchange=ring needs PMIX_Ring")
                && e.getMessage().contains("mpj.pmi=pmi2"), e.getMessage());
    }

    @Test
    void aRingThatDoesNotFollowTheNodeOrderFailsSayingSo() {
        NodeMap map = NodeMap.blocks(6, 3);
        AssertionError e = assertThrows(AssertionError.class, () -> new InProcessExchangeJob(map,
                Files.createTempDirectory(dir, "order"), r -> card(map, r), Duration.ofSeconds(2))
                .ringOrder(new int[] {0, 1, 4, 5, 2, 3}).run(RING, false));
        assertTrue(e.getMessage().contains("does not follow the node order"), e.getMessage());
    }

    @Test
    void autoPicksRootsOnOneNodeOrManyRanksAndShmForSmallMultiNodeJobs() {
        assertEquals("roots", AddressExchanges.choose(AUTO, 8, 1).name());
        assertEquals("shm", AddressExchanges.choose(AUTO, AddressExchanges.ROOTS_FROM_RANKS - 1, 2).name());
        assertEquals("roots", AddressExchanges.choose(AUTO, AddressExchanges.ROOTS_FROM_RANKS, 2).name());
        assertThrows(IllegalArgumentException.class, () -> Settings.defaults().with(Setting.ADDRESS_EXCHANGE, "fast"));
    }

    @Test
    void onlyTheNodeRootsOfRootsOnSeveralNodesMessagePeers() {
        NodeMap threeNodes = NodeMap.blocks(7, 3);
        AddressExchange roots = AddressExchanges.choose(ROOTS, 7, 3);
        for (int rank = 0; rank < 7; rank++) {
            assertEquals(threeNodes.isRoot(rank), roots.messagesPeers(threeNodes, rank), "rank " + rank);
            assertFalse(AddressExchanges.choose(SIMPLE, 7, 3).messagesPeers(threeNodes, rank));
            assertFalse(AddressExchanges.choose(SHM, 7, 3).messagesPeers(threeNodes, rank));
        }
        assertFalse(roots.messagesPeers(NodeMap.blocks(7, 1), 0), "one node: no ring");
        AddressExchange ring = AddressExchanges.choose(RING, 7, 3);
        for (int rank = 0; rank < 7; rank++) {
            assertEquals(threeNodes.isRoot(rank), ring.messagesPeers(threeNodes, rank), "ring: rank " + rank);
        }
        assertFalse(ring.messagesPeers(NodeMap.blocks(7, 1), 0), "ring on one node: no allgather");
    }
}

package dev.mpj.runtime.node;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.SingletonPmiClient;
import dev.mpj.runtime.pmi.wire.ProcessMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeMapTest {

    /** Every row of the table of real values in PMI.md §4 (4 ranks), with the placement it states. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "(vector,(0,1,1))                  | [[0, 1, 2, 3]]",    // mpiexec.hydra -n 4 (wraps 4x)
            "(vector,(0,1,4))                  | [[0, 1, 2, 3]]",    // -hosts localhost:4, srun -n 4
            "(vector,(0,2,1))                  | [[0, 2], [1, 3]]",  // -hosts 127.0.0.2,127.0.0.3 (round robin)
            "(vector,(0,2,2))                  | [[0, 1], [2, 3]]",  // -hosts a1:2,a2:2; srun --ntasks-per-node=2
            "(vector,(0,1,1),(1,1,3))          | [[0], [1, 2, 3]]",  // -hosts a1:1,a2:3
            "(vector,(0,2,3))                  | [[0, 1, 2], [3]]",  // -hosts a1:3,a2:3 (capacity 6 cut at 4)
            "(vector,(0,3,1))                  | [[0, 3], [1], [2]]", // -hosts a1:2,a2:2,a3:2 -ppn 1 (wraps)
            "(vector,(0,1,3),(1,1,1))          | [[0, 1, 2], [3]]",  // srun -N2 -n4
            "(vector,(0,2,1),(0,1,1),(0,1,1))  | [[0, 2, 3], [1]]",  // srun -N2 -n4 --distribution=cyclic
            "(vector,(0,2,1),(0,2,1))          | [[0, 2], [1, 3]]",  // ... --ntasks-per-node=2 --distribution=cyclic
    })
    void tableOfRealMappingsGivesTheStatedPlacement(String mapping, String placement) {
        assertEquals(placement, NodeMap.fromProcessMapping(mapping, 4).toString());
    }

    @Test
    void wrapAroundRestartsAtTheFirstBlockStartingAtNodeZero() {
        // first pass: 0 -> id 1, {1,2} -> id 0, {3,4} -> id 1; then again from (0,2,2): {5,6} -> id 0, 7 -> id 1
        NodeMap map = NodeMap.fromProcessMapping("(vector,(1,1,1),(0,2,2))", 8);
        assertEquals("[[0, 3, 4, 7], [1, 2, 5, 6]]", map.toString());
    }

    @Test
    void wrapAroundRepeatsTheWholeListWhenNoBlockStartsAtNodeZero() {
        assertEquals("[[0, 2, 4], [1, 3]]", NodeMap.fromProcessMapping("(vector,(2,1,1),(3,1,1))", 5).toString());
    }

    @Test
    void multiTripleVectorPlacesEachBlockOnItsNodes() {
        NodeMap map = NodeMap.fromProcessMapping("(vector,(0,1,2),(1,2,1),(3,1,3))", 7);
        assertEquals("[[0, 1], [2], [3], [4, 5, 6]]", map.toString());
    }

    @Test
    void spacesBetweenTokensAreAllowed() {
        assertEquals(NodeMap.fromProcessMapping("(vector,(0,2,2))", 4),
                NodeMap.fromProcessMapping(" ( vector , ( 0 , 2 , 2 ) ) ", 4));
    }

    @Test
    void nodesWithoutRanksAreLeftOutAndNodesAreNumberedByTheirLowestRank() {
        NodeMap map = NodeMap.fromProcessMapping("(vector,(5,1,1),(2,1,1))", 2);
        assertEquals(2, map.nodeCount());
        assertEquals(0, map.nodeOf(0));
        assertEquals(1, map.nodeOf(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "vector,(0,1,1)", "(vector)", "(vector,(0,1))", "(vector,(0,1,1)",
            "(vector,(0,1,1)))", "(vector,(0,-1,1))", "(vector,(a,1,1))", "(vector,(0,1,1),)", "(matrix,(0,1,1))",
            "(vector,(0,1,1)) x", "(vector,(0,99999999999,1))", "(vector,(0,0,4))", "(vector,(1,1,1),(0,0,0))"})
    void malformedMappingIsRejectedWithAMessageQuotingIt(String mapping) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NodeMap.fromProcessMapping(mapping, 4));
        assertTrue(e.getMessage().contains("PMI_process_mapping '" + mapping + "'"), e.getMessage());
    }

    @Test
    void accessorsDescribeNodesRootsAndLocalRanks() {
        NodeMap map = NodeMap.fromProcessMapping("(vector,(0,1,1),(1,1,3))", 4);
        assertEquals(4, map.size());
        assertEquals(2, map.nodeCount());
        assertArrayEquals(new int[]{1, 2, 3}, map.ranksOn(1));
        assertEquals(3, map.localSize(1));
        assertEquals(2, map.localRank(3));
        assertEquals(1, map.nodeRoot(1));
        assertArrayEquals(new int[]{0, 1}, map.nodeRoots());
        assertTrue(map.isRoot(1));
        assertFalse(map.isRoot(2));
        assertEquals(3, map.rankOn(1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> map.nodeOf(4));
        assertThrows(IndexOutOfBoundsException.class, () -> map.ranksOn(2));
    }

    @Test
    void fakeNodesSplitSevenRanksOverThreeNodesByBlocks() {
        assertEquals("[[0, 1, 2], [3, 4, 5], [6]]", NodeMap.blocks(7, 3).toString());
    }

    @Test
    void fakeNodesAgreeWithWhatMpjrunTellsEveryRank() {
        for (int size = 1; size <= 9; size++) {
            for (int nodes = 1; nodes <= size; nodes++) {
                NodeMap map = NodeMap.blocks(size, nodes);
                ProcessMapping served = ProcessMapping.blocks(size, nodes);
                assertEquals(served.nodes(), map.nodeCount(), served.toString());
                for (int rank = 0; rank < size; rank++) {
                    assertEquals(served.nodeOf(rank), map.nodeOf(rank), served + " rank " + rank);
                    assertEquals(served.localRank(rank), map.localRank(rank), served + " rank " + rank);
                    assertEquals(served.localSize(rank), map.localSize(map.nodeOf(rank)), served + " rank " + rank);
                }
            }
        }
    }

    @Test
    void moreFakeNodesThanRanksGiveOneRankPerNode() {
        assertEquals("[[0], [1], [2]]", NodeMap.blocks(3, 8).toString());
    }

    @Test
    void fakeNodesSettingOverridesTheProcessManagersMapping() {
        PmiClient pmi = new InProcessPmiJob(7, "(vector,(0,1,7))").client(0);
        NodeMap map = NodeMap.discover(pmi, Settings.defaults().with(Setting.FAKE_NODES, "3"));
        assertEquals(NodeMap.blocks(7, 3), map);
        assertEquals(0, pmi.counters().gets(), "no PMI traffic for fake nodes");
    }

    @Test
    void discoverUsesTheProcessMappingWhenGiven() {
        PmiClient pmi = new InProcessPmiJob(4, "(vector,(0,2,2))").client(3);
        assertEquals("[[0, 1], [2, 3]]", NodeMap.discover(pmi, Settings.defaults()).toString());
    }

    @Test
    void discoverUsesPerRankNodeIdsWhenTheProcessManagerGivesNoMapping() {
        PmiClient pmi = withNodeIds(new InProcessPmiJob(5, "").client(1), new int[]{7, 3, 7, 3, 9});
        assertEquals("[[0, 2], [1, 3], [4]]", NodeMap.discover(pmi, Settings.defaults()).toString());
        assertEquals(0, pmi.counters().puts(), "no host identity exchange when the node ids are known");
        assertEquals(0, pmi.counters().barriers());
    }

    /** {@code client}, except that it tells the node of every rank, as the PMIx client does. */
    private static PmiClient withNodeIds(PmiClient client, int[] nodeIds) {
        return (PmiClient) java.lang.reflect.Proxy.newProxyInstance(PmiClient.class.getClassLoader(),
                new Class<?>[]{PmiClient.class}, (proxy, method, args) -> method.getName().equals("nodeIds")
                        ? nodeIds.clone() : method.invoke(client, args));
    }

    @Test
    void singletonIsOneRankOnOneNode() {
        NodeMap map = NodeMap.discover(new SingletonPmiClient(), Settings.defaults());
        assertEquals("[[0]]", map.toString());
        assertTrue(map.isRoot(0));
    }

    @Test
    @Timeout(30)
    void withoutMappingRanksExchangeHostIdentities() throws Exception {
        String[] hosts = {"a", "b", "a", "c", "b"};
        List<NodeMap> maps = runRanks(new InProcessPmiJob(hosts.length, ""),
                pmi -> HostIdentityExchange.nodeMap(pmi, hosts[pmi.rank()]));
        for (NodeMap map : maps) {
            assertEquals("[[0, 2], [1, 4], [3]]", map.toString());
        }
    }

    @Test
    @Timeout(30)
    void emptyMappingFallsBackToTheHostExchangeWhichIsCounted() throws Exception {
        InProcessPmiJob job = new InProcessPmiJob(3, "");
        List<PmiClient> clients = new ArrayList<>();
        List<NodeMap> maps = runRanks(job, pmi -> {
            synchronized (clients) {
                clients.add(pmi);
            }
            return NodeMap.discover(pmi, Settings.defaults());
        });
        for (NodeMap map : maps) {
            assertEquals("[[0, 1, 2]]", map.toString(), "every rank of this JVM is on this host");
        }
        for (PmiClient pmi : clients) {
            assertEquals(1, pmi.counters().puts());
            assertEquals(1, pmi.counters().barriers());
            assertEquals(2, pmi.counters().gets());
        }
    }

    private interface RankBody {
        NodeMap run(PmiClient pmi) throws Exception;
    }

    /** Runs one thread per rank of the job; returns what each returned, by rank. */
    private static List<NodeMap> runRanks(InProcessPmiJob job, RankBody body) throws Exception {
        int size = job.client(0).size();
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<NodeMap>> futures = new ArrayList<>();
            for (int rank = 0; rank < size; rank++) {
                PmiClient pmi = job.client(rank);
                futures.add(pool.submit(() -> body.run(pmi)));
            }
            List<NodeMap> maps = new ArrayList<>();
            for (Future<NodeMap> f : futures) {
                maps.add(f.get());
            }
            return maps;
        } finally {
            pool.shutdownNow();
        }
    }
}

package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collective across real processes: one program per job runs them all and checks its own results, for
 * process counts that are and are not powers of two, within one node (shared memory), over TCP (every rank its own
 * fake node) under each connection mode, and on fake nodes with the node-aware variants forced on (shared memory
 * within a node, TCP between nodes), on even and uneven nodes. Within one node the small collectives run through
 * the node segment, and over point-to-point when that path is turned off; each job checks which path ran.
 */
@Timeout(180)
@Tag("multi-jvm")
class CollectivesIT {
    private static void assertAllRanksOk(Job.Result r, int np) {
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("collectives OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    /** The collectives each rank says ran through the node segment, one figure per rank. */
    private static List<Long> nodeLocalCalls(Job.Result r, String prefix) {
        return r.out().lines().filter(l -> l.startsWith(prefix))
                .map(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).toList();
    }

    static Stream<Arguments> oneNodeJobs() {
        return Stream.of("on", "auto", "off").flatMap(shm -> IntStream.of(1, 2, 3, 4, 7, 8)
                .filter(np -> shm.equals("on") || np == 2 || np == 7).mapToObj(np -> Arguments.of(np, shm)));
    }

    @ParameterizedTest(name = "np={0} node-local collectives {1}")
    @MethodSource("oneNodeJobs")
    void everyCollectiveWithTheAutomaticAlgorithms(int np, String sharedMemory) {
        Job.Result r = Job.np(np).env("MPJ_COLL_SHARED_MEMORY", sharedMemory).run(CollectivesProgram.class);
        assertAllRanksOk(r, np);
        List<Long> calls = nodeLocalCalls(r, "shared-memory collectives rank");
        assertEquals(np, calls.size(), r::toString);
        boolean expected = np > 1 && !sharedMemory.equals("off"); // the program's barriers, under auto too
        assertTrue(calls.stream().allMatch(n -> (n > 0) == expected), () -> "node-local calls " + calls + "\n" + r);
        List<Long> folds = nodeLocalCalls(r, "fold room allreduces rank");
        boolean folded = np == 2 && !sharedMemory.equals("off"); // the long reductions of a pair
        assertTrue(folds.size() == np && folds.stream().allMatch(n -> (n > 0) == folded),
                () -> "fold room allreduces " + folds + "\n" + r);
        List<Long> exchanges = nodeLocalCalls(r, "fold room alltoalls rank"); // a pair's long blocks
        assertTrue(exchanges.size() == np && exchanges.stream().allMatch(n -> (n > 0) == folded),
                () -> "fold room alltoalls " + exchanges + "\n" + r);
        // a pair's blocks of 64 KiB to 512 KiB, and no others, go through the room
        String blocks = folded ? "[65536,262140,262144,262148,524288]" : "[]";
        assertEquals(np, r.linesContaining("fold room alltoall blocks rank"), r::toString);
        for (int rank = 0; rank < np; rank++) {
            assertEquals(1, r.linesContaining("fold room alltoall blocks rank " + rank + ": " + blocks), r::toString);
        }
    }

    @ParameterizedTest(name = "np={0} node-local collectives {1}")
    @CsvSource({"2, on", "3, on", "5, on", "2, auto"})
    void smallCollectivesOnDuplicatedSplitManyAndConcurrentCommunicatorsThroughTheNodeSegment(int np,
                                                                                               String sharedMemory) {
        Job.Result r = Job.np(np).env("MPJ_COLL_SHARED_MEMORY", sharedMemory).run(NodeCollectivesProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("node collectives OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
        List<Long> calls = nodeLocalCalls(r, "node collectives rank");
        assertEquals(np, calls.size(), r::toString);
        assertTrue(calls.stream().allMatch(n -> n > 0), () -> "node-local calls " + calls + "\n" + r);
    }

    @ParameterizedTest(name = "np={0} on {1} fake nodes")
    @CsvSource({"7, 3", "8, 2"})
    void everyCollectiveNodeAwareAcrossFakeNodes(int np, int nodes) {
        Job job = Job.np(np)
                .launcherOptions("--fake-nodes", Integer.toString(nodes))
                .env("MPJ_COLL_HIERARCHICAL", "on");
        assertAllRanksOk(job.run(CollectivesProgram.class), np);
    }

    static Stream<Arguments> tcpJobs() {
        return Stream.concat(
                Stream.of("eager", "ondemand").flatMap(mode -> Stream.of(2, 5, 8).map(np -> Arguments.of(np, mode))),
                Stream.of(3, 4).map(np -> Arguments.of(np, "eager")));
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("tcpJobs")
    void everyCollectiveOverTcpUnderEachConnectionMode(int np, String mode) {
        Job job = Job.np(np).launcherOptions("--fake-nodes", Integer.toString(np)).env("MPJ_CONNECTIONS", mode);
        assertAllRanksOk(job.run(CollectivesProgram.class), np);
    }

    @Test
    void everyCollectiveWithTheAlgorithmsAutomaticSelectionRarelyPicksAtFiveRanks() {
        Job job = Job.np(5)
                .env("MPJ_COLL_BCAST", "scatter-doubling")
                .env("MPJ_COLL_ALLGATHER", "ring")
                .env("MPJ_COLL_ALLREDUCE", "ring")
                .env("MPJ_COLL_ALLTOALL", "bruck");
        assertAllRanksOk(job.run(CollectivesProgram.class), 5);
    }
}

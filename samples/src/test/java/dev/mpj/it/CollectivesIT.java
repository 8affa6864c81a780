package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collective across real processes: one program per job runs them all and checks its own results, for
 * process counts that are and are not powers of two, within one node (shared memory), over TCP (every rank its own
 * fake node) under each connection mode, and on fake nodes with the node-aware variants forced on (shared memory
 * within a node, TCP between nodes), on even and uneven nodes.
 */
@Timeout(180)
@Tag("multi-jvm")
class CollectivesIT {
    private static void assertAllRanksOk(Job.Result r, int np) {
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("collectives OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 2, 3, 4, 7, 8})
    void everyCollectiveWithTheAutomaticAlgorithms(int np) {
        assertAllRanksOk(Job.np(np).run(CollectivesProgram.class), np);
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

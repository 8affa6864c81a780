package dev.mpj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Communicators, groups and topologies across real processes over TCP: Split, Create, clone and Free
 * with traffic inside the new communicators, isolation of communicators that share processes and tags,
 * 3D Cartesian grids with shifts and sub-grids, a graph, and argument errors.
 */
@Timeout(180)
@Tag("multi-jvm")
class CommunicatorsIT {
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 3, 4, 8})
    void communicatorsGroupsAndTopologies(int np) {
        Job.Result r = Job.np(np).run(CommunicatorsProgram.class);

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("communicators OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}

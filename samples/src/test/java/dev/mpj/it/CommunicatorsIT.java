package dev.mpj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Communicators, groups and topologies across real processes, over shared memory (one node) and over TCP (every
 * rank its own fake node): Split, Create, clone, Dup and Free with traffic inside the new communicators,
 * isolation of communicators that share processes and tags, Attr_get, messages of zero-size types, 3D Cartesian
 * grids with shifts and sub-grids, a graph, and argument errors; and intercommunicators between the even and odd
 * ranks, groups of equal and unequal sizes.
 */
@Timeout(180)
@Tag("multi-jvm")
class CommunicatorsIT {
    static Stream<Arguments> jobs() {
        return Stream.concat(Stream.of(1, 2, 3, 4, 8).map(np -> Arguments.of(np, "shm")),
                Stream.of(2, 3, 4).map(np -> Arguments.of(np, "tcp")));
    }

    /** Intercommunicators need two processes. */
    static Stream<Arguments> twoOrMoreRanks() {
        return Stream.of("shm", "tcp").flatMap(transport -> Stream.of(2, 3, 4).map(np -> Arguments.of(np, transport)));
    }

    private static void assertAllRanksOk(int np, String transport, Class<?> program, String okLine) {
        Job.Result r = Job.over(np, transport).run(program);

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining(okLine), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void communicatorsGroupsAndTopologies(int np, String transport) {
        assertAllRanksOk(np, transport, CommunicatorsProgram.class, "communicators OK rank");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("twoOrMoreRanks")
    void intercommunicatorBetweenTheEvenAndOddRanks(int np, String transport) {
        assertAllRanksOk(np, transport, IntercommProgram.class, "intercomm OK rank");
    }
}

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
 * Intercommunicators across real processes, over shared memory (one node) and over TCP (every rank its own fake
 * node), between groups of equal and unequal sizes: creation from a Split of WORLD, point-to-point both ways,
 * ANY_SOURCE, the remote group, Merge, Dup, Free, Barrier, Bcast both ways and argument errors.
 */
@Timeout(180)
@Tag("multi-jvm")
class IntercommIT {
    static Stream<Arguments> jobs() {
        return Stream.of("shm", "tcp").flatMap(transport -> Stream.of(2, 3, 4).map(np -> Arguments.of(np, transport)));
    }

    @ParameterizedTest(name = "np={0} {1}")
    @MethodSource("jobs")
    void intercommunicatorBetweenTheEvenAndOddRanks(int np, String transport) {
        Job.Result r = Job.over(np, transport).run(IntercommProgram.class);

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("intercomm OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}

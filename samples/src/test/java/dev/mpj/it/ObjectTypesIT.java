package dev.mpj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Derived datatypes over MPI.OBJECT across real processes, over shared memory and TCP: point-to-point, the
 * collectives, a user Op and packed objects, each rank checking what landed in which slot.
 */
@Timeout(180)
@Tag("multi-jvm")
class ObjectTypesIT {
    @ParameterizedTest(name = "np={0} {1}")
    @CsvSource({"2, shm", "3, shm", "4, shm", "2, tcp", "3, tcp", "4, tcp"})
    void derivedObjectTypesMoveTheSelectedSlots(int np, String transport) {
        Job.Result r = Job.over(np, transport).run(ObjectTypesProgram.class);

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("objtypes OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}

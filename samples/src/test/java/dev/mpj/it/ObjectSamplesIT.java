package dev.mpj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The samples written as mpiJava programs are, over shared memory and TCP: the ray tracer (master/worker across an
 * intercommunicator, with MPI.OBJECT work items and ANY_SOURCE; at np 2 the worker group has one rank) and the
 * molecular-dynamics kernel (Allgatherv of particle objects, energy by a user Op) each check themselves against a
 * run on rank 0 alone and print VALID.
 */
@Timeout(240)
@Tag("multi-jvm")
class ObjectSamplesIT {
    private static void assertValidLine(Job.Result r, String pattern) {
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(Pattern.compile(pattern, Pattern.MULTILINE).matcher(r.out()).find(), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @CsvSource({"2, shm", "3, shm", "4, shm", "3, tcp", "4, tcp"})
    void rayTracerRendersTheImageItRendersAlone(int np, String transport) {
        Job.Result r = Job.over(np, transport).run("raytrace", "64", "48");

        assertValidLine(r, "^raytrace 64x48 checksum=[0-9a-f]{16} VALID \\(" + np + " ranks");
    }

    @ParameterizedTest(name = "np={0} {1}")
    @CsvSource({"3, shm", "4, shm", "3, tcp", "4, tcp"})
    void molecularDynamicsAgreesWithItsRunAloneAndConservesEnergy(int np, String transport) {
        Job.Result r = Job.over(np, transport).run("md", "2", "40");

        assertValidLine(r, "^md 40 steps energy drift=\\S+ VALID \\(32 particles, " + np + " ranks");
    }
}

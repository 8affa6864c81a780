package dev.mpj.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Derived datatypes across real processes over TCP: ranks on a periodic ring exchange the x, y and
 * z faces of their 3D arrays straight from and into the arrays, eager and rendezvous sized, and
 * check every element against the values their neighbours own.
 */
@Timeout(180)
@Tag("multi-jvm")
class DerivedDatatypesIT {
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 4})
    void neighboursExchange3dArrayFacesWithDerivedTypes(int np) {
        Job.Result r = Job.np(np).run(FaceExchangeProgram.class, "5,96");

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(np, r.linesContaining("faces OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}

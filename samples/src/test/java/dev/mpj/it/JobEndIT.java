package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rank's JVM ends when its {@code main} returns: after {@code MPI.Finalize} no thread of the runtime or of
 * Netty is left that is not a daemon (Netty's global executor thread, started by a promise's listener, kept
 * every TCP job's ranks alive for a second after their work was done), whoever drives the sockets.
 */
@Timeout(120)
@Tag("multi-jvm")
class JobEndIT {
    @ParameterizedTest(name = "{0}, progress {1}")
    @CsvSource({"shm, caller", "tcp, caller", "tcp, threads"})
    void noThreadKeepsARankAliveAfterFinalize(String transports, String progress) {
        int np = 3;
        Job.Result r = Job.np(np).env("MPJ_TRANSPORTS", transports).env("MPJ_TCP_PROGRESS", progress)
                .run(AfterFinalizeProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < np; rank++) {
            assertEquals(1, r.linesContaining("after finalize rank " + rank + ": []"), r::toString);
        }
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}

package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flow control across real processes: 10^5 messages of 4 KiB into a rank that sleeps 2 s, every rank JVM at
 * {@code -Xmx64m}, which holds only a small part of the 400 MB sent. Without a bound on eager data the sender
 * or the receiver runs out of memory; with it, every message arrives intact and in order. Over shared memory
 * (one node) and TCP (two fake nodes).
 */
@Timeout(300)
@Tag("multi-jvm")
class FlowControlIT {
    private static final String COUNT = "100000";

    static Stream<Arguments> jobs() {
        return Stream.of("shm", "tcp").flatMap(transport -> Stream.of("send", "isend", "both")
                .map(mode -> Arguments.of(transport, mode)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("jobs")
    void floodIntoASleepingReceiverArrivesWholeWithinASmallHeap(String transport, String mode) {
        Job job = Job.np(2).timeout(240);
        if (transport.equals("tcp")) {
            job.launcherOptions("--fake-nodes", "2");
        }
        Job.Result r = job.run(FlowControlProgram.class, mode, COUNT);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(2, r.linesContaining("flow OK rank"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
    }
}

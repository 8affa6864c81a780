package dev.mpj.it;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What {@link FenceProbeProgram} must print under any process manager: the PMI semantics of a blocking fence. */
final class FenceProbes {
    private static final Pattern LINE = Pattern.compile("fenceprobe rank (\\d+) overlapped (\\S+) pending-ops (\\d+)"
            + " early-get (\\S+) puts (\\d+) gets (\\d+) barriers (\\d+)");

    private FenceProbes() {
    }

    /**
     * Every one of the {@code np} ranks: MPI.Init's fence overlapped local work that made no PMI operation; a get
     * while its own fence was pending was refused; the round counted one put, {@code np} gets and one barrier, as
     * with a blocking fence.
     */
    static void assertEveryRankKeptPmiSemantics(String output, int np) {
        Matcher m = LINE.matcher(output);
        int ranks = 0;
        while (m.find()) {
            String rank = "rank " + m.group(1) + ": ";
            assertEquals("yes", m.group(2), rank + "MPI.Init's fence overlapped local work\n" + output);
            assertEquals("0", m.group(3), rank + "PMI operations while MPI.Init's fence was pending\n" + output);
            assertEquals("refused", m.group(4), rank + "a get while the fence was pending\n" + output);
            assertEquals("1 " + np + " 1", m.group(5) + " " + m.group(6) + " " + m.group(7),
                    rank + "puts, gets and barriers of the round\n" + output);
            ranks++;
        }
        assertEquals(np, ranks, "ranks that reported\n" + output);
    }
}

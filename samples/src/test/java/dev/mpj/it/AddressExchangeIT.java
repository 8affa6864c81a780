package dev.mpj.it;

import dev.mpj.runtime.node.NodeSegmentDescriptor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The address exchanges in real jobs of 7 ranks on 1 to 4 fake nodes (uneven: 7 on 3 nodes is 3 + 3 + 1): every
 * rank's node segment holds the same table, byte for byte the table the cards define whatever the strategy, the
 * exchange's PMI operations follow the strategy's formula, and every pair of ranks can talk afterwards.
 */
@Timeout(120)
@Tag("multi-jvm")
class AddressExchangeIT {
    private static final int NP = 7;
    private static final Pattern LINE = Pattern.compile(
            "cardtable rank (\\d+) node (\\d+) digest (\\w+) slot (\\d+) card (\\w+) exchange (\\w+) puts (\\d+)"
                    + " gets (\\d+)");

    @TempDir
    Path segments;

    static Stream<Arguments> jobs() {
        return Stream.of("simple", "shm", "roots").flatMap(x -> Stream.of(1, 2, 3, 4).map(n -> Arguments.of(x, n)));
    }

    @ParameterizedTest(name = "{0} on {1} nodes")
    @MethodSource("jobs")
    void everyRankHoldsTheTableTheCardsDefineAndTheExchangeCountsMatchItsFormula(String exchange, int nodes)
            throws Exception {
        Job.Result r = Job.np(NP).launcherOptions("--fake-nodes", Integer.toString(nodes))
                .env("MPJ_ADDRESS_EXCHANGE", exchange).env("MPJ_SEGMENT_DIR", segments.toString())
                .run(CardTableProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(NP, r.linesContaining("cardtable OK rank"), r::toString);

        byte[][] cards = new byte[NP][];
        String[] digests = new String[NP];
        int slot = -1;
        long puts = 0;
        long gets = 0;
        HexFormat hex = HexFormat.of();
        for (Matcher m = LINE.matcher(r.out()); m.find(); ) {
            int rank = Integer.parseInt(m.group(1));
            digests[rank] = m.group(3);
            slot = Integer.parseInt(m.group(4));
            cards[rank] = hex.parseHex(m.group(5));
            assertEquals(exchange, m.group(6));
            puts += Long.parseLong(m.group(7));
            gets += Long.parseLong(m.group(8));
        }
        String expected = canonicalTableDigest(cards, slot);
        for (int rank = 0; rank < NP; rank++) {
            assertEquals(expected, digests[rank], "rank " + rank + "'s table\n" + r);
        }
        long p = NP;
        long n = nodes;
        switch (exchange) {
            case "simple" -> assertCounts(p, p * p, puts, gets);
            case "shm" -> assertCounts(p, n * p, puts, gets);
            default -> assertCounts(n, n * n, puts, gets);
        }
        assertSegmentDirectoryEmpty();
    }

    /** The table every strategy must build: slot r = card length (int, LE), card bytes, zeros to the slot end. */
    private static String canonicalTableDigest(byte[][] cards, int slot) throws Exception {
        ByteBuffer table = ByteBuffer.allocate(cards.length * slot).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < cards.length; r++) {
            table.putInt(r * slot + NodeSegmentDescriptor.CARD_LENGTH_FIELD_OFFSET, cards[r].length);
            table.put(r * slot + NodeSegmentDescriptor.CARD_DATA_OFFSET, cards[r]);
        }
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(table.array()));
    }

    private static void assertCounts(long puts, long gets, long actualPuts, long actualGets) {
        assertEquals(puts + " puts, " + gets + " gets", actualPuts + " puts, " + actualGets + " gets");
    }

    private void assertSegmentDirectoryEmpty() throws Exception {
        try (Stream<Path> files = Files.list(segments)) {
            List<Path> left = files.toList();
            assertTrue(left.isEmpty(), "segment files left behind: " + left);
        }
    }

    @Test
    void aRankKilledRightAfterCreatingItsNodeSegmentLeavesNoSegmentFile() throws Exception {
        Job.Result r = Job.np(4).launcherOptions("--fake-nodes", "2")
                .env("MPJ_SEGMENT_DIR", segments.toString())
                .env("MPJ_TEST_KILL_AFTER_PHASE", "segment@2") // rank 2 is node 1's root: it created the file
                .run(CardTableProgram.class);
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.err().contains("kills itself (SIGKILL): phase segment ended"), r::toString);
        assertEquals(0, r.linesContaining("cardtable OK"), r::toString);
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
        assertSegmentDirectoryEmpty();
    }
}

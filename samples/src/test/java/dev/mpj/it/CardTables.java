package dev.mpj.it;

import dev.mpj.runtime.node.NodeSegmentDescriptor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Reads what {@link CardTableProgram} printed in a job of any launcher: checks that every rank's node segment
 * holds byte for byte the table the ranks' cards define, that the named strategy ran, and sums the exchange's
 * PMI operations over the job.
 */
final class CardTables {
    private static final Pattern LINE = Pattern.compile(
            "cardtable rank (\\d+) node (\\d+) digest (\\w+) slot (\\d+) card (\\w+) exchange (\\w+) puts (\\d+)"
                    + " gets (\\d+) barriers (\\d+) rings (\\d+) allgathers (\\d+)");

    /** The exchange's PMI operations, summed over the ranks. */
    record Operations(long puts, long gets, long barriers, long rings, long allgathers) {
    }

    private CardTables() {
    }

    /** Asserts one canonical table on all {@code np} ranks after {@code exchange}; returns its PMI operations. */
    static Operations assertOneTable(String out, int np, String exchange) throws Exception {
        byte[][] cards = new byte[np][];
        String[] digests = new String[np];
        int slot = -1;
        long puts = 0;
        long gets = 0;
        long barriers = 0;
        long rings = 0;
        long allgathers = 0;
        HexFormat hex = HexFormat.of();
        for (Matcher m = LINE.matcher(out); m.find(); ) {
            int rank = Integer.parseInt(m.group(1));
            digests[rank] = m.group(3);
            slot = Integer.parseInt(m.group(4));
            cards[rank] = hex.parseHex(m.group(5));
            assertEquals(exchange, m.group(6));
            puts += Long.parseLong(m.group(7));
            gets += Long.parseLong(m.group(8));
            barriers += Long.parseLong(m.group(9));
            rings += Long.parseLong(m.group(10));
            allgathers += Long.parseLong(m.group(11));
        }
        String expected = canonicalTableDigest(cards, slot);
        for (int rank = 0; rank < np; rank++) {
            assertEquals(expected, digests[rank], "rank " + rank + "'s table\n" + out);
        }
        return new Operations(puts, gets, barriers, rings, allgathers);
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
}

package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.runtime.pmi.wire.PmiException;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PmiKvsTest {
    private final SingletonPmiClient client = new SingletonPmiClient();

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    @Test
    void smallValueIsOneLowercaseHexPut() {
        PmiKvs.putBytes(client, "card-0", new byte[] {0x0a, (byte) 0xff, 0x10});
        client.barrier();
        assertEquals("0aff10", client.get("card-0"));
        assertEquals(1, client.counters().puts());
        assertArrayEquals(new byte[] {0x0a, (byte) 0xff, 0x10}, PmiKvs.getBytes(client, "card-0"));
    }

    @Test
    void valueAtTheLimitIsNotSegmented() {
        byte[] value = randomBytes(337); // 674 hex characters
        PmiKvs.putBytes(client, "card-0", value);
        client.barrier();
        assertEquals(1, client.counters().puts());
        assertArrayEquals(value, PmiKvs.getBytes(client, "card-0"));
    }

    @Test
    void largeValueIsSplitIntoSegmentsWithinTheLimit() {
        byte[] value = randomBytes(3000); // 6000 hex characters: 9 segments of at most 674
        PmiKvs.putBytes(client, "card-0", value);
        client.barrier();
        assertEquals("seg:9", client.get("card-0"));
        for (int i = 0; i < 9; i++) {
            String segment = client.get(PmiKvs.segmentKey("card-0", i));
            assertTrue(segment.length() <= client.maxValueLength(), "segment " + i + ": " + segment.length());
        }
        assertArrayEquals(value, PmiKvs.getBytes(client, "card-0"));
    }

    @Test
    void emptyValueRoundTrips() {
        PmiKvs.putBytes(client, "card-0", new byte[0]);
        client.barrier();
        assertArrayEquals(new byte[0], PmiKvs.getBytes(client, "card-0"));
    }

    @Test
    void missingKeyGivesNull() {
        assertNull(PmiKvs.getBytes(client, "card-9"));
    }

    @Test
    void missingSegmentFailsNamingIt() {
        client.put("card-0", "seg:2");
        client.put(PmiKvs.segmentKey("card-0", 0), "00");
        client.barrier();
        PmiException e = assertThrows(PmiException.class, () -> PmiKvs.getBytes(client, "card-0"));
        assertTrue(e.getMessage().contains("segment 1 of 2"), e.getMessage());
    }

    @Test
    void malformedValuesFail() {
        client.put("odd", "abc");
        client.put("nothex", "zz");
        client.put("badcount", "seg:x");
        client.put("zerocount", "seg:0");
        client.barrier();
        for (String key : new String[] {"odd", "nothex", "badcount", "zerocount"}) {
            assertThrows(PmiException.class, () -> PmiKvs.getBytes(client, key), key);
        }
    }

    @Test
    void hexRoundTripsEveryByteValue() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String hex = PmiKvs.hex(all);
        assertTrue(hex.startsWith("000102") && hex.endsWith("fdfeff"), hex);
        assertArrayEquals(all, PmiKvs.unhex(hex));
        assertArrayEquals(all, PmiKvs.unhex(hex.toUpperCase()));
    }
}

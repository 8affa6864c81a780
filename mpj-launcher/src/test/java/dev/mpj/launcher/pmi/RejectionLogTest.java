package dev.mpj.launcher.pmi;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RejectionLogTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);

    @Test
    void theFirstRejectionOfASourceIsLoggedAndTheRestSummedUpEveryTenSeconds() throws Exception {
        RejectionLog log = new RejectionLog();
        InetAddress local = InetAddress.getByName("127.0.0.1");
        String first = log.reject(local, "sent \"x\" without showing the job's secret first", 0);
        assertTrue(first.startsWith("rejected a PMI connection from 127.0.0.1: it sent \"x\""), first);
        for (int i = 1; i <= 500; i++) {
            assertNull(log.reject(local, "sent garbage " + i, i * S / 100), "within 10 s only the count grows");
        }
        assertEquals(List.of(), log.due(9 * S, false));
        assertEquals(S, log.nanosToNextSummary(9 * S));
        assertEquals(List.of("rejected 500 more PMI connections from 127.0.0.1 in the last 10 s; the last one sent"
                + " garbage 500"), log.due(10 * S, false));
        assertEquals(Long.MAX_VALUE, log.nanosToNextSummary(10 * S), "nothing pending after a summary");
        assertEquals(501, log.rejected());
    }

    @Test
    void eachSourceHasItsOwnFirstLineAndAllPendingCountsAreGivenAtTheEnd() throws Exception {
        RejectionLog log = new RejectionLog();
        InetAddress a = InetAddress.getByName("127.0.0.1");
        InetAddress b = InetAddress.getByName("127.0.0.2");
        assertTrue(log.reject(a, "p", 0) != null);
        assertTrue(log.reject(b, "q", 0) != null);
        assertNull(log.reject(a, "p", S));
        assertNull(log.reject(a, "p", 2 * S));
        String late = log.reject(b, "q", 11 * S);
        assertEquals("rejected 1 more PMI connection from 127.0.0.2 in the last 11 s; the last one q", late);
        assertEquals(List.of("rejected 2 more PMI connections from 127.0.0.1 in the last 3 s; the last one p"),
                log.due(3 * S, true));
    }
}

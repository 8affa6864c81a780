package dev.mpj.runtime.pmi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.runtime.pmi.wire.PmiException;
import org.junit.jupiter.api.Test;

class SingletonPmiClientTest {
    private final SingletonPmiClient client = new SingletonPmiClient();

    @Test
    void isAJobOfOneOnOneNode() {
        assertEquals(0, client.rank());
        assertEquals(1, client.size());
        assertEquals("(vector,(0,1,1))", client.processMapping());
        assertEquals(674, client.maxValueLength());
        assertEquals("singleton", client.dialect());
    }

    @Test
    void jobIdNamesThisProcessAndDiffersPerClient() {
        String id = client.jobId();
        assertTrue(id.matches("singleton-" + ProcessHandle.current().pid() + "-[0-9a-f]{8}"), id);
        assertNotEquals(id, new SingletonPmiClient().jobId());
    }

    @Test
    void putIsVisibleOnlyAfterBarrier() {
        client.put("addr-0", "0a0b");
        assertNull(client.get("addr-0"));
        client.barrier();
        assertEquals("0a0b", client.get("addr-0"));
    }

    @Test
    void enforcesTheSameLimitsAsAWireClient() {
        assertThrows(PmiException.class, () -> client.put("k".repeat(64), "v"));
        assertThrows(PmiException.class, () -> client.put("k", "v".repeat(675)));
        assertThrows(PmiException.class, () -> client.put("k", "a b"));
        assertThrows(PmiException.class, () -> client.put("PMI_process_mapping", "(vector,(0,1,1))"));
        client.put("k".repeat(63), "v".repeat(674));
    }

    @Test
    void countsOperations() {
        client.put("a", "1");
        client.put("b", "2");
        client.barrier();
        client.get("a");
        assertEquals(2, client.counters().puts());
        assertEquals(1, client.counters().gets());
        assertEquals(1, client.counters().barriers());
    }

    @Test
    void hasNoRing() {
        assertFalse(client.hasRing());
        PmiException e = assertThrows(PmiException.class, () -> client.ring("v"));
        assertTrue(e.getMessage().contains("no PMIX_Ring"), e.getMessage());
    }

    @Test
    void isUnusableAfterFinish() {
        client.finish();
        assertThrows(PmiException.class, client::barrier);
    }
}

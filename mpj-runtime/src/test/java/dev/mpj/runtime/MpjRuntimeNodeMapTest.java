package dev.mpj.runtime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MpjRuntimeNodeMapTest {
    @Test
    @Timeout(30)
    void initFindsTheNodeMapAndTimesIt() {
        MpjRuntime runtime = new MpjRuntime();
        runtime.init(new String[0]); // no process manager in a test JVM: a singleton job
        try {
            assertEquals("[[0]]", runtime.nodeMap().toString());
            assertTrue(runtime.initReport().phaseNanos().containsKey("nodemap"));
        } finally {
            runtime.finish();
        }
    }
}

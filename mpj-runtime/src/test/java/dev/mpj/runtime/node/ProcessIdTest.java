package dev.mpj.runtime.node;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProcessIdTest {
    @Test
    void isThisProcesssPid() {
        assertEquals(ProcessHandle.current().pid(), ProcessId.current());
    }
}

package dev.mpj.launcher;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MpjRunTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void wrongUsageExitsWith2AndSaysWhy() {
        assertEquals(2, run("-np", "two", "Main"));
        assertEquals("mpjrun: -np needs a positive whole number, not 'two'\n"
                + "Try 'mpjrun --help' for more information.\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpPrintsTheUsageOnStdoutAndExits0() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: mpjrun -np N"));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    private int run(String... args) {
        return MpjRun.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}

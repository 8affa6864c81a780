package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The supervisor is invisible to the launcher: the rank's status, output and input pass through it unchanged. */
@Timeout(30)
class RankSupervisorTest {
    @Test
    void exitsWithTheRanksStatus() throws Exception {
        assertEquals(7, run(List.of("sh", "-c", "exit 7"), "").exitValue());
    }

    @Test
    void aRankKilledBySignalGives128PlusTheSignal() throws Exception {
        assertEquals(128 + 9, run(List.of("sh", "-c", "kill -KILL $$"), "").exitValue());
    }

    @Test
    void passesInputAndOutputThroughAndSaysNothingOfItsOwn() throws Exception {
        Process p = run(List.of("sh", "-c", "cat; echo to-err >&2; kill -KILL $$"), "to-out\n");
        assertEquals("to-out\n", new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals("to-err\n", new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static Process run(List<String> command, String input) throws Exception {
        Process p = new ProcessBuilder(RankSupervisor.wrap(command)).start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        p.waitFor();
        return p;
    }
}

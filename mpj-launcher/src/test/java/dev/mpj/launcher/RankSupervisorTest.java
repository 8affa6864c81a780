package dev.mpj.launcher;

import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The supervisor is invisible to the launcher: the rank's status, output and input pass through it unchanged; and it
 * hands the rank its connection to the PMI server.
 */
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

    @Test
    void handsTheRankItsConnectionToPmiPortAsADescriptorWithTheSecretShown() throws Exception {
        String secret = PmiSecret.newSecret();
        try (ServerSocket server = pmiServer()) {
            ProcessBuilder pb = supervised(List.of("sh", "-c", "echo \"$" + PmiVariables.PORT_FD
                    + "\"; echo over-the-fd >&" + RankSupervisor.PMI_FD), server);
            pb.environment().put(PmiVariables.SECRET, secret);
            Process p = pb.start();
            try (Socket rank = server.accept()) {
                BufferedReader lines = new BufferedReader(new InputStreamReader(rank.getInputStream(),
                        StandardCharsets.US_ASCII));
                assertEquals(PmiSecret.message(secret).toString(), lines.readLine());
                assertEquals("over-the-fd", lines.readLine());
            }
            assertEquals(RankSupervisor.PMI_FD + "\n", new String(p.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8));
            assertEquals(0, p.waitFor());
        }
    }

    /** The server learns of a rank's end from its connection's end: the supervisor keeps no copy open. */
    @Test
    void theRankAloneHoldsItsPmiConnection() throws Exception {
        try (ServerSocket server = pmiServer()) {
            Process p = start(List.of("sh", "-c", "exec " + RankSupervisor.PMI_FD + ">&-; read _"), server);
            try (Socket rank = server.accept()) {
                assertEquals(-1, rank.getInputStream().read(), "the connection stayed open after the rank closed it");
                assertTrue(p.isAlive(), "the rank was to outlive its connection");
            } finally {
                p.getOutputStream().close();
                p.waitFor();
            }
        }
    }

    @Test
    void withoutAServerAtPmiPortTheRankStartsWithoutTheDescriptor() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(RankSupervisor.wrap(List.of("sh", "-c",
                "echo \"[$" + PmiVariables.PORT_FD + "]\"")));
        pb.environment().put("PMI_PORT", "127.0.0.1:1");
        Process p = pb.start();
        assertEquals("[]\n", new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, p.waitFor());
    }

    private static ServerSocket pmiServer() throws IOException {
        return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    private static Process start(List<String> command, ServerSocket server) throws IOException {
        return supervised(command, server).start();
    }

    private static ProcessBuilder supervised(List<String> command, ServerSocket server) {
        ProcessBuilder pb = new ProcessBuilder(RankSupervisor.wrap(command));
        pb.environment().put("PMI_PORT", "127.0.0.1:" + server.getLocalPort());
        pb.environment().remove(PmiVariables.SECRET);
        return pb;
    }

    private static Process run(List<String> command, String input) throws Exception {
        Process p = new ProcessBuilder(RankSupervisor.wrap(command)).start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        p.waitFor();
        return p;
    }
}

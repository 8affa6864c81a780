package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A local stranger cannot break a running job through its PMI port: garbage lines, a false {@code initack}
 * claiming a rank, and 3000 idle connections are rejected, and the job finishes with exit 0 and its output.
 */
@Timeout(180)
@Tag("multi-jvm")
class StrangerIT {
    private static final int NP = 3;
    private static final int IDLE_CONNECTIONS = 3000;
    /** Lines no rank sends first: each must cost the stranger its connection and nothing else. */
    static final List<String> GARBAGE = List.of("hello\n", "cmd=\n", "\u0000\u0001\u00ff\n", "cmd=barrier_in\n",
            "000040cmd=kvs-fence;\n", "cmd=get key=" + "x".repeat(3000) + "\n", "GET / HTTP/1.0\r\n\r\n");
    /** A stranger claiming rank 1 without the job's secret. */
    static final String FALSE_INITACK = "cmd=initack pmiid=1\ncmd=init pmi_version=1 pmi_subversion=1\n";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    void aJobThatAStrangerPokesFinishesWithExit0(String transports, @TempDir Path dir) throws Exception {
        Job job = Job.np(NP).env("MPJ_TRANSPORTS", transports);
        if (transports.equals("tcp")) {
            job.launcherOptions("--fake-nodes", Integer.toString(NP));
        }
        PokedJob poked = PokedJob.start(job, dir);
        InetSocketAddress address = poked.pmiPort();

        for (String garbage : GARBAGE) {
            assertClosedWithoutAnswer(address, garbage);
        }
        assertClosedWithoutAnswer(address, FALSE_INITACK);
        holdIdleConnections(address);

        Job.Result r = poked.finish(120);
        assertEquals(0, r.exitCode(), r::toString);
        for (int rank = 0; rank < NP; rank++) {
            assertEquals(1, r.linesContaining("rank " + rank + " sum " + NP * (NP + 1) / 2), r::toString);
        }
        assertTrue(r.err().contains("mpjrun: rejected a PMI connection from 127.0.0.1"), r::toString);
        assertTrue(r.leftovers().isEmpty(), () -> "rank JVMs left behind\n" + r);
    }

    /** A running {@link PokedProgram} job: its launcher, mpjrun's PMI port, and the file that lets it go on. */
    record PokedJob(Job.Running running, InetSocketAddress pmiPort, Path go) {
        /** Starts the job in {@code dir} and waits until rank 0 has written the PMI port. */
        static PokedJob start(Job job, Path dir) throws IOException, InterruptedException {
            Path portFile = dir.resolve("pmi-port");
            Path go = dir.resolve("go");
            Job.Running running = job.start(PokedProgram.class, portFile.toString(), go.toString());
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.exists(portFile)) {
                assertTrue(System.nanoTime() < deadline && running.launcher().isAlive(),
                        () -> "rank 0 never wrote PMI_PORT: " + running.outSoFar());
                Thread.sleep(20);
            }
            String port = Files.readString(portFile).trim();
            return new PokedJob(running, new InetSocketAddress(port.substring(0, port.lastIndexOf(':')),
                    Integer.parseInt(port.substring(port.lastIndexOf(':') + 1))), go);
        }

        /** Lets the ranks go on and waits for the job's end. */
        Job.Result finish(long timeoutSeconds) throws IOException {
            Files.createFile(go);
            return running.await(timeoutSeconds);
        }
    }

    /** Sends {@code text} as a stranger; the server must close the connection and send nothing. */
    static void assertClosedWithoutAnswer(InetSocketAddress address, String text) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(address);
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            try {
                assertEquals(-1, in.read(), "a stranger gets no answer: " + text);
            } catch (SocketException reset) {
                // closed with a reset: no answer either
            }
        }
    }

    /**
     * Opens the connections and keeps them all open at once, saying nothing, then closes them. Those beyond the
     * server's cap are reset at once, some while still connecting.
     */
    private static void holdIdleConnections(InetSocketAddress address) throws IOException {
        List<Socket> idle = new ArrayList<>(IDLE_CONNECTIONS);
        try {
            for (int i = 0; i < IDLE_CONNECTIONS; i++) {
                Socket s = new Socket();
                idle.add(s);
                s.setSoLinger(true, 0);
                try {
                    s.connect(address);
                } catch (SocketException reset) {
                    // the server has closed it already
                }
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
        }
    }
}

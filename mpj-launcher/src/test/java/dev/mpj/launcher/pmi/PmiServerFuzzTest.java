package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.Pmi1Client;
import dev.mpj.runtime.pmi.Pmi2Client;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;
import dev.mpj.runtime.pmi.wire.ProcessMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random and mutated PMI-1 lines and PMI-2 frames over the wire, from connections that are no rank's: without
 * the secret, with a wrong one, or with the right one but no valid claim to a rank. Every case must cost its
 * connection and nothing else: the server counts each, tells the job nothing, and then serves a real job of a
 * PMI-1 and a PMI-2 rank.
 */
@Timeout(120)
class PmiServerFuzzTest {
    private static final int CASES = 100_000;
    private static final int THREADS = 4;
    private static final int SIZE = 2;
    private static final String SECRET = PmiSecret.newSecret();

    /** Valid messages of both dialects, as ranks send them, to mutate. */
    private static final List<String> CORPUS = List.of(
            "cmd=initack pmiid=0", "cmd=init pmi_version=1 pmi_subversion=1", "cmd=init pmi_version=2 pmi_subversion=0",
            "cmd=get_maxes", "cmd=get_appnum", "cmd=get_my_kvsname", "cmd=get_universe_size",
            "cmd=put kvsname=mpj_fuzz key=card-0 value=0a0b", "cmd=get kvsname=mpj_fuzz key=PMI_process_mapping",
            "cmd=barrier_in", "cmd=finalize", "cmd=abort exitcode=3", "mcmd=spawn", "endcmd",
            "cmd=mpj_secret secret=" + PmiSecret.newSecret(),
            frame("cmd=fullinit;pmirank=0;threaded=FALSE;"), frame("cmd=job-getid;thrid=1;"),
            frame("cmd=kvs-put;key=k;value=v;"), frame("cmd=kvs-get;jobid=mpj_fuzz;srcid=-1;key=k;"),
            frame("cmd=kvs-fence;"), frame("cmd=info-getnodeattr;key=k;wait=TRUE;"),
            frame("cmd=abort;isworld=TRUE;exitcode=1;"), frame("cmd=finalize;"));

    @Test
    void strangersSendingGarbageCostOnlyTheirConnectionAndTheServerStillServesAJob() throws Exception {
        ServerEvents jobEvents = new ServerEvents(false);
        try (PmiServer server = new PmiServer(ProcessMapping.singleNode(SIZE), "mpj_fuzz", SECRET,
                Duration.ofSeconds(60), jobEvents)) {
            server.start();
            InetSocketAddress address = server.address();
            AtomicLong sent = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    long seed = 0x5eed + t;
                    done.add(pool.submit(() -> {
                        fuzz(address, new Random(seed), CASES / THREADS, sent);
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(CASES, sent.get());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (server.rejectedConnections() < CASES && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(CASES, server.rejectedConnections(), "every case cost its connection");
            assertTrue(jobEvents.isEmpty(), () -> "the job heard of strangers: " + jobEvents);

            runJob(server.portVariable());
            assertEquals(List.of("connected", "connected", "finalized", "finalized"),
                    jobEvents.pending().stream().map(e -> e.split(" ")[0]).sorted().toList());
        }
    }

    /** One rank speaks PMI-1, the other PMI-2; each reads the other's put after a barrier. */
    private static void runJob(String port) throws Exception {
        ExecutorService ranks = Executors.newFixedThreadPool(SIZE);
        try {
            Future<String> zero = ranks.submit(() -> exchange(Pmi1Client.overPort(port, 0, true, SECRET)));
            Future<String> one = ranks.submit(() -> exchange(Pmi2Client.overPort(port, 1,
                    Map.of(PmiVariables.SECRET, SECRET))));
            assertEquals("from-1", zero.get());
            assertEquals("from-0", one.get());
        } finally {
            ranks.shutdownNow();
        }
    }

    private static String exchange(PmiClient client) {
        try (client) {
            client.put("card-" + client.rank(), "from-" + client.rank());
            client.barrier();
            String other = client.get("card-" + (1 - client.rank()));
            client.finish();
            return other;
        }
    }

    private static void fuzz(InetSocketAddress address, Random random, int cases, AtomicLong sent) throws IOException {
        for (int i = 0; i < cases; i++) {
            byte[] line = nextCase(random);
            boolean withSecret = random.nextBoolean();
            if (withSecret && claimsARank(line)) {
                i--;
                continue; // a rank that shows the secret may claim its rank: that is no stranger's case
            }
            try (Socket s = new Socket()) {
                s.setSoLinger(true, 0); // a reset, so 10^5 connections leave no TIME_WAIT behind
                s.setTcpNoDelay(true);
                s.connect(address);
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                if (withSecret) {
                    out.write(PmiSecret.message(SECRET).encode());
                }
                out.write(line);
                out.flush();
                awaitClose(s.getInputStream());
            }
            sent.incrementAndGet();
        }
    }

    /** Reads until the server closes the connection; it must send nothing to a stranger. */
    private static void awaitClose(InputStream in) throws IOException {
        try {
            int b = in.read();
            if (b >= 0) {
                throw new AssertionError("the server answered a connection that is no rank's: " + (char) b);
            }
        } catch (SocketException reset) {
            // the server closes rejected connections with a reset
        }
    }

    /** A random line, or a mutated one of the corpus, always ending in '\n' so the server sees it whole. */
    private static byte[] nextCase(Random random) {
        byte[] bytes;
        if (random.nextInt(4) == 0) {
            bytes = new byte[random.nextInt(120)];
            random.nextBytes(bytes);
        } else {
            bytes = CORPUS.get(random.nextInt(CORPUS.size())).getBytes(StandardCharsets.ISO_8859_1);
            for (int m = 1 + random.nextInt(3); m > 0; m--) {
                bytes = mutate(bytes, random);
            }
        }
        byte[] line = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        line[bytes.length] = '\n';
        return line;
    }

    private static byte[] mutate(byte[] b, Random random) {
        if (b.length == 0) {
            return new byte[] {(byte) random.nextInt(256)};
        }
        int at = random.nextInt(b.length);
        String s = new String(b, StandardCharsets.ISO_8859_1);
        String changed = switch (random.nextInt(8)) {
            case 0 -> s.substring(0, at) + (char) random.nextInt(256) + s.substring(at + 1); // replace a byte
            case 1 -> s.substring(0, at) + (char) random.nextInt(256) + s.substring(at); // insert a byte
            case 2 -> s.substring(0, at) + s.substring(at + 1); // delete a byte
            case 3 -> s.substring(0, at); // truncate
            case 4 -> s + s.substring(at); // repeat a tail
            case 5 -> s.substring(0, at) + "x".repeat(random.nextInt(1500)) + s.substring(at); // a long value
            case 6 -> s.replace(random.nextBoolean() ? ' ' : ';', random.nextBoolean() ? '=' : '\t');
            default -> String.format("%06d", random.nextInt(2000)) + s.substring(Math.min(s.length(), 6)); // length
        };
        return changed.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Whether {@code line} would be a valid initack of a rank of the job. */
    private static boolean claimsARank(byte[] line) {
        try {
            Pmi1Message m = Pmi1Message.parse(new String(line, 0, line.length - 1, StandardCharsets.ISO_8859_1));
            if (!"initack".equals(m.get("cmd"))) {
                return false;
            }
            int id = m.requireInt("pmiid");
            return id >= 0 && id < SIZE;
        } catch (PmiException | IndexOutOfBoundsException e) {
            return false;
        }
    }

    private static String frame(String body) {
        return new String(Pmi2Message.parse(body).encode(), StandardCharsets.ISO_8859_1);
    }

}

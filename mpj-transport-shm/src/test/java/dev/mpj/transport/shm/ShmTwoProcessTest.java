package dev.mpj.transport.shm;

import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two ranks in two processes over one segment file: the child runs {@link ShmEchoMain}. */
@Timeout(60)
@Tag("multi-jvm")
class ShmTwoProcessTest {
    private static final int RING = 64 * 1024;

    @TempDir
    Path dir;

    @Test
    void framesMakeTheRoundTripBetweenProcessesIntactAndAnOrderlyExitIsNoLoss() throws Exception {
        try (ShmNode node = ShmNode.create(dir, 2, (int) ShmLayout.roomFor(2, RING))) {
            RecordingSink sink = new RecordingSink();
            ShmTransport t = node.start(0, sink);
            int[] sizes = {0, 8, 1000, t.maxRecordLength(), 3 * t.maxRecordLength() + 1, 20 * RING};
            Process child = echo(node, sizes.length, "close");
            try {
                for (int i = 0; i < sizes.length; i++) {
                    t.send(1, Frames.header(FrameHeader.EAGER, i, sizes[i]), Frames.payload(i, sizes[i]));
                }
                ShmTransportTest.pollUntil(t, () -> sink.count() == sizes.length);
                List<RecordingSink.Received> got = sink.frames();
                for (int i = 0; i < sizes.length; i++) {
                    assertEquals(i, got.get(i).tag());
                    assertEquals(sizes[i], got.get(i).payload().length);
                    assertTrue(Frames.matches(got.get(i).payload(), i, 0), "frame " + i);
                }
                assertEquals(0, exitOf(child));
                pollFor(t, 3 * PeerWatch.INTERVAL_NANOS);
                assertTrue(sink.lost().isEmpty(), sink.lost().toString());
            } finally {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void aPeerProcessThatDiesIsReportedLost() throws Exception {
        try (ShmNode node = ShmNode.create(dir, 2, (int) ShmLayout.roomFor(2, RING))) {
            RecordingSink sink = new RecordingSink();
            ShmTransport t = node.start(0, sink);
            Process child = echo(node, 1, "die");
            try {
                t.send(1, Frames.header(FrameHeader.EAGER, 0, 8), Frames.payload(0, 8));
                ShmTransportTest.pollUntil(t, () -> sink.count() == 1);
                assertEquals(3, exitOf(child));
                ShmTransportTest.pollUntil(t, () -> sink.lost().containsKey(1));
            } finally {
                child.destroyForcibly();
            }
        }
    }

    private static Process echo(ShmNode node, int count, String ending) throws IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ShmEchoMain.class.getName(),
                node.file.toString(), Integer.toString(count), ending)
                .redirectErrorStream(true).start();
    }

    /** Waits for the child (which reaps it, so its pid is gone) and returns its exit status. */
    private static int exitOf(Process child) throws Exception {
        if (!child.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the child did not exit");
        }
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!output.isBlank()) {
            System.err.println("child: " + output);
        }
        return child.exitValue();
    }

    private static void pollFor(ShmTransport t, long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            if (t.poll() == 0) {
                Thread.yield();
            }
        }
    }
}

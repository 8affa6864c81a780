package dev.mpj.transport.tcp;

import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which thread reads and writes the sockets ({@code mpj.tcp.progress}). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpProgressTest {
    private static final int FRAMES = 200;
    /** A standby that never takes over, so every frame must come through the test thread's polls. */
    private static final long NEVER = TimeUnit.HOURS.toNanos(1);

    @Test
    void byDefaultTheCallerDrivesTheSocketsSoTheEngineMustPoll() throws Exception {
        try (TcpJob job = TcpJob.start(1)) {
            assertTrue(job.rank(0).needsPolling());
        }
    }

    @Test
    void framesReachTheSinkOnTheThreadThatPolls() throws Exception {
        try (TcpJob job = TcpJob.start(2, Settings.defaults(), () -> new TcpTransport(NEVER))) {
            for (int i = 0; i < FRAMES; i++) {
                job.rank(0).send(1, TcpJob.header(i, i), TcpJob.payload(8 + i, i));
                job.rank(0).poll();
                job.rank(1).poll();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (job.sink(1).frames().size() < FRAMES && System.nanoTime() < deadline) {
                job.rank(0).poll(); // the connect and the handshake need the sender's loop too
                job.rank(1).poll();
            }

            List<RecordingSink.Received> frames = job.sink(1).awaitFrames(FRAMES, Duration.ZERO);
            for (int i = 0; i < FRAMES; i++) {
                assertEquals(i, frames.get(i).tag());
                assertEquals(Thread.currentThread(), frames.get(i).thread(), "frame " + i);
            }
        }
    }

    @Test
    void withoutPollsTheStandbyDeliversFrames() throws Exception {
        try (TcpJob job = TcpJob.start(2)) {
            for (int i = 0; i < FRAMES; i++) {
                job.rank(0).send(1, TcpJob.header(i, i), TcpJob.payload(8, i));
            }

            List<RecordingSink.Received> frames = job.sink(1).awaitFrames(FRAMES, Duration.ofSeconds(30));
            for (int i = 0; i < FRAMES; i++) {
                assertEquals(i, frames.get(i).tag());
                assertNotEquals(Thread.currentThread(), frames.get(i).thread());
            }
        }
    }

    @Test
    void withEventLoopThreadsFramesArriveWithoutPolling() throws Exception {
        Settings threads = Settings.defaults().with(Setting.TCP_PROGRESS, "threads");
        try (TcpJob job = TcpJob.start(2, threads, TcpTransport::new)) {
            assertFalse(job.rank(1).needsPolling());
            for (int i = 0; i < FRAMES; i++) {
                job.rank(0).send(1, TcpJob.header(i, i), TcpJob.payload(8, i));
                assertEquals(0, job.rank(1).poll());
            }

            List<RecordingSink.Received> frames = job.sink(1).awaitFrames(FRAMES, Duration.ofSeconds(30));
            assertEquals(FRAMES, frames.size());
            assertTrue(frames.get(0).thread().getName().startsWith("mpj-tcp"), frames.get(0).thread().getName());
        }
    }
}

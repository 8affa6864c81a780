package dev.mpj.runtime.engine;

import dev.mpj.api.Operation;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.FrameHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A router whose transports nobody pushes frames from: the engine polls it on every pass. */
@Timeout(30)
class ProgressEnginePollingTest {
    private static final int CONTEXT = 3;

    @Test
    void awaitPollsTheRouterUntilAPolledFrameCompletesTheReceive() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults());
        PolledRouter router = new PolledRouter(engine, 1000);
        engine.setRouter(router);
        Operation r = engine.receive(ByteBuffer.allocate(8), 1, 5, CONTEXT);
        engine.await(r::isComplete);
        assertEquals(5, r.tag());
        assertEquals(1000, router.polls, "frames are looked for on every pass, not only when woken");
    }

    @Test
    void probeSeesAFrameThatOnlyAPollDelivers() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults());
        engine.setRouter(new PolledRouter(engine, 1));
        assertTrue(engine.probe(1, 5, CONTEXT) != null);
    }

    @Test
    void aWaitThatEndedWhileTheRankIdledReturnsBeforeReadingThePeersNextFrame() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults());
        PolledRouter router = new PolledRouter(engine, 2);
        engine.setRouter(router);
        int[] tests = {0};
        // false at the wait's first test and after its first pass, true once it has idled: a collective room's
        // wait whose peer arrived meanwhile and has sent its next message since
        engine.await(() -> ++tests[0] >= 3);
        assertEquals(1, router.polls, "the ended wait made no second pass");
        assertEquals(0, engine.unexpectedCount(), "the peer's frame was not taken ahead of its receive");
        byte[] room = new byte[8];
        Operation r = engine.receive(ByteBuffer.wrap(room), 1, 5, CONTEXT);
        engine.await(r::isComplete);
        assertEquals(2, router.polls, "the receive posted after the wait took the frame");
        assertEquals(8, r.byteCount());
    }

    @Test
    void aWaitForOthersStoreTestsItsConditionBeforeAnyPass() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults());
        PolledRouter router = new PolledRouter(engine, 1);
        engine.setRouter(router);
        int[] tests = {0};
        // the caller found it false; true at the last test before the wait loop: a peer's store seen while spinning
        engine.awaitSetByOthers(() -> ++tests[0] >= ProgressEngine.POLLS_BEFORE_WAIT);
        assertEquals(ProgressEngine.POLLS_BEFORE_WAIT, tests[0]);
        assertEquals(0, router.polls, "no pass read the rings");
        assertEquals(0, engine.unexpectedCount(), "the peer's frame waits for its receive");
    }

    @Test
    void aWaitForOthersStoreNotMetWhileSpinningEntersTheWaitLoop() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults());
        PolledRouter router = new PolledRouter(engine, 3);
        engine.setRouter(router);
        // met only once a pass has delivered the frame: the wait loop's passes went on after the spin
        engine.awaitSetByOthers(() -> engine.unexpectedCount() == 1);
        assertEquals(3, router.polls);
    }

    @Test
    void aPlainWaitMakesAPassAfterItsFirstTest() {
        ProgressEngine engine = new ProgressEngine(0, Settings.defaults());
        PolledRouter router = new PolledRouter(engine, 2);
        engine.setRouter(router);
        int[] tests = {0};
        // a receive's condition, which only a pass makes true, is not spun on before the loop's first pass
        engine.await(() -> ++tests[0] > 2);
        assertEquals(1, router.polls);
    }

    /** Delivers one eager frame from rank 1 on its {@code due}-th poll. */
    private static final class PolledRouter implements ProgressEngine.FrameRouter {
        private final ProgressEngine engine;
        private final int due;
        int polls;

        PolledRouter(ProgressEngine engine, int due) {
            this.engine = engine;
            this.due = due;
        }

        @Override
        public void send(int peer, ByteBuffer header, ByteBuffer payload) {
            throw new AssertionError("nothing is sent");
        }

        @Override
        public int poll() {
            if (++polls != due) {
                return 0;
            }
            ByteBuffer frame = ByteBuffer.allocate(FrameHeader.LENGTH + 8).order(ByteOrder.LITTLE_ENDIAN);
            FrameHeader.write(frame, FrameHeader.EAGER, CONTEXT, 1, 5, 1, 8);
            engine.onFrame(1, frame, () -> { });
            return 1;
        }

        @Override
        public boolean needsPolling() {
            return true;
        }
    }
}

package dev.mpj.runtime.engine;

import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.spi.FrameHeader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;

/**
 * Insert and match with {@code depth} entries already queued, through the engine's public calls only (so the same
 * benchmark runs against any engine). Each operation inserts one entry and matches one, so the depth holds:
 * <ul>
 * <li>{@code postedInOrder}: {@code depth} receives for the same envelope are posted; post one more, then an 8-byte
 * eager message arrives and takes the oldest (the common case, matching at the head).</li>
 * <li>{@code postedWildcard}: {@code depth} receives for other sources and tags are posted; post an
 * {@code ANY_SOURCE} receive behind them, then a message arrives that only it accepts.</li>
 * <li>{@code unexpectedInOrder}: {@code depth} messages with the same envelope wait unexpected; one more arrives,
 * then a receive takes the oldest.</li>
 * <li>{@code unexpectedWildcard}: {@code depth} messages from other sources and tags wait unexpected; one that
 * arrives behind them is taken by an {@code ANY_SOURCE} receive.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED")
public class MatchingDepthBenchmark {
    private static final int CONTEXT = 2;
    private static final int SOURCE = 1;
    private static final int OTHER_SOURCE = 3;
    private static final int TAG = 7;
    private static final int SIZE = 8;
    private static final Runnable NOTHING = () -> { };

    /** An engine with {@code depth} entries queued by {@link #fill}. */
    @State(Scope.Thread)
    public abstract static class Queues {
        @Param({"1", "1000", "100000"})
        int depth;

        ProgressEngine engine;
        final ByteBuffer frame = frame(SOURCE, TAG);
        final ByteBuffer room = ByteBuffer.allocate(SIZE);

        @Setup(Level.Trial)
        public void setUp() {
            engine = new ProgressEngine(0, Settings.defaults());
            engine.setRouter((peer, header, payload) -> {
                throw new IllegalStateException("nothing is sent");
            });
            for (int i = 0; i < depth; i++) {
                fill(i);
            }
        }

        abstract void fill(int i);

        void arrive(ByteBuffer f, int peer) {
            engine.onFrame(peer, f.duplicate().order(ByteOrder.LITTLE_ENDIAN), NOTHING);
            engine.poll();
        }

        static ByteBuffer frame(int source, int tag) {
            ByteBuffer f = ByteBuffer.allocate(FrameHeader.LENGTH + SIZE).order(ByteOrder.LITTLE_ENDIAN);
            FrameHeader.write(f, FrameHeader.EAGER, CONTEXT, source, tag, 1, SIZE);
            return f.clear();
        }
    }

    /** Receives for the measured envelope: each operation matches at the head. */
    @State(Scope.Thread)
    public static class PostedSame extends Queues {
        @Override
        void fill(int i) {
            engine.receive(ByteBuffer.allocate(SIZE), SOURCE, TAG, CONTEXT);
        }
    }

    /** Receives for another source and other tags, which no measured message matches. */
    @State(Scope.Thread)
    public static class PostedOthers extends Queues {
        @Override
        void fill(int i) {
            engine.receive(ByteBuffer.allocate(SIZE), OTHER_SOURCE, 1000 + i, CONTEXT);
        }
    }

    /** Messages with the measured envelope: each operation takes the head. */
    @State(Scope.Thread)
    public static class UnexpectedSame extends Queues {
        @Override
        void fill(int i) {
            arrive(frame, SOURCE);
        }
    }

    /** Messages from another source with other tags, which no measured receive takes. */
    @State(Scope.Thread)
    public static class UnexpectedOthers extends Queues {
        @Override
        void fill(int i) {
            arrive(frame(OTHER_SOURCE, 1000 + i), OTHER_SOURCE);
        }
    }

    @Benchmark
    public Operation postedInOrder(PostedSame q) {
        Operation r = q.engine.receive(q.room, SOURCE, TAG, CONTEXT);
        q.arrive(q.frame, SOURCE);
        return r;
    }

    @Benchmark
    public Operation postedWildcard(PostedOthers q) {
        Operation r = q.engine.receive(q.room, MpiBackend.ANY_SOURCE, TAG, CONTEXT);
        q.arrive(q.frame, SOURCE);
        return matched(r);
    }

    @Benchmark
    public Operation unexpectedInOrder(UnexpectedSame q) {
        q.arrive(q.frame, SOURCE);
        return matched(q.engine.receive(q.room, SOURCE, TAG, CONTEXT));
    }

    @Benchmark
    public Operation unexpectedWildcard(UnexpectedOthers q) {
        q.arrive(q.frame, SOURCE);
        return matched(q.engine.receive(q.room, MpiBackend.ANY_SOURCE, TAG, CONTEXT));
    }

    private static Operation matched(Operation r) {
        if (!r.isComplete()) {
            throw new IllegalStateException("not matched");
        }
        return r;
    }
}

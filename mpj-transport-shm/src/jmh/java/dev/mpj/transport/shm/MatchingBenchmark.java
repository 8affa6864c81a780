package dev.mpj.transport.shm;

import dev.mpj.api.Operation;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.engine.ProgressEngine;
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
 * The matching engine alone: an eager frame arrives for a receive posted behind {@code depth − 1} receives it does
 * not match (other tags), so the posted queue is scanned that far. One post, one delivery, one match per operation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED")
public class MatchingBenchmark {
    private static final int CONTEXT = 2;
    private static final int TAG = 7;
    private static final Runnable NOTHING = () -> { };

    @Param({"1", "16", "256"})
    int depth;

    @Param({"8", "4096"})
    int size;

    private ProgressEngine engine;
    private ByteBuffer frame;
    private ByteBuffer room;

    @Setup(Level.Trial)
    public void setUp() {
        engine = new ProgressEngine(0, Settings.defaults());
        engine.setRouter((peer, header, payload) -> {
            throw new IllegalStateException("nothing is sent");
        });
        for (int i = 1; i < depth; i++) {
            engine.receive(ByteBuffer.allocate(size), 1, 1000 + i, CONTEXT);
        }
        frame = ByteBuffer.allocate(FrameHeader.LENGTH + size).order(ByteOrder.LITTLE_ENDIAN);
        FrameHeader.write(frame, FrameHeader.EAGER, CONTEXT, 1, TAG, 1, size);
        room = ByteBuffer.allocate(size);
    }

    @Benchmark
    public Operation postMatchAndDeliver() {
        Operation r = engine.receive(room, 1, TAG, CONTEXT);
        engine.onFrame(1, frame.duplicate().order(ByteOrder.LITTLE_ENDIAN), NOTHING);
        engine.poll();
        if (!r.isComplete()) {
            throw new IllegalStateException("not matched");
        }
        return r;
    }
}

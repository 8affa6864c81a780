package dev.mpj.runtime.engine;

import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.config.Setting;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.BooleanSupplier;

/** Several engines in one thread, wired by copying frames straight into each other's inbox. */
final class EngineHarness {
    final ProgressEngine[] engines;
    int framesSent;

    EngineHarness(int n, int eagerThreshold, int chunk) {
        this(n, Settings.defaults()
                .with(Setting.EAGER_THRESHOLD, Integer.toString(eagerThreshold))
                .with(Setting.RENDEZVOUS_CHUNK, Integer.toString(chunk)));
    }

    EngineHarness(int n, Settings s) {
        engines = new ProgressEngine[n];
        for (int r = 0; r < n; r++) {
            engines[r] = new ProgressEngine(r, s);
        }
        for (int r = 0; r < n; r++) {
            int from = r;
            engines[r].setRouter((peer, header, payload) -> deliver(from, peer, header, payload));
        }
    }

    /** Hands a copy of the frame (header + payload) to {@code peer}'s inbox, as from {@code from}. */
    void deliver(int from, int peer, ByteBuffer header, ByteBuffer payload) {
        ByteBuffer f = ByteBuffer.allocate(header.remaining() + payload.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        f.put(header.duplicate()).put(payload.duplicate()).flip();
        framesSent++;
        engines[peer].onFrame(from, f, () -> { });
    }

    ProgressEngine get(int r) {
        return engines[r];
    }

    /** Polls every engine until the condition holds (bounded, so a broken protocol fails instead of hanging). */
    void pump(BooleanSupplier done) {
        for (int i = 0; i < 100_000; i++) {
            if (done.getAsBoolean()) {
                return;
            }
            for (ProgressEngine e : engines) {
                e.poll();
            }
        }
        throw new AssertionError("no progress");
    }

    void pumpAll() {
        for (int i = 0; i < 10; i++) {
            for (ProgressEngine e : engines) {
                e.poll();
            }
        }
    }
}

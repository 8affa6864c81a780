package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.spi.InitMessenger;
import dev.mpj.runtime.spi.ExchangeException;
import dev.mpj.api.Operation;
import dev.mpj.api.SendMode;
import dev.mpj.runtime.engine.ProgressEngine;

import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/**
 * {@link InitMessenger} over the progress engine, on {@link #INIT_CONTEXT}: a context id no communicator can
 * have (the {@code mpi} package gives communicators ids from 0 upwards), so init traffic never matches user
 * traffic, even when a rank leaves MPI.Init and starts sending while a slower root still finishes its allgather.
 */
public final class EngineMessenger implements InitMessenger {
    /** The context id of the runtime's own messages during MPI.Init. */
    public static final int INIT_CONTEXT = Integer.MIN_VALUE;

    private final ProgressEngine engine;

    public EngineMessenger(ProgressEngine engine) {
        this.engine = engine;
    }

    @Override
    public void sendReceive(ByteBuffer out, int dest, ByteBuffer in, int source, int tag) {
        int expected = in.remaining();
        Operation receive = engine.receive(in, source, tag, INIT_CONTEXT);
        Operation send = engine.send(out, dest, tag, INIT_CONTEXT, SendMode.STANDARD);
        engine.await(new BothComplete(receive, send));
        RuntimeException error = receive.error() != null ? receive.error() : send.error();
        if (error != null) {
            throw new ExchangeException("init message " + tag + " from rank " + source + " to rank " + dest
                    + " failed: " + error.getMessage(), error);
        }
        if (receive.byteCount() != expected) {
            throw new ExchangeException("init message " + tag + " from rank " + source + " has "
                    + receive.byteCount() + " bytes, expected " + expected);
        }
    }

    /** A class, not a lambda: no lambda bootstrap on the init path. */
    private record BothComplete(Operation a, Operation b) implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            return a.isComplete() && b.isComplete();
        }
    }
}

package mpi;

import dev.mpj.api.MpiBackend;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The calling thread's spare buffers for point-to-point transfers of arrays the runtime cannot address as bytes
 * (every array but {@code byte[]}, and strided layouts): a send packs into one, a receive lands in one before it
 * is unpacked. A buffer is lent while the runtime may use it and given back when the transfer has completed
 * (a send the runtime copied at once: when the call returns), so a halo exchange repeated every iteration
 * reuses a few buffers instead of allocating and zeroing two per message. A buffer given back on another thread
 * than the one it was lent on joins that thread's spares.
 */
final class TransferBuffers {
    /**
     * Spare buffers kept per thread: as many as a halo exchange of six faces has in flight at once, six receives
     * posted and six sends not yet read (a face above the eager threshold waits for its receiver), so that such an
     * exchange takes every buffer of an iteration from the spares the last one gave back.
     */
    static final int MAX_KEPT = 16;
    /** Bytes kept per thread, all spares together; a larger buffer is never kept. */
    static final int MAX_KEPT_BYTES = 4 << 20;

    // a subclass, not withInitial(...::new): linking that method reference is a bootstrap call in the
    // first collective of every rank
    private static final ThreadLocal<TransferBuffers> OF_THREAD = new ThreadLocal<>() {
        @Override
        protected TransferBuffers initialValue() {
            return new TransferBuffers();
        }
    };

    /**
     * The spares of the thread that asked last, with that thread: a blocking receive or send of a small array asks
     * once a call, and a single-threaded rank then finds its spares with one read and a comparison instead of a
     * {@link ThreadLocal} lookup, which the storm of small receives made by the million. Its fields are final, so a
     * read racing with another thread's write sees either pair whole; a thread that finds another's pair looks its
     * own up and makes itself the last.
     */
    private static Owned last;

    private final ByteBuffer[] spare = new ByteBuffer[MAX_KEPT];
    private int count;
    private long keptBytes;

    TransferBuffers() {
    }

    /**
     * A buffer of at least {@code length} bytes, little-endian, position 0 and limit {@code length}; content
     * undefined.
     */
    static ByteBuffer lend(int length) {
        return ofThread().take(length);
    }

    /**
     * {@link #lend} for a send: a rendezvous-sized one packs into memory the backend shares with the rank's node peers
     * ({@link MpiBackend#allocTransferMemory}), which they copy from once, where the backend has such memory.
     */
    static ByteBuffer lendForSend(int length) {
        return ofThread().takeForSend(length, Environment.backendIfRunning());
    }

    /** Gives back a buffer {@link #lend} or {@link #lendForSend} gave, once nothing reads or writes it any more. */
    static void giveBack(ByteBuffer buffer) {
        ofThread().keep(buffer);
    }

    /** A heap buffer: a spare, else a new one. */
    ByteBuffer take(int length) {
        int best = bestFit(length, false);
        return best < 0 ? ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN) : lendSpare(best, length);
    }

    /**
     * A buffer in the backend's shared memory when it shares sends of {@code length} bytes and such a buffer could be
     * kept (a kept one, else a new one), else a heap buffer as {@link #take}.
     */
    ByteBuffer takeForSend(int length, MpiBackend backend) {
        if (backend == null || length < backend.transferMemoryFrom() || length > MAX_KEPT_BYTES) {
            return take(length);
        }
        int best = bestFit(length, true);
        if (best >= 0) {
            return lendSpare(best, length);
        }
        ByteBuffer shared = backend.allocTransferMemory(length);
        return shared == null ? take(length) : shared.order(ByteOrder.LITTLE_ENDIAN).clear().limit(length);
    }

    /** The smallest spare of at least {@code length} bytes, direct (shared) or heap as asked; -1 when none. */
    private int bestFit(int length, boolean direct) {
        int best = -1;
        for (int i = 0; i < count; i++) {
            int capacity = spare[i].capacity();
            if (capacity >= length && spare[i].isDirect() == direct
                    && (best < 0 || capacity < spare[best].capacity())) {
                best = i;
            }
        }
        return best;
    }

    private ByteBuffer lendSpare(int best, int length) {
        ByteBuffer b = removeSpare(best);
        b.clear().limit(length);
        return b;
    }

    /** Takes spare {@code i} out of the kept ones. */
    private ByteBuffer removeSpare(int i) {
        ByteBuffer b = spare[i];
        keptBytes -= b.capacity();
        spare[i] = spare[--count];
        spare[count] = null;
        return b;
    }

    void keep(ByteBuffer buffer) {
        int capacity = buffer.capacity();
        if (capacity > MAX_KEPT_BYTES) {
            drop(buffer);
            return;
        }
        // full: the smallest spare makes way for a larger buffer, which serves more requests
        while (count > 0 && (count == MAX_KEPT || keptBytes + capacity > MAX_KEPT_BYTES)) {
            int smallest = 0;
            for (int i = 1; i < count; i++) {
                if (spare[i].capacity() < spare[smallest].capacity()) {
                    smallest = i;
                }
            }
            if (spare[smallest].capacity() >= capacity) {
                drop(buffer);
                return;
            }
            drop(removeSpare(smallest));
        }
        spare[count++] = buffer.order(ByteOrder.LITTLE_ENDIAN);
        keptBytes += capacity;
    }

    /** A buffer not kept: shared memory goes back to the backend, whose region would otherwise stay to Finalize. */
    private static void drop(ByteBuffer buffer) {
        MpiBackend backend = buffer.isDirect() ? Environment.backendIfRunning() : null;
        if (backend != null) {
            backend.freeTransferMemory(buffer);
        }
    }

    /** Spare buffers kept now. */
    int spares() {
        return count;
    }

    /** Bytes the spare buffers hold. */
    long keptBytes() {
        return keptBytes;
    }

    /** The calling thread's spares. */
    static TransferBuffers ofThread() {
        Owned o = last;
        Thread t = Thread.currentThread();
        return o != null && o.owner == t ? o.spares : lookUp(t);
    }

    private static TransferBuffers lookUp(Thread t) {
        TransferBuffers spares = OF_THREAD.get();
        last = new Owned(t, spares);
        return spares;
    }

    /** A thread's spares with the thread. */
    private static final class Owned {
        final Thread owner;
        final TransferBuffers spares;

        Owned(Thread owner, TransferBuffers spares) {
            this.owner = owner;
            this.spares = spares;
        }
    }
}

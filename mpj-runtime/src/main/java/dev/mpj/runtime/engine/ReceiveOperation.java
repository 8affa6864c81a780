package dev.mpj.runtime.engine;

import dev.mpj.api.Arrival;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.PendingCall;
import dev.mpj.api.WaitCondition;
import dev.mpj.runtime.config.UnsafeExport;
import mpi.MPIException;
import org.agrona.BufferUtil;
import org.agrona.UnsafeApi;

import java.nio.ByteBuffer;
import java.util.List;

/** A posted receive: matched by (context, source, tag), filled eagerly or by rendezvous data chunks. */
final class ReceiveOperation extends BaseOperation implements WaitCondition {
    /** Runs up to this long are copied word by word: the bulk copy's checks cost more than copying a few words. */
    static final int SHORT_COPY = 64;

    private final ProgressEngine engine;
    /** Not final: a blocking receive's operation is used again ({@link #reuse}). */
    long id;
    int context;
    int wantSource;
    int wantTag;
    /** Where data goes, from {@code roomStart}; null until matched when the runtime allocates. */
    ByteBuffer room;
    /** Takes the message's bytes instead of the room, when set; reset by {@link #reuse}. */
    Arrival arrival;
    int roomStart;
    int roomSize;
    /**
     * The primitive array the message is copied into instead of a room ({@link #landIn}), from {@code arrayAt} (an
     * offset for {@code Unsafe}); null otherwise. It takes {@code arrayBytes} of the message: its whole elements.
     */
    Object array;
    private long arrayAt;
    private int itemBytes;
    private int arrayBytes;
    long expected;
    long received;
    boolean matched;
    /** Its place among the {@link PostedReceives} while it waits for a message; null otherwise. */
    MatchLink<ReceiveOperation> postedAt;
    /** The link it is posted with, made once: a reused operation reuses it too. */
    final MatchLink<ReceiveOperation> link = new MatchLink<>(this);
    /**
     * The blocking call that waits for it, when it is its own wait condition ({@link ProgressEngine#receiveAndWait}):
     * asked for a description only by a wait report, so the engine's path names no {@code PendingCall} method
     * (decision 0108).
     */
    PendingCall waitingCall;

    ReceiveOperation(ProgressEngine engine, long id, ByteBuffer room, int source, int tag, int context) {
        this.engine = engine;
        reuse(id, room, source, tag, context);
        markComplete(); // as a spare reads, until put in flight
    }

    /**
     * Makes this operation a new, unmatched receive, every field as a new one's: for an operation that completed
     * without error and that nothing (bin, table of receives in flight, waiter) refers to any more. It still reads
     * complete, as a new one does, until the engine puts it in flight ({@link #markPending}): posts it or matches it
     * to a rendezvous message. A blocking receive that takes its message in the call never does, so it neither
     * clears nor sets the flag: in C1's profiled code, which a woken receiver runs until C2 has compiled its path,
     * each store through the flag's {@code VarHandle} is a chain of calls.
     */
    void reuse(long newId, ByteBuffer newRoom, int source, int tag, int newContext) {
        id = newId;
        wantSource = source;
        wantTag = tag;
        context = newContext;
        room = newRoom;
        arrival = null;
        array = null;
        buffer = newRoom;
        roomStart = newRoom == null ? 0 : newRoom.position();
        roomSize = newRoom == null ? 0 : newRoom.remaining();
        expected = 0;
        received = 0;
        matched = false;
        postedAt = null;
        this.source = 0;
        this.tag = 0;
        byteCount = 0;
        cancelled = false;
        error = null;
    }

    /**
     * Whether this completed receive may be made anew ({@link #reuse}): it ended without error or cancel, so no bin,
     * table of receives in flight or failure path refers to it, and its room is no larger than {@code maxRoom}.
     */
    boolean reusable(ProgressEngine owner, int maxRoom) {
        return engine == owner && complete && error == null && !cancelled && postedAt == null && roomSize <= maxRoom;
    }

    /** Drops the references to the caller's room while the operation waits for its reuse. */
    void forgetRoom() {
        room = null;
        array = null;
        buffer = null;
    }

    /**
     * Makes this new receive copy at most {@code bytes} bytes into {@code into} from its element {@code index}, each
     * of {@code elementBytes} (1, 2, 4 or 8), rather than into a room.
     */
    void landIn(Object into, int index, int elementBytes, int bytes) {
        array = into;
        itemBytes = elementBytes;
        arrayAt = ArrayBases.of(elementBytes) + (long) index * elementBytes;
        roomSize = bytes;
    }

    /** Binds the receive to a message of {@code length} bytes; allocates the room if the caller gave none. */
    void match(int src, int t, long length) {
        matched = true;
        source = src;
        tag = t;
        expected = length;
        if (array != null) {
            // a message of another type may end within an element, which is left as it was
            arrayBytes = (int) Math.min(roomSize, length - length % itemBytes);
        } else if (room == null) {
            if (length > Integer.MAX_VALUE - 16) {
                throw new MPIException(MPIException.ERR_COUNT, "message of " + length + " bytes is too large");
            }
            room = ByteBuffer.allocate((int) length);
            buffer = room;
            roomSize = (int) length;
        }
        if (length > roomSize) {
            error = new MPIException(MPIException.ERR_TRUNCATE, "message of " + length + " bytes from rank " + src
                    + " (tag " + t + ") truncated: the receive buffer holds " + roomSize + " bytes");
        }
        byteCount = (int) Math.min(length, roomSize);
    }

    /**
     * Copies the {@code n} bytes of {@code src} from index {@code from}, part of the message at {@code offset}, or
     * hands them to the {@link #arrival}; bytes beyond the room are dropped (the error says so). Neither buffer's
     * position moves.
     */
    void deliver(long offset, ByteBuffer src, int from, int n) {
        if (offset < roomSize) {
            int fit = (int) Math.min(n, roomSize - offset);
            if (arrival != null) {
                arrival.take(offset, src, from, fit);
            } else if (array != null) {
                if (offset < arrayBytes) {
                    copyIntoArray(src, from, array, arrayAt + offset, (int) Math.min(fit, arrayBytes - offset));
                }
            } else {
                copy(src, from, room, roomStart + (int) offset, fit);
            }
        }
        received += n;
    }

    /** Copies {@code n} bytes of {@code src} from index {@code from} to {@code dst} at {@code to}; no position moves. */
    static void copy(ByteBuffer src, int from, ByteBuffer dst, int to, int n) {
        if (n > SHORT_COPY) {
            dst.put(to, src, from, n);
            return;
        }
        int i = 0;
        // words read in one order and written in the other come out byte-reversed: reversing them back keeps the
        // word-by-word copy for a big-endian room (a wrapped byte[]) filled from the little-endian ring
        boolean swap = src.order() != dst.order();
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            long word = src.getLong(from + i);
            dst.putLong(to + i, swap ? Long.reverseBytes(word) : word);
        }
        for (; i < n; i++) {
            dst.put(to + i, src.get(from + i));
        }
    }

    /**
     * Copies {@code n} bytes of {@code src} from index {@code from} into the primitive array {@code dst} at the
     * {@code Unsafe} offset {@code at}, as they are; {@code src}'s position does not move. Short runs go word by
     * word, as in {@link #copy}: {@code Unsafe}'s word reads and writes are intrinsics of every JIT tier, where its
     * bulk copy is a native call until C2 compiles the caller.
     */
    static void copyIntoArray(ByteBuffer src, int from, Object dst, long at, int n) {
        Object base;
        long address;
        if (src.isDirect()) {
            base = null;
            address = BufferUtil.address(src) + from;
        } else {
            base = BufferUtil.array(src);
            address = BufferUtil.ARRAY_BASE_OFFSET + BufferUtil.arrayOffset(src) + from;
        }
        if (n > SHORT_COPY) {
            UnsafeApi.copyMemory(base, address, dst, at, n);
            return;
        }
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            UnsafeApi.putLong(dst, at + i, UnsafeApi.getLong(base, address + i));
        }
        for (; i < n; i++) {
            UnsafeApi.putByte(dst, at + i, UnsafeApi.getByte(base, address + i));
        }
    }

    @Override
    public boolean getAsBoolean() {
        return complete;
    }

    @Override
    public void describePending(List<String> entries) {
        PendingCall call = waitingCall;
        if (!complete && call != null) {
            entries.add(call.describe(wantSource, wantTag));
        }
    }

    boolean allReceived() {
        return received >= expected;
    }

    /** For the wait report, in world terms: {@code receive(world source=0, tag=3, context 5)}. */
    @Override
    public String toString() {
        return "receive(world source=" + (wantSource == MpiBackend.ANY_SOURCE ? "ANY_SOURCE" : wantSource)
                + ", tag=" + (wantTag == MpiBackend.ANY_TAG ? "ANY_TAG" : wantTag) + ", context " + context + ")";
    }

    @Override
    public void cancel() {
        if (!complete && !matched) {
            engine.cancelPosted(this);
        }
    }

    /**
     * Where the elements of a primitive array of 1, 2, 4 and 8 bytes begin (the same for each size's types), in a
     * class of their own: a JVM without {@link UnsafeExport#TO_AGRONA} builds receive operations but never
     * initialises {@link UnsafeApi}.
     */
    private static final class ArrayBases {
        private static final long BASE_1 = UnsafeApi.arrayBaseOffset(byte[].class);
        private static final long BASE_2 = UnsafeApi.arrayBaseOffset(short[].class);
        private static final long BASE_4 = UnsafeApi.arrayBaseOffset(int[].class);
        private static final long BASE_8 = UnsafeApi.arrayBaseOffset(long[].class);

        static long of(int elementBytes) {
            return elementBytes == 8 ? BASE_8 : elementBytes == 4 ? BASE_4 : elementBytes == 2 ? BASE_2 : BASE_1;
        }
    }
}

package mpi;

import dev.mpj.api.CommSpec;
import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.PendingCall;
import dev.mpj.api.Reduction;
import dev.mpj.api.SendMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * An in-memory runtime for one simulated rank of a job of {@link #configure configured} size. Messages
 * the rank sends to itself are matched in MPI order; messages to other ranks wait in an outbox the
 * test inspects ({@link #takeSent}), and the test plays the other ranks by {@link #deliver}ing
 * messages. {@link #await} runs actions queued with {@link #later} (one per pass) and fails instead
 * of hanging when nothing is left that could finish the wait.
 */
public final class LoopbackBackend implements MpiBackend {
    private static int configuredSize = 1;
    private static int configuredRank;
    /** The instance the last {@code MPI.Init} created through ServiceLoader. */
    static LoopbackBackend current;

    private final List<Message> unexpected = new ArrayList<>();
    private final List<LoopbackOperation> posted = new ArrayList<>();
    private final List<Message> outbox = new ArrayList<>();
    /** The data of sends still in the outbox and not complete, read when taken, as a rendezvous reads them late. */
    private final java.util.Map<Message, ByteBuffer> unread = new java.util.IdentityHashMap<>();
    private final Deque<Runnable> later = new ArrayDeque<>();
    private int rank;
    private int size;
    /** Whether standard sends to other ranks complete at once (eager) or only once taken (rendezvous). */
    boolean eagerToPeers = true;
    /** Whether {@link #sendNow} takes eager sends to other ranks, as the mpj runtime does; else it declines them all. */
    boolean sendsNow;
    /** Whether receives into arrays go straight into the array, as the mpj runtime's do; else declined. */
    boolean receivesIntoArrays;
    /** Receives that went straight into an array. */
    int arrayReceives;
    /** "send" and "receive", in the order the API called them. */
    final List<String> calls = new ArrayList<>();
    int polls;
    int awaits;
    /** What the last wait said it waits for, read when it began ({@link dev.mpj.api.WaitCondition}); null if it said nothing. */
    List<String> lastWaitPending;
    int barriers;
    boolean finished;
    Integer abortCode;
    /** The least send packed into transfer memory, as {@link #transferMemoryFrom}; none unless a test sets it. */
    int transferMemoryFrom = Integer.MAX_VALUE;
    /** Transfer memory handed out and not given back. */
    final List<ByteBuffer> transferMemory = new ArrayList<>();

    /** A message in flight: its bytes and the send that carries it. */
    record Message(int source, int dest, int tag, int context, byte[] data, LoopbackOperation send) {
    }

    static void configure(int size, int rank) {
        configuredSize = size;
        configuredRank = rank;
    }

    @Override
    public void init(String[] args) {
        rank = configuredRank;
        size = configuredSize;
        current = this;
    }

    @Override
    public ByteBuffer allocTransferMemory(int bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
        transferMemory.add(b);
        return b;
    }

    @Override
    public int transferMemoryFrom() {
        return transferMemoryFrom;
    }

    @Override
    public void freeTransferMemory(ByteBuffer buffer) {
        transferMemory.removeIf(b -> b == buffer);
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String processorName() {
        return "loopback-node";
    }

    @Override
    public void finish() {
        finished = true;
    }

    @Override
    public void abort(int errorCode) {
        abortCode = errorCode;
        throw new IllegalStateException("job aborted with " + errorCode);
    }

    @Override
    public Operation send(ByteBuffer data, int destWorldRank, int tag, int context, SendMode mode) {
        calls.add("send");
        ByteBuffer source = data.duplicate();
        byte[] bytes = new byte[source.remaining()];
        source.get(bytes);
        LoopbackOperation send = new LoopbackOperation(destWorldRank, tag, null);
        send.byteCount = bytes.length;
        Message message = new Message(rank, destWorldRank, tag, context, bytes, send);
        if (mode != SendMode.SYNCHRONOUS && (destWorldRank == rank || eagerToPeers)) {
            send.complete = true;
        }
        if (destWorldRank == rank) {
            arrive(message);
        } else {
            outbox.add(message);
            if (!send.complete) {
                unread.put(message, data.duplicate());
            }
        }
        return send;
    }

    @Override
    public boolean sendNow(ByteBuffer data, int destWorldRank, int tag, int context) {
        if (!sendsNow || destWorldRank == rank || !eagerToPeers) {
            return false;
        }
        calls.add("sendNow");
        byte[] bytes = new byte[data.remaining()];
        data.duplicate().get(bytes);
        LoopbackOperation sent = new LoopbackOperation(destWorldRank, tag, null);
        sent.byteCount = bytes.length;
        sent.complete = true;
        outbox.add(new Message(rank, destWorldRank, tag, context, bytes, sent));
        return true;
    }

    /**
     * A receive into an array, when {@link #receivesIntoArrays}, as the runtime makes it: the message's whole
     * elements copied into the array as they are, also when it is too long (the error says so).
     */
    @Override
    public Operation receiveAndWait(ByteBuffer room, Object array, int index, int itemBytes, int bytes,
                                    int sourceWorldRank, int tag, int context, PendingCall pending) {
        if (array == null) {
            return receiveAndWait(room, sourceWorldRank, tag, context, pending);
        }
        if (!receivesIntoArrays) {
            return null;
        }
        arrayReceives++;
        ByteBuffer landing = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        Operation op = receiveAndWait(landing, sourceWorldRank, tag, context, pending);
        landing.limit(op.byteCount() - op.byteCount() % itemBytes);
        int n = landing.limit() / itemBytes;
        if (array instanceof byte[] a) {
            landing.get(a, index, n);
        } else if (array instanceof char[] a) {
            landing.asCharBuffer().get(a, index, n);
        } else if (array instanceof short[] a) {
            landing.asShortBuffer().get(a, index, n);
        } else if (array instanceof int[] a) {
            landing.asIntBuffer().get(a, index, n);
        } else if (array instanceof long[] a) {
            landing.asLongBuffer().get(a, index, n);
        } else if (array instanceof float[] a) {
            landing.asFloatBuffer().get(a, index, n);
        } else {
            landing.asDoubleBuffer().get((double[]) array, index, n);
        }
        return op;
    }

    /**
     * A non-blocking receive into an array, when {@link #receivesIntoArrays}: here only of a message already delivered,
     * taken as {@link #receiveAndWait} takes one into an array.
     */
    @Override
    public Operation receiveIntoArray(Object array, int index, int itemBytes, int bytes, int sourceWorldRank, int tag,
                                      int context) {
        if (!receivesIntoArrays) {
            return null;
        }
        return receiveAndWait(null, array, index, itemBytes, bytes, sourceWorldRank, tag, context,
                (source, t) -> "Irecv");
    }

    @Override
    public Operation receive(ByteBuffer room, int sourceWorldRank, int tag, int context) {
        calls.add("receive");
        LoopbackOperation receive = new LoopbackOperation(sourceWorldRank, tag, room);
        receive.context = context;
        for (Iterator<Message> it = unexpected.iterator(); it.hasNext(); ) {
            Message message = it.next();
            if (receive.matches(message)) {
                it.remove();
                receive.fill(message);
                return receive;
            }
        }
        posted.add(receive);
        return receive;
    }

    @Override
    public Envelope probe(int sourceWorldRank, int tag, int context) {
        LoopbackOperation pattern = new LoopbackOperation(sourceWorldRank, tag, null);
        pattern.context = context;
        for (Message message : unexpected) {
            if (pattern.matches(message)) {
                return new Envelope(message.source, message.tag, message.data.length);
            }
        }
        return null;
    }

    @Override
    public void await(BooleanSupplier done) {
        awaits++;
        lastWaitPending = null;
        if (done instanceof dev.mpj.api.WaitCondition described) {
            lastWaitPending = new ArrayList<>();
            described.describePending(lastWaitPending);
        }
        while (!done.getAsBoolean()) {
            Runnable action = later.poll();
            if (action == null) {
                throw new IllegalStateException("the wait can never finish: no message or action is pending");
            }
            action.run();
        }
    }

    @Override
    public void poll() {
        polls++;
    }

    @Override
    public void barrier(CommSpec comm) {
        barriers++;
    }

    // ---- collectives, on a communicator of one member: the data move from send to receive ----

    /** What the collectives were given, for tests of the bytes the API hands over. */
    final List<String> collectives = new ArrayList<>();

    private void single(String name, CommSpec comm) {
        collectives.add(name);
        if (comm.size() != 1) {
            throw new UnsupportedOperationException("the loopback backend runs collectives on one member only");
        }
    }

    private static void copy(ByteBuffer send, ByteBuffer recv) {
        if (recv != null) {
            recv.duplicate().put(send.duplicate());
        }
    }

    @Override
    public void bcast(CommSpec comm, ByteBuffer data, int root) {
        single("bcast", comm);
    }

    @Override
    public void gather(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        single("gather", comm);
        copy(send, recv);
    }

    @Override
    public void gatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv, int root) {
        single("gatherv", comm);
        copy(send, recv[0]);
    }

    @Override
    public void scatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int root) {
        single("scatter", comm);
        copy(send, recv);
    }

    @Override
    public void scatterv(CommSpec comm, ByteBuffer[] send, ByteBuffer recv, int root) {
        single("scatterv", comm);
        copy(send[0], recv);
    }

    @Override
    public void allgather(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        single("allgather", comm);
        copy(send, recv);
    }

    @Override
    public void allgatherv(CommSpec comm, ByteBuffer send, ByteBuffer[] recv) {
        single("allgatherv", comm);
        copy(send, recv[0]);
    }

    @Override
    public void alltoall(CommSpec comm, ByteBuffer send, ByteBuffer recv) {
        single("alltoall", comm);
        copy(send, recv);
    }

    @Override
    public void alltoallv(CommSpec comm, ByteBuffer[] send, ByteBuffer[] recv) {
        single("alltoallv", comm);
        copy(send[0], recv[0]);
    }

    @Override
    public void reduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        single("reduce", comm);
        copy(send, recv);
    }

    @Override
    public void allreduce(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        single("allreduce", comm);
        copy(send, recv);
    }

    @Override
    public void reduceScatter(CommSpec comm, ByteBuffer send, ByteBuffer recv, int[] blockBytes, Reduction op) {
        single("reduceScatter", comm);
        copy(send.duplicate().limit(send.position() + blockBytes[0]), recv);
    }

    /** What {@link #scan} leaves in recv on a communicator of several members, as if the others had taken part. */
    byte[] scanResult;
    /** The bytes the last scan was given. */
    byte[] scanned;

    @Override
    public void scan(CommSpec comm, ByteBuffer send, ByteBuffer recv, Reduction op) {
        scanned = new byte[send.remaining()];
        send.duplicate().get(scanned);
        if (scanResult != null) {
            collectives.add("scan");
            recv.duplicate().put(scanResult);
            return;
        }
        single("scan", comm);
        copy(send, recv);
    }

    // ---- non-blocking collectives, on one member: complete when started ----

    /** The sequence numbers the non-blocking collectives were started with, in order. */
    final List<Integer> sequences = new ArrayList<>();

    private Operation started(String name, CommSpec comm, int sequence) {
        single(name, comm);
        sequences.add(sequence);
        LoopbackOperation op = new LoopbackOperation(ANY_SOURCE, ANY_TAG, null);
        op.complete = true;
        return op;
    }

    @Override
    public Operation ibarrier(CommSpec comm, int sequence) {
        return started("ibarrier", comm, sequence);
    }

    @Override
    public Operation ibcast(CommSpec comm, int sequence, ByteBuffer data, int root) {
        return started("ibcast", comm, sequence);
    }

    @Override
    public Operation ireduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op, int root) {
        copy(send, recv);
        return started("ireduce", comm, sequence);
    }

    @Override
    public Operation iallreduce(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv, Reduction op) {
        copy(send, recv);
        return started("iallreduce", comm, sequence);
    }

    @Override
    public Operation iallgather(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        copy(send, recv);
        return started("iallgather", comm, sequence);
    }

    @Override
    public Operation ialltoall(CommSpec comm, int sequence, ByteBuffer send, ByteBuffer recv) {
        copy(send, recv);
        return started("ialltoall", comm, sequence);
    }

    // ---- the test's side: the other ranks ----

    /** A message from {@code source} (world rank) arrives for this rank. */
    void deliver(int source, int tag, int context, byte[] data) {
        LoopbackOperation send = new LoopbackOperation(rank, tag, null);
        send.complete = true;
        arrive(new Message(source, rank, tag, context, data, send));
    }

    /** The oldest message sent to {@code dest} is received there: it leaves the outbox, its send completes. */
    Message takeSent(int dest) {
        for (Iterator<Message> it = outbox.iterator(); it.hasNext(); ) {
            Message message = it.next();
            if (message.dest == dest) {
                it.remove();
                message.send.complete = true;
                ByteBuffer late = unread.remove(message);
                if (late != null) {
                    byte[] bytes = new byte[late.remaining()];
                    late.get(bytes);
                    return new Message(message.source, message.dest, message.tag, message.context, bytes, message.send);
                }
                return message;
            }
        }
        throw new AssertionError("nothing was sent to rank " + dest);
    }

    int outboxSize() {
        return outbox.size();
    }

    /** Runs {@code action} during a later {@link #await} pass. */
    void later(Runnable action) {
        later.add(action);
    }

    private void arrive(Message message) {
        for (Iterator<LoopbackOperation> it = posted.iterator(); it.hasNext(); ) {
            LoopbackOperation receive = it.next();
            if (receive.matches(message)) {
                it.remove();
                receive.fill(message);
                return;
            }
        }
        unexpected.add(message);
    }

    /** A send or receive; receives complete when filled with a matching message. */
    final class LoopbackOperation implements Operation {
        private int source;
        private int tag;
        private int context;
        private ByteBuffer buffer;
        private int byteCount;
        private boolean complete;
        private boolean cancelled;
        private RuntimeException error;

        LoopbackOperation(int source, int tag, ByteBuffer buffer) {
            this.source = source;
            this.tag = tag;
            this.buffer = buffer;
        }

        boolean matches(Message message) {
            return message.context == context
                    && (source == ANY_SOURCE || source == message.source)
                    && (tag == ANY_TAG || tag == message.tag);
        }

        void fill(Message message) {
            source = message.source;
            tag = message.tag;
            byte[] data = message.data;
            if (buffer == null) {
                buffer = ByteBuffer.wrap(data.clone());
                byteCount = data.length;
            } else {
                byteCount = Math.min(buffer.remaining(), data.length);
                buffer.duplicate().put(data, 0, byteCount);
                if (data.length > byteCount) {
                    error = new MPIException(MPI.ERR_TRUNCATE, "message of " + data.length + " bytes truncated to "
                            + byteCount);
                }
            }
            message.send.complete = true;
            complete = true;
        }

        @Override
        public boolean isComplete() {
            return complete;
        }

        @Override
        public int source() {
            return source;
        }

        @Override
        public int tag() {
            return tag;
        }

        @Override
        public int byteCount() {
            return byteCount;
        }

        @Override
        public ByteBuffer buffer() {
            return buffer;
        }

        @Override
        public void cancel() {
            if (!complete && posted.remove(this)) {
                cancelled = true;
                complete = true;
            }
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public RuntimeException error() {
            return error;
        }

        /** Makes the operation end with {@code failure} (for tests of error reporting). */
        void fail(RuntimeException failure) {
            error = failure;
            complete = true;
        }
    }
}

package mpi;

import dev.mpj.api.BlockingReceiver;
import dev.mpj.api.CommSpec;
import dev.mpj.api.Envelope;
import dev.mpj.api.MpiBackend;
import dev.mpj.api.Operation;
import dev.mpj.api.PendingCall;
import dev.mpj.api.SendMode;
import dev.mpj.api.WaitCondition;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A communicator: a group of processes and a private message space. Point-to-point communication
 * in the mpiJava 1.2 signatures.
 *
 * <p>Every call checks its arguments and raises {@link MPIException} naming the bad one:
 * {@code ERR_BUFFER} (null buffer, heap {@code ByteBuffer}, negative offset, buffer too short),
 * {@code ERR_TYPE} (null datatype, buffer of the wrong array type), {@code ERR_COUNT} (negative
 * count), {@code ERR_RANK} (rank outside the communicator, or an {@link Intercomm}'s remote group, and
 * not {@link MPI#PROC_NULL}, or
 * {@link MPI#ANY_SOURCE} for receives), {@code ERR_TAG} (tag outside 0..{@link MPI#TAG_UB}, or
 * {@link MPI#ANY_TAG} for receives), and {@code ERR_OTHER} before {@code MPI.Init} or after
 * {@code MPI.Finalize}. Communication with {@link MPI#PROC_NULL} completes at once; a receive from
 * it has source {@code PROC_NULL}, tag {@code ANY_TAG} and count 0.
 *
 * <p>Buffers and offsets are described in {@link Datatype}.
 *
 * <p>Communicators made from others ({@link Intracomm#Split}, {@link Intracomm#Create}, {@link #clone},
 * the topologies) each get their own pair of context ids, agreed by the members of the parent, so
 * their messages never match those of any other communicator. Using a communicator after
 * {@link #Free} raises {@code ERR_COMM}.
 */
public abstract class Comm {
    /** A class, not a lambda: its linkage would be a bootstrap call in MPI.Init, which initialises this class. */
    private static final Request.Starter PROC_NULL = new ProcNullStart();

    private static final class ProcNullStart implements Request.Starter {
        @Override
        public void start(Request request) {
            request.completedWith(Status.procNull());
        }
    }

    private final String name;
    private CommSpec spec;
    /** The processes point-to-point ranks name: the members, or an intercommunicator's remote group. */
    private RankMap ranks;
    /** Non-blocking collectives started on this communicator: every member numbers them alike. */
    private int collectivesStarted;
    private final PendingCall blockingReceive = new BlockingReceive();

    /** A communicator bound to the runtime later, at {@code MPI.Init} (the predefined ones). */
    Comm(String name) {
        this.name = name;
    }

    final void bind(CommSpec spec, int worldSize) {
        bind(spec, spec.worldRanks(), worldSize);
    }

    /** Binds a communicator whose point-to-point ranks name {@code peers} (world ranks), not its own members. */
    final void bind(CommSpec spec, int[] peers, int worldSize) {
        this.spec = spec;
        this.ranks = new RankMap(peers, worldSize);
        this.collectivesStarted = 0;
    }

    /** The sequence number of the next non-blocking collective on this communicator (see {@code MpiBackend}). */
    final int nextCollectiveSequence() {
        return collectivesStarted++;
    }

    final void unbind() {
        spec = null;
        ranks = null;
    }

    /**
     * Revokes this communicator's collectives after {@code e} was raised here inside one, before, during or after
     * the runtime's part ({@link MpiBackend#revokeCollectives}): the other members then fail too instead of
     * waiting for this one. Returns {@code e}, to be rethrown.
     */
    final RuntimeException revoking(RuntimeException e) {
        CommSpec s = spec;
        if (s != null && s.size() > 1) {
            Environment.backend().revokeCollectives(s, e);
        }
        return e;
    }

    /**
     * What the runtime knows of this communicator; raises ERR_OTHER outside Init..Finalize and
     * ERR_COMM once the communicator is freed.
     */
    final CommSpec spec() {
        Environment.backend();
        if (spec == null) {
            throw new MPIException(MPI.ERR_COMM, name + " has been freed");
        }
        return spec;
    }

    /** The rank in this communicator of a world rank (wildcards and PROC_NULL pass through). */
    final int toCommRank(int worldRank) {
        return ranks.toComm(worldRank);
    }

    /** Number of processes in the communicator. */
    public int Size() {
        return spec().size();
    }

    /** Rank of the calling process in the communicator. */
    public int Rank() {
        return spec().rank();
    }

    /** The processes of the communicator, as a group in communicator rank order. */
    public Group Group() {
        CommSpec spec = spec();
        return new Group(spec.worldRanks().clone(), spec.worldRanks()[spec.rank()]);
    }

    /**
     * {@link MPI#IDENT} if both are the same communicator, {@link MPI#CONGRUENT} if they have the same
     * members in the same order, {@link MPI#SIMILAR} if the same members in another order, else
     * {@link MPI#UNEQUAL}; two intercommunicators compare both their groups, and an intercommunicator is
     * {@code UNEQUAL} to any intracommunicator. {@code ERR_COMM} for a null or freed communicator.
     */
    public static int Compare(Comm comm1, Comm comm2) {
        if (comm1 == null || comm2 == null) {
            throw new MPIException(MPI.ERR_COMM, "Compare: " + (comm1 == null ? "comm1" : "comm2") + " is null");
        }
        int[] members1 = comm1.spec().worldRanks();
        int[] members2 = comm2.spec().worldRanks();
        if (comm1 == comm2) {
            return MPI.IDENT;
        }
        if (comm1.Test_inter() != comm2.Test_inter()) {
            return MPI.UNEQUAL;
        }
        // results are ordered IDENT < CONGRUENT < SIMILAR < UNEQUAL: the weaker of the local and remote groups'
        int members = Math.max(Group.compareMembers(members1, members2),
                Group.compareMembers(comm1.ranks.worldRanks(), comm2.ranks.worldRanks()));
        return members == MPI.IDENT ? MPI.CONGRUENT : members;
    }

    /** Whether this is an intercommunicator ({@link Intercomm}), whose point-to-point ranks name another group. */
    public boolean Test_inter() {
        spec();
        return false;
    }

    /**
     * A new communicator with the same members, ranks and topology and its own context, so its
     * messages never match this one's (MPI_Comm_dup). Collective: every member must call it.
     */
    @Override
    public abstract Object clone();

    /** {@link #clone} under MPI's name (MPI_Comm_dup), typed as a communicator. */
    public Comm Dup() {
        return (Comm) clone();
    }

    /**
     * The value of a predefined attribute, as an {@code int} (mpiJava 1.2): for {@link MPI#TAG_UB} the largest
     * tag; for {@link MPI#HOST} {@link MPI#PROC_NULL} (there is no host process); for {@link MPI#IO}
     * {@link MPI#ANY_SOURCE} (every process can do I/O); for {@link MPI#WTIME_IS_GLOBAL} 0, as each process's
     * {@link MPI#Wtime} counts from its own start. {@code ERR_ARG} for any other key: there are no user keys.
     */
    public int Attr_get(int keyval) {
        spec();
        switch (keyval) {
            case MPI.TAG_UB:
                return MPI.TAG_UB;
            case MPI.HOST:
                return MPI.PROC_NULL;
            case MPI.IO:
                return MPI.ANY_SOURCE;
            case MPI.WTIME_IS_GLOBAL:
                return 0;
            default:
                throw new MPIException(MPI.ERR_ARG, "Attr_get: " + keyval + " is not an attribute key (MPI.TAG_UB, "
                        + "MPI.HOST, MPI.IO, MPI.WTIME_IS_GLOBAL)");
        }
    }

    /**
     * Frees the communicator: its context ids return to this process's pool and any later use raises
     * {@code ERR_COMM}. Operations already started complete normally. Every member should free it (MPI
     * makes this collective), though no member waits for the others. {@code ERR_ARG} for
     * {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF}, which cannot be freed.
     */
    public void Free() {
        CommSpec spec = spec();
        if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF) {
            throw new MPIException(MPI.ERR_ARG, "Free: " + name + " is predefined and cannot be freed");
        }
        Environment.contextIds().release(ContextIds.pairOf(spec.pointToPointContext()));
        Environment.backend().release(spec);
        // the rank map stays: requests started before Free still translate their sources
        this.spec = null;
    }

    /** The topology of the communicator: {@link MPI#CART}, {@link MPI#GRAPH}, or {@link MPI#UNDEFINED} for none. */
    public int Topo_test() {
        spec();
        return MPI.UNDEFINED;
    }

    /** Ends every process of the job with {@code errorcode}; does not return. */
    public void Abort(int errorcode) {
        Environment.backend().abort(errorcode);
    }

    // ---- blocking sends ----

    /** Standard-mode send: returns once {@code buf} may be reused. */
    public void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        sendAndWait("Send", buf, offset, count, datatype, dest, tag, SendMode.STANDARD);
    }

    /** Synchronous send: returns once the receiver has matched the message. */
    public void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        sendAndWait("Ssend", buf, offset, count, datatype, dest, tag, SendMode.SYNCHRONOUS);
    }

    /** Ready send: the matching receive must already be posted (treated as a standard send). */
    public void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        sendAndWait("Rsend", buf, offset, count, datatype, dest, tag, SendMode.READY);
    }

    /**
     * A blocking send without a {@code Request} or starter, which a stream of small sends made by the million: an
     * eager send has completed when the runtime returns, so only a send that must wait makes its wait condition.
     */
    private void sendAndWait(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag,
                             SendMode mode) {
        checkSendArguments(call, buf, offset, count, datatype, dest, tag);
        if (dest == MPI.PROC_NULL) {
            return;
        }
        int world = ranks.toWorld(dest);
        MpiBackend backend = Environment.backend();
        int context = spec.pointToPointContext();
        if (sentFromArray(backend, datatype, buf, offset, count, world, tag, context, mode)) {
            return;
        }
        ByteBuffer lent = datatype.packLent(buf, offset, count);
        ByteBuffer data = SendStarter.bytes(datatype, buf, offset, count, lent);
        if (sendAtOnce(backend, data, world, tag, context, mode, lent)) {
            return;
        }
        Operation op = backend.send(data, world, tag, context, mode);
        if (!op.isComplete()) {
            // named in the wait report as the send's request would be
            PendingCall pending = (w, t) -> envelope(call, "dest", toCommRank(w), t);
            backend.await(pending.condition(op, world, tag));
        }
        if (op.error() != null) {
            // the lent buffer stays out of the pool: the runtime may still read it
            throw Request.asMpiException(op.error());
        }
        if (lent != null) {
            TransferBuffers.giveBack(lent);
        }
    }

    /**
     * Sends a run of a {@code byte[]} through {@link MpiBackend#sendNow(byte[], int, int, int, int, int)} unless the
     * send is synchronous: copied out of the array, with no buffer wrapped around it per send. Returns whether the
     * send is complete; when not, the caller's path tries {@link #sendAtOnce} too, as credit may have come since.
     */
    private static boolean sentFromArray(MpiBackend backend, Datatype datatype, Object buf, int offset, int count,
                                         int world, int tag, int context, SendMode mode) {
        return mode != SendMode.SYNCHRONOUS && datatype != null && datatype.isByteArrayRun(buf, count)
                && backend.sendNow((byte[]) buf, datatype.firstElement(offset), datatype.denseBytes(count), world,
                tag, context);
    }

    /**
     * Sends {@code data} through {@link MpiBackend#sendNow} unless the send is synchronous, and gives the lent
     * buffer back when the runtime copied it out; returns whether the send is complete.
     */
    private static boolean sendAtOnce(MpiBackend backend, ByteBuffer data, int world, int tag, int context,
                                      SendMode mode, ByteBuffer lent) {
        if (mode == SendMode.SYNCHRONOUS || !backend.sendNow(data, world, tag, context)) {
            return false;
        }
        if (lent != null) {
            TransferBuffers.giveBack(lent);
        }
        return true;
    }

    /**
     * Buffered send: copies the data and returns at once. The buffer attached with
     * {@link MPI#Buffer_attach} must have room for all outstanding buffered messages (bytes plus
     * {@link MPI#BSEND_OVERHEAD} each), else {@code ERR_BUFFER}.
     */
    public void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        started(checkedBufferedSend("Bsend", buf, offset, count, datatype, dest, tag)).await(null);
    }

    // ---- nonblocking sends ----

    public Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return started(checkedSend("Isend", buf, offset, count, datatype, dest, tag, SendMode.STANDARD));
    }

    public Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return started(checkedSend("Issend", buf, offset, count, datatype, dest, tag, SendMode.SYNCHRONOUS));
    }

    public Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return started(checkedSend("Irsend", buf, offset, count, datatype, dest, tag, SendMode.READY));
    }

    /** Buffered nonblocking send: the data are copied, so the returned request is already complete. */
    public Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return started(checkedBufferedSend("Ibsend", buf, offset, count, datatype, dest, tag));
    }

    // ---- receives ----

    /**
     * Receives a message into {@code buf}; a longer message than {@code count} items raises {@code ERR_TRUNCATE}.
     * A dense run of a primitive array other than {@code byte[]} lands in one of the thread's transfer buffers and
     * is read from it into the array, with no receive buffer or unpacker made per call (a storm of small receives
     * made them by the million). Both kinds are one method: every method a woken receiver runs per message is one
     * more that C2 compiles, each with what it calls inlined.
     */
    public Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        checkReceiveArguments("Recv", buf, offset, count, datatype, source, tag);
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        BlockingReceiver receiver = Environment.backend().blockingReceiver();
        // no Request: the runtime takes a message that has arrived at once and posts the receive only if none has;
        // into a dense primitive array it copies from where the message lies, with no room to fill, read and give back
        Operation op = datatype.landsInArray(buf, count) ? receiver.receiveAndWait(null, buf,
                datatype.firstElement(offset), datatype.element.bytes, datatype.denseBytes(count), worldSource(source),
                tag, spec.pointToPointContext(), blockingReceive) : null;
        if (op != null) {
            Status status = Request.completedStatus(this, op, null);
            receiver.release(op);
            return status;
        }
        boolean dense = datatype.readsDenseArray(buf, count);
        TransferBuffers spares = dense ? TransferBuffers.ofThread() : null;
        ReceiveBuffer into = dense ? null : datatype.receiveBuffer(buf, offset, count);
        ByteBuffer room = dense ? spares.take(datatype.denseBytes(count)) : into.room();
        op = receiver.receiveAndWait(room, null, 0, 0, 0, worldSource(source), tag, spec.pointToPointContext(),
                blockingReceive);
        // raises the receive's error; a lent room then stays out of the pool, as the runtime may still hold it
        Status status = Request.completedStatus(this, op, into);
        if (dense) {
            datatype.readDense(room.clear().limit(status.byteCount), buf, offset, count);
        }
        receiver.release(op);
        if (dense) {
            spares.keep(room);
        }
        return status;
    }

    public Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        return started(checkedReceive("Irecv", buf, offset, count, datatype, source, tag));
    }

    /**
     * Sends and receives in one call: the receive is posted before the send starts and both are
     * waited for together, so two processes may exchange with each other without deadlock.
     * Returns the status of the receive.
     */
    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag) {
        Request.Starter send = checkedSend("Sendrecv", sendbuf, sendoffset, sendcount, sendtype, dest, sendtag,
                SendMode.STANDARD);
        Request.Starter receive = checkedReceive("Sendrecv", recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
        return exchange(receive, send);
    }

    /** {@link #Sendrecv} with one buffer: the outgoing data are copied first, then replaced by the received data. */
    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype,
                                   int dest, int sendtag, int source, int recvtag) {
        String call = "Sendrecv_replace";
        checkSendArguments(call, buf, offset, count, datatype, dest, sendtag);
        Request.Starter receive = checkedReceive(call, buf, offset, count, datatype, source, recvtag);
        ByteBuffer copy = dest == MPI.PROC_NULL ? null : datatype.pack(buf, offset, count, false);
        return exchange(receive, send(call, null, copy, 0, 0, dest, sendtag, SendMode.STANDARD));
    }

    private Status exchange(Request.Starter receiveStarter, Request.Starter sendStarter) {
        Request receive = started(receiveStarter);
        Request send;
        try {
            send = started(sendStarter);
        } catch (RuntimeException e) {
            receive.Cancel();
            throw e;
        }
        Status status = Request.awaitAll(new Request[] {receive, send}, null)[0];
        status.index = MPI.UNDEFINED;
        return status;
    }

    // ---- probes ----

    /** Waits until a message matching {@code source} and {@code tag} can be received; returns its status without receiving it. */
    public Status Probe(int source, int tag) {
        MpiBackend backend = Environment.backend();
        checkSource("Probe", source);
        checkTag("Probe", tag, true);
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        ProbeWait probe = new ProbeWait(this, backend, source, tag);
        backend.await(probe);
        return statusOf(probe.found);
    }

    /** The wait of {@link #Probe}: until a matching message is there, which it keeps. */
    private static final class ProbeWait implements WaitCondition {
        private final Comm comm;
        private final MpiBackend backend;
        private final int source;
        private final int world;
        private final int tag;
        private final int context;
        Envelope found;

        ProbeWait(Comm comm, MpiBackend backend, int source, int tag) {
            this.comm = comm;
            this.backend = backend;
            this.source = source;
            this.world = comm.worldSource(source);
            this.tag = tag;
            this.context = comm.spec.pointToPointContext();
        }

        @Override
        public boolean getAsBoolean() {
            return (found = backend.probe(world, tag, context)) != null;
        }

        @Override
        public void describePending(List<String> entries) {
            entries.add(comm.envelope("Probe", "source", source, tag));
        }
    }

    /**
     * A call with its envelope as the wait report shows it, {@code Recv(source=0, tag=99, COMM_WORLD)}: as MPI
     * tools print them, predefined communicators without their class.
     */
    final String envelope(String call, String peerRole, int peer, int tag) {
        return call + "(" + peerRole + "=" + (peer == MPI.ANY_SOURCE ? "ANY_SOURCE" : Integer.toString(peer))
                + ", tag=" + (tag == MPI.ANY_TAG ? "ANY_TAG" : Integer.toString(tag)) + ", "
                + (name.startsWith("MPI.") ? name.substring("MPI.".length()) : name) + ")";
    }

    /** The status of a message that could be received now, or null if there is none. */
    public Status Iprobe(int source, int tag) {
        MpiBackend backend = Environment.backend();
        checkSource("Iprobe", source);
        checkTag("Iprobe", tag, true);
        if (source == MPI.PROC_NULL) {
            return Status.procNull();
        }
        backend.poll();
        Envelope envelope = backend.probe(worldSource(source), tag, spec.pointToPointContext());
        return envelope == null ? null : statusOf(envelope);
    }

    private Status statusOf(Envelope envelope) {
        return new Status(toCommRank(envelope.source()), envelope.tag(), envelope.byteCount());
    }

    // ---- packing ----

    /**
     * Packs {@code count} items of {@code datatype} from {@code inbuf} at {@code offset} into
     * {@code outbuf} from byte {@code position} (indexed from 0, regardless of the buffer's own
     * position and limit, which are left unchanged), in the little-endian wire form; returns the
     * position after them. The bytes may be sent with {@link MPI#PACKED} and read back with
     * {@link #Unpack}. {@code outbuf} may be a heap or direct buffer; it must have room
     * ({@link #Pack_size}), else {@code ERR_BUFFER}.
     */
    public int Pack(Object inbuf, int offset, int count, Datatype datatype, ByteBuffer outbuf, int position) {
        String call = "Pack";
        Environment.backend();
        checkDatatype(call, datatype);
        datatype.checkBuffer(call, inbuf, offset, count, false);
        return datatype.packAt(call, inbuf, offset, count, outbuf, position);
    }

    /**
     * Unpacks {@code count} items of {@code datatype} from {@code inbuf} at byte {@code position} into
     * {@code outbuf} at {@code offset}; returns the position after them. The inverse of {@link #Pack}.
     */
    public int Unpack(ByteBuffer inbuf, int position, Object outbuf, int offset, int count, Datatype datatype) {
        String call = "Unpack";
        Environment.backend();
        checkDatatype(call, datatype);
        datatype.checkBuffer(call, outbuf, offset, count, true);
        return datatype.unpackAt(call, inbuf, position, outbuf, offset, count);
    }

    /** {@link #Pack} into a {@code byte[]} (the mpiJava 1.2 signature). */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position) {
        return Pack(inbuf, offset, incount, datatype, wrapped(outbuf), position);
    }

    /** {@link #Unpack} from a {@code byte[]} (the mpiJava 1.2 signature). */
    public int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype) {
        return Unpack(wrapped(inbuf), position, outbuf, offset, outcount, datatype);
    }

    private static ByteBuffer wrapped(byte[] packed) {
        return packed == null ? null : ByteBuffer.wrap(packed);
    }

    /**
     * Bytes {@link #Pack} needs for {@code count} items of {@code datatype}. {@code ERR_TYPE} for objects, as in
     * mpiJava 1.2: their packed size is known only once serialised.
     */
    public int Pack_size(int count, Datatype datatype) {
        String call = "Pack_size";
        Environment.backend();
        checkDatatype(call, datatype);
        datatype.checkUsable(call);
        if (count < 0) {
            throw new MPIException(MPI.ERR_COUNT, call + ": count must not be negative, was " + count);
        }
        return datatype.packedBytes(call, count);
    }

    // ---- persistent requests ----

    public Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return new Prequest(this, checkedSend("Send_init", buf, offset, count, datatype, dest, tag, SendMode.STANDARD));
    }

    public Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return new Prequest(this, checkedSend("Ssend_init", buf, offset, count, datatype, dest, tag,
                SendMode.SYNCHRONOUS));
    }

    public Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return new Prequest(this, checkedSend("Rsend_init", buf, offset, count, datatype, dest, tag, SendMode.READY));
    }

    public Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return new Prequest(this, checkedBufferedSend("Bsend_init", buf, offset, count, datatype, dest, tag));
    }

    public Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        return new Prequest(this, checkedReceive("Recv_init", buf, offset, count, datatype, source, tag));
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- starters: arguments are checked when the starter is made, data are packed when it runs ----

    private Request started(Request.Starter starter) {
        Request request = starter instanceof Transfer ? (Transfer) starter : new Request(this, starter);
        request.start();
        return request;
    }

    private Request.Starter checkedSend(String call, Object buf, int offset, int count, Datatype datatype,
                                        int dest, int tag, SendMode mode) {
        checkSendArguments(call, buf, offset, count, datatype, dest, tag);
        return send(call, datatype, buf, offset, count, dest, tag, mode);
    }

    /** A send of {@code buf} packed as {@code datatype} when it starts, or of {@code buf} itself when no datatype. */
    private Request.Starter send(String call, Datatype datatype, Object buf, int offset, int count, int dest,
                                 int tag, SendMode mode) {
        if (dest == MPI.PROC_NULL) {
            return PROC_NULL;
        }
        return new SendStarter(this, call, datatype, buf, offset, count, ranks.toWorld(dest), tag,
                spec.pointToPointContext(), mode);
    }

    private Request.Starter checkedBufferedSend(String call, Object buf, int offset, int count, Datatype datatype,
                                                int dest, int tag) {
        checkSendArguments(call, buf, offset, count, datatype, dest, tag);
        if (dest == MPI.PROC_NULL) {
            return PROC_NULL;
        }
        int world = ranks.toWorld(dest);
        int context = spec.pointToPointContext();
        return request -> {
            ByteBuffer copy = datatype.pack(buf, offset, count, false);
            int bytes = copy.remaining();
            Environment.bufferedSends().send(Environment.backend(), call, copy, world, tag, context);
            request.completedWith(new Status(dest, tag, bytes));
        };
    }

    private Request.Starter checkedReceive(String call, Object buf, int offset, int count, Datatype datatype,
                                           int source, int tag) {
        checkReceiveArguments(call, buf, offset, count, datatype, source, tag);
        if (source == MPI.PROC_NULL) {
            return PROC_NULL;
        }
        return new ReceiveStarter(this, call, datatype, buf, offset, count, worldSource(source), tag,
                spec.pointToPointContext());
    }

    /*
     * The starters of sends and receives are classes rather than lambdas, as dev.mpj.api.AllComplete explains: as
     * lambdas their linking took a third of a rank's first interpreted exchange with its neighbours.
     */

    /**
     * What a send or receive starter holds: the user's buffer and the message's envelope in world terms. A
     * non-blocking call starts it as its own request, so it makes one object where a request and its starter were
     * two; a persistent request keeps it as the starter of each of its starts.
     */
    private abstract static class Transfer extends Request implements Request.Starter {
        /** The call that made it, for the wait report. */
        final String call;
        final Datatype datatype;
        final Object buf;
        final int offset;
        final int count;
        final int world;
        final int tag;
        final int context;

        Transfer(Comm comm, String call, Datatype datatype, Object buf, int offset, int count, int world, int tag,
                 int context) {
            super(comm);
            this.call = call;
            this.datatype = datatype;
            this.buf = buf;
            this.offset = offset;
            this.count = count;
            this.world = world;
            this.tag = tag;
            this.context = context;
        }
    }

    /** Packs the data (unless they come packed: no datatype) and hands the send to the runtime. */
    private static final class SendStarter extends Transfer {
        private final SendMode mode;

        SendStarter(Comm comm, String call, Datatype datatype, Object buf, int offset, int count, int world, int tag,
                    int context, SendMode mode) {
            super(comm, call, datatype, buf, offset, count, world, tag, context);
            this.mode = mode;
        }

        @Override
        public String describe(Comm comm) {
            return comm.envelope(call, "dest", comm.toCommRank(world), tag);
        }

        /** The bytes a send of {@code buf} reads: {@code lent} if packed into it, else packed or in place. */
        static ByteBuffer bytes(Datatype datatype, Object buf, int offset, int count, ByteBuffer lent) {
            return lent != null ? lent : datatype == null ? (ByteBuffer) buf : datatype.pack(buf, offset, count, true);
        }

        @Override
        public void start(Request request) {
            MpiBackend backend = Environment.backend();
            if (sentFromArray(backend, datatype, buf, offset, count, world, tag, context, mode)) {
                request.sentAtOnce(world, tag, datatype.denseBytes(count));
                return;
            }
            ByteBuffer lent = datatype == null ? null : datatype.packLent(buf, offset, count);
            ByteBuffer data = bytes(datatype, buf, offset, count, lent);
            int bytes = data.remaining();
            if (sendAtOnce(backend, data, world, tag, context, mode, lent)) {
                // no operation to keep: the status is all the request holds
                request.sentAtOnce(world, tag, bytes);
                return;
            }
            Operation op = backend.send(data, world, tag, context, mode);
            if (lent != null && op.isComplete()) {
                // the runtime copied the data before returning (eager, or delivered to this rank)
                TransferBuffers.giveBack(lent);
                lent = null;
            }
            request.started(op, null);
            request.lent(lent);
        }
    }

    /** Finds where the data will land and hands the receive to the runtime. */
    private static final class ReceiveStarter extends Transfer {
        ReceiveStarter(Comm comm, String call, Datatype datatype, Object buf, int offset, int count, int world,
                       int tag, int context) {
            super(comm, call, datatype, buf, offset, count, world, tag, context);
        }

        @Override
        public String describe(Comm comm) {
            return comm.envelope(call, "source", comm.toCommRank(world), tag);
        }

        @Override
        public void start(Request request) {
            MpiBackend backend = Environment.backend();
            // a dense primitive array is copied into as it is: no buffer wrapped around it, nothing to unpack
            Operation op = datatype.postsIntoArray(buf, count) ? backend.receiveIntoArray(buf,
                    datatype.firstElement(offset), datatype.element.bytes, datatype.denseBytes(count), world, tag,
                    context) : null;
            if (op != null) {
                request.started(op, null);
                return;
            }
            // a byte[] or ByteBuffer run is received in place: nothing to unpack, so no receive buffer is made
            ByteBuffer room = datatype.roomInPlace(buf, offset, count);
            if (room != null) {
                request.started(backend.receive(room, world, tag, context), null);
                return;
            }
            ReceiveBuffer into = datatype.receiveBuffer(buf, offset, count);
            request.started(backend.receive(into.room(), world, tag, context), into);
        }
    }

    private void checkReceiveArguments(String call, Object buf, int offset, int count, Datatype datatype,
                                       int source, int tag) {
        Environment.backend();
        checkDatatype(call, datatype);
        datatype.checkBuffer(call, buf, offset, count, true);
        checkSource(call, source);
        checkTag(call, tag, true);
    }

    /** Names a blocking {@code Recv} that waits in the wait report, as {@link ReceiveStarter#describe} does. */
    private final class BlockingReceive implements PendingCall {
        @Override
        public String describe(int sourceWorldRank, int tag) {
            return envelope("Recv", "source", toCommRank(sourceWorldRank), tag);
        }
    }

    private int worldSource(int source) {
        return source == MPI.ANY_SOURCE ? MpiBackend.ANY_SOURCE : ranks.toWorld(source);
    }

    // ---- argument checks ----

    private void checkSendArguments(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        Environment.backend();
        checkDatatype(call, datatype);
        datatype.checkBuffer(call, buf, offset, count, false);
        spec();
        int size = ranks.size();
        if (dest != MPI.PROC_NULL && (dest < 0 || dest >= size)) {
            throw new MPIException(MPI.ERR_RANK, call + ": dest " + dest + " is not a rank of " + peersName()
                    + " (size " + size + ") nor MPI.PROC_NULL");
        }
        checkTag(call, tag, false);
    }

    private String peersName() {
        return Test_inter() ? "the remote group of " + name : name;
    }

    private static void checkDatatype(String call, Datatype datatype) {
        if (datatype == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
        }
    }

    private void checkSource(String call, int source) {
        spec();
        int size = ranks.size();
        if (source != MPI.PROC_NULL && source != MPI.ANY_SOURCE && (source < 0 || source >= size)) {
            throw new MPIException(MPI.ERR_RANK, call + ": source " + source + " is not a rank of " + peersName()
                    + " (size " + size + ") nor MPI.ANY_SOURCE or MPI.PROC_NULL");
        }
    }

    private static void checkTag(String call, int tag, boolean receive) {
        if (receive && tag == MPI.ANY_TAG) {
            return;
        }
        if (tag < 0 || tag > MPI.TAG_UB) {
            throw new MPIException(MPI.ERR_TAG, call + ": tag " + tag + " is outside 0..MPI.TAG_UB ("
                    + MPI.TAG_UB + ")" + (receive ? " and is not MPI.ANY_TAG" : ""));
        }
    }
}

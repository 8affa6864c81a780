package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;
import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiLimits;
import dev.mpj.runtime.pmi.wire.PmiVariables;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The PMI-2 wire client, as Hydra, Slurm's pmi2 plugin and mpjrun serve it (PMI.md §3). The conversation
 * opens with the PMI-1 line {@code cmd=init pmi_version=2 pmi_subversion=0} and its PMI-1 reply, then
 * continues in length-framed PMI-2, strictly lock-step like {@link Pmi1Client}. Construction runs
 * {@code init}, {@code fullinit} and {@code job-getid}; the job attributes are fetched on first use.
 *
 * <p><b>Barrier.</b> Under Slurm and mpjrun {@code kvs-fence} is a true barrier, but under Hydra it returns at
 * once and instead a {@code kvs-get} of a key that is missing blocks until every rank has reached the
 * caller's fence (PMI.md §3.5, checked live with 4.0.2 on two emulated nodes). So {@link #barrier()} is
 * {@code kvs-fence} followed by a {@code kvs-get} of {@value #BARRIER_PROBE_KEY}, a key nobody may put: on
 * Hydra that get is the wait; on the others it answers "not found" at once, after the fence already waited.
 * A key that every rank puts would not do: Hydra answers a present key at once, so the first rank's fenced
 * put would release the get before the last rank arrives. The probe costs one round trip per barrier where
 * the fence already synchronised; under Slurm it takes the ~10 ms first-request-after-fence delay that the
 * next get would otherwise pay.
 *
 * <p><b>Abort.</b> Sends {@code abort;isworld=TRUE;msg=…;exitcode=N;}. Slurm cancels the step and mpjrun ends
 * the job with exit code N (the {@code exitcode} field is ours; others ignore it). Hydra 4.0.2 has no PMI-2
 * abort: it reports an unrecognized command and kills the job with exit code 255, so the code is lost there;
 * a PMI-1 abort cannot be sent instead once the connection speaks PMI-2.
 *
 * <p><b>Ring.</b> {@link #ring} is PMIX_Ring as MPICH sends it: {@code ring;ring-count=1;ring-left=v;ring-right=v;},
 * answered once every rank has entered (PMI.md §3.6). Slurm's pmi2 plugin and mpjrun serve it; Hydra does not
 * (an unknown PMI-2 command ends its job), so the ring is offered only where the environment shows one of them.
 *
 * <p>Not thread-safe; {@code threaded=FALSE} is announced, so no {@code thrid} is sent.
 */
public final class Pmi2Client implements PmiClient {
    /** A key no rank may put; getting it is the wait of {@link #barrier()} under Hydra. */
    static final String BARRIER_PROBE_KEY = "mpj-barrier-probe";

    private static final String UNIVERSE_SIZE = "universeSize";
    /** Hydra and Slurm report keylen_max=64 and vallen_max=1024 with PMI-2 too; kept as MPICH's PMI-1 value. */
    private static final int MAX_VALUE_LENGTH = PmiLimits.DEFAULT_MAX_VALUE_LENGTH;

    private final PmiConnection connection;
    private final int rank;
    private final int size;
    private final String jobId;
    private final NodeAttributes nodeAttributes = new NodeAttributes();
    private String processMapping;
    private final SplitBarrier splitBarrier = new SplitBarrier();
    private final boolean ringServed;
    private final boolean allgatherServed;
    /** mpjrun's published KVS in shared memory, read before asking the server; null elsewhere. */
    private final SharedKvsTable sharedKvs;
    /** Asks the server for a key the shared table lacks. */
    private final UnaryOperator<String> kvsGet = new KvsGet();
    /** Gets from the shared table, or from the server for keys it lacks. */
    private final SharedFirstGet gets;

    /**
     * A client over an established connection (a test server, or a channel opened by other means); runs the
     * init sequence as {@code rank}. {@code pmiJobId} is sent as {@code pmijobid} when not null (Slurm needs
     * it: {@code PMI_JOBID}). {@code resource} is closed by {@link #close()}, and on failure here. The caller
     * knows its server, so {@link #ring} is offered.
     */
    public Pmi2Client(InputStream in, OutputStream out, Closeable resource, int rank, String pmiJobId) {
        this(new PmiConnection(in, out, resource), rank, pmiJobId, true);
    }

    private Pmi2Client(PmiConnection connection, int rank, String pmiJobId, boolean ringServed) {
        this.connection = connection;
        this.ringServed = ringServed;
        try {
            if (rank < 0) {
                throw new PmiException("invalid PMI rank " + rank);
            }
            Pmi1Message init = connection.call(
                    Pmi1Message.of("init", "pmi_version", "2", "pmi_subversion", "0"), "response_to_init");
            if (init.rc() != 0 || !"2".equals(init.get("pmi_version"))) {
                throw new PmiException("the process manager refused PMI 2.0: " + init
                        + " (use mpj.pmi=pmi1 with this process manager)");
            }
            Pmi2Message full = connection.call(pmiJobId == null
                    ? Pmi2Message.of("fullinit", "pmirank", Integer.toString(rank), "threaded", "FALSE")
                    : Pmi2Message.of("fullinit", "pmijobid", pmiJobId, "pmirank", Integer.toString(rank),
                            "threaded", "FALSE"), "fullinit-response");
            requireSuccess(full, "fullinit");
            this.allgatherServed = "TRUE".equalsIgnoreCase(full.get(PmiAllgather.PMI2_OFFER));
            this.rank = full.requireInt("rank");
            this.size = full.requireInt("size");
            if (size < 1 || this.rank != rank || rank >= size) {
                throw new PmiException("the process manager answered fullinit of rank " + rank + " with rank "
                        + this.rank + " of size " + size + ": " + full);
            }
            Pmi2Message id = connection.call(Pmi2Message.of("job-getid"), "job-getid-response");
            requireSuccess(id, "job-getid");
            this.jobId = id.require("jobid");
            this.sharedKvs = SharedKvsTable.openIfPossible(full.get(SharedKvsTable.PMI2_OFFER));
            this.gets = new SharedFirstGet(sharedKvs, connection.counters(), kvsGet);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * A client over the socket the process manager left open as {@code fd} ({@code PMI_FD}); the rank comes
     * from {@code PMI_RANK}, the job id for {@code fullinit} from {@code PMI_JOBID} (Slurm) when set. The ring
     * is offered under Slurm's pmi2 plugin ({@code SLURM_MPI_TYPE=pmi2}), not under Hydra.
     */
    public static Pmi2Client overFd(int fd, Map<String, String> env) {
        int rank = Pmi1Client.requireIntVariable(env, "PMI_RANK");
        boolean slurm = "pmi2".equalsIgnoreCase(String.valueOf(env.get("SLURM_MPI_TYPE")).trim());
        return new Pmi2Client(PmiConnection.overFd(fd), rank, jobIdVariable(env), slurm);
    }

    /**
     * A client over TCP to {@code hostPort} ({@code PMI_PORT}); the port-mode handshake yields the rank. Shows
     * mpjrun's job secret first when {@code env} has {@value PmiVariables#SECRET}; the ring is offered only then
     * (mpjrun's server, not Hydra's {@code -pmi-port}).
     */
    public static Pmi2Client overPort(String hostPort, int pmiId, Map<String, String> env) {
        return overPort(PmiConnection.overPort(hostPort, PmiClients.secret(env)), pmiId, env);
    }

    /** As {@link #overPort(String, int, Map)}, over a port-mode {@code connection} already open. */
    static Pmi2Client overPort(PmiConnection connection, int pmiId, Map<String, String> env) {
        int rank;
        try {
            rank = Pmi1Client.initAck(connection, pmiId)[0];
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
        return new Pmi2Client(connection, rank, jobIdVariable(env), PmiClients.secret(env) != null);
    }

    private static String jobIdVariable(Map<String, String> env) {
        String v = env.get("PMI_JOBID");
        return v == null || v.isBlank() ? null : v.trim();
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /** The job id of {@code job-getid}. */
    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public String processMapping() {
        if (processMapping == null) {
            // mpjrun writes it into its table with the KVS; ranks cannot put a PMI_ key, so it is the server's
            String value = sharedKvs == null ? null : sharedKvs.get(ProcessMapping.KEY);
            value = value != null ? value : jobAttribute(ProcessMapping.KEY);
            processMapping = value != null ? value : "";
        }
        return processMapping;
    }

    /** {@code universeSize} of the job, or -1 when the process manager does not tell (Hydra 4.0.2). */
    public int universeSize() {
        String value = jobAttribute(UNIVERSE_SIZE);
        try {
            return value == null ? -1 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new PmiException("the process manager's universeSize is not an integer: '" + value + "'");
        }
    }

    /** A job attribute ({@code info-getjobattr}), or null when the process manager has none. */
    public String jobAttribute(String key) {
        PmiLimits.checkKey(key, PmiLimits.MAX_KEY_LENGTH);
        return call(Pmi2Message.of("info-getjobattr", "key", key), "info-getjobattr-response").foundValue();
    }

    @Override
    public int maxValueLength() {
        return MAX_VALUE_LENGTH;
    }

    @Override
    public void put(String key, String value) {
        checkPut(key, value);
        Pmi2Message reply = call(Pmi2Message.of("kvs-put", "key", key, "value", value), "kvs-put-response");
        connection.counters().countPut();
        requireSuccess(reply, "kvs-put of key '" + key + "'");
    }

    /** Any rc other than 0, or a {@code found} other than TRUE, means "not found" (PMI.md §3.2). */
    @Override
    public String get(String key) {
        long start = System.nanoTime();
        splitBarrier.requireNone(); // the shared table may already hold the pending fence's keys
        return gets.get(start, key);
    }

    /** As MPICH: the job id of {@code job-getid} and srcid -1 (PMI2_ID_NULL: any source). */
    private String kvsGet(String key) {
        PmiLimits.checkKey(key, PmiLimits.MAX_KEY_LENGTH); // only here: the table holds only keys the server accepted
        return call(Pmi2Message.of("kvs-get", "jobid", jobId, "srcid", "-1", "key", key), "kvs-get-response")
                .foundValue();
    }

    @Override
    public void barrier() {
        barrierBegin();
        barrierEnd();
    }

    /** Sends {@code kvs-fence}; under Slurm and mpjrun its reply comes when every rank has fenced. */
    @Override
    public void barrierBegin() {
        splitBarrier.begin();
        connection.send(Pmi2Message.of("kvs-fence"));
    }

    /** The shared table's get path run past the JIT's first threshold, while the fence is pending. */
    @Override
    public void prepareGets() {
        gets.warm();
    }

    /** Reads the fence reply, then gets the probe key, which under Hydra waits for every rank's fence. */
    @Override
    public void barrierEnd() {
        splitBarrier.end();
        Pmi2Message reply = connection.receiveFrame("kvs-fence-response");
        if (!"kvs-fence-response".equals(reply.command())) {
            throw new PmiException("expected cmd=kvs-fence-response in reply to cmd=kvs-fence but the process"
                    + " manager sent: " + reply);
        }
        requireSuccess(reply, "kvs-fence");
        if (kvsGet(BARRIER_PROBE_KEY) != null) {
            throw new PmiException("the key " + BARRIER_PROBE_KEY + " was put although it is reserved for the"
                    + " PMI-2 barrier");
        }
        connection.counters().countBarrier();
    }

    @Override
    public boolean hasRing() {
        return ringServed;
    }

    /**
     * PMIX_Ring with count 1 and {@code value} on both sides, as MPICH; the size is the job's. Waits until every
     * rank has entered.
     */
    @Override
    public RingNeighbours ring(String value) {
        if (!ringServed) {
            throw new PmiException("this process manager does not serve PMIX_Ring (PMI-2 cmd=ring): only Slurm's"
                    + " pmi2 plugin and mpjrun do, Hydra does not");
        }
        PmiLimits.checkValue("ring", value, MAX_VALUE_LENGTH);
        Pmi2Message reply = call(Pmi2Message.of("ring", "ring-count", "1", "ring-left", value, "ring-right", value),
                "ring-response");
        connection.counters().countRing();
        requireSuccess(reply, "ring");
        int position = reply.requireInt("ring-count");
        if (position < 0 || position >= size) {
            throw new PmiException("the process manager answered ring with position " + position + " in a job of "
                    + size + ": " + reply);
        }
        return new RingNeighbours(position, size, reply.require("ring-left"), reply.require("ring-right"));
    }

    @Override
    public boolean hasAllgather() {
        return allgatherServed;
    }

    /** mpjrun's allgather, offered in its {@code fullinit-response}. */
    @Override
    public List<String> allgather(String value) {
        splitBarrier.requireNone();
        return AllgatherCall.run(connection, true, allgatherServed, value, size);
    }

    @Override
    public PmiNodeAttributes nodeAttributes() {
        return nodeAttributes;
    }

    /** Sends {@code finalize}, waits for its reply (Hydra kills a job whose rank skips it), closes. */
    @Override
    public void finish() {
        try {
            requireSuccess(call(Pmi2Message.of("finalize"), "finalize-response"), "finalize");
        } finally {
            close();
        }
    }

    /** Sends {@code abort} (no reply comes) and closes; see the class comment for what each server does. */
    @Override
    public void abort(int exitCode, String message) {
        try {
            connection.send(Pmi2Message.of("abort", "isworld", "TRUE", "msg", sanitize(message),
                    "exitcode", Integer.toString(exitCode)));
        } finally {
            connection.close();
        }
    }

    /** A message PMI-2 can carry: printable ASCII without ';', at most 200 characters. */
    static String sanitize(String message) {
        if (message == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < message.length() && sb.length() < 200; i++) {
            char c = message.charAt(i);
            sb.append(c < 0x20 || c > 0x7e || c == ';' ? ' ' : c);
        }
        return sb.toString();
    }

    @Override
    public String dialect() {
        return "pmi2";
    }

    @Override
    public PmiCounters counters() {
        return connection.counters();
    }

    @Override
    public void close() {
        connection.close();
        if (sharedKvs != null) {
            sharedKvs.close();
        }
    }

    @Override
    public String toString() {
        return "Pmi2Client[rank=" + rank + " size=" + size + " jobid=" + jobId + " " + connection.counters() + "]";
    }

    private void checkPut(String key, String value) {
        PmiLimits.checkPut(key, value, PmiLimits.MAX_KEY_LENGTH, MAX_VALUE_LENGTH);
        if (key.equals(BARRIER_PROBE_KEY)) {
            throw new PmiException("PMI key '" + key + "' is reserved for the PMI-2 barrier");
        }
    }

    private Pmi2Message call(Pmi2Message request, String expectedReply) {
        splitBarrier.requireNone();
        return connection.call(request, expectedReply);
    }

    private static void requireSuccess(Pmi2Message reply, String what) {
        if (reply.rc() != 0) {
            throw new PmiException("the process manager refused " + what + ": " + reply);
        }
    }

    /** {@code info-putnodeattr} and {@code info-getnodeattr}, counted as puts and gets. */
    private final class NodeAttributes implements PmiNodeAttributes {
        @Override
        public void put(String key, String value) {
            checkPut(key, value);
            Pmi2Message reply = call(Pmi2Message.of("info-putnodeattr", "key", key, "value", value),
                    "info-putnodeattr-response");
            connection.counters().countPut();
            requireSuccess(reply, "info-putnodeattr of key '" + key + "'");
        }

        @Override
        public String await(String key) {
            String value = getNodeAttribute(key, true);
            if (value == null) {
                throw new PmiException("the process manager answered info-getnodeattr of '" + key
                        + "' with wait=TRUE but without a value");
            }
            return value;
        }

        @Override
        public String get(String key) {
            return getNodeAttribute(key, false);
        }

        private String getNodeAttribute(String key, boolean wait) {
            PmiLimits.checkKey(key, PmiLimits.MAX_KEY_LENGTH);
            String value = call(Pmi2Message.of("info-getnodeattr", "key", key, "wait", wait ? "TRUE" : "FALSE"),
                    "info-getnodeattr-response").foundValue();
            connection.counters().countGet();
            return value;
        }
    }

    /** {@link #kvsGet} as the shared table's fallback: a class, since a lambda's linkage is cold work in {@code MPI.Init}. */
    private final class KvsGet implements UnaryOperator<String> {
        @Override
        public String apply(String key) {
            return kvsGet(key);
        }
    }
}

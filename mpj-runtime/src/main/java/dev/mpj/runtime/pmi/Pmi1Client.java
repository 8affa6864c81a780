package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;
import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiLimits;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.Closeable;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The PMI-1 ("simple") wire client, as Hydra and Slurm's pmi2 plugin serve it (PMI.md §2). Strictly
 * lock-step: one request written with one {@code write}, then exactly one reply line, whose command must be
 * the expected one. Reply fields are matched by key; a missing {@code rc} means success.
 *
 * <p>Construction runs the init sequence ({@code init}, {@code get_maxes}, {@code get_my_kvsname}: three
 * round trips, or with the port handshake one when pipelined under mpjrun); {@code PMI_process_mapping} is
 * fetched on first use. Not thread-safe.
 */
public final class Pmi1Client implements PmiClient {
    private final PmiConnection connection;
    private final int rank;
    private final int size;
    private final String kvsName;
    private final SplitBarrier splitBarrier = new SplitBarrier();
    private final int maxKeyLength;
    private final int maxValueLength;
    private final boolean allgatherServed;
    /** mpjrun's published KVS in shared memory, read before asking the server; null elsewhere. */
    private final SharedKvsTable sharedKvs;
    /** Asks the server for a key the shared table lacks. */
    private final UnaryOperator<String> serverGet = new ServerGet();
    /** Gets from the shared table, or from the server for keys it lacks. */
    private final SharedFirstGet gets;
    private String processMapping;

    /**
     * A client over an established connection (a test server, or a channel opened by other means); runs the
     * init sequence. {@code resource} is closed by {@link #close()}, and on failure here.
     */
    public Pmi1Client(InputStream in, OutputStream out, Closeable resource, int rank, int size) {
        this(new PmiConnection(in, out, resource), rank, size, false);
    }

    /** {@code sent}: the init sequence's requests are already on their way ({@link #sendInitSequence}). */
    private Pmi1Client(PmiConnection connection, int rank, int size, boolean sent) {
        this.connection = connection;
        try {
            if (size < 1 || rank < 0 || rank >= size) {
                throw new PmiException("invalid PMI rank " + rank + " for size " + size);
            }
            this.rank = rank;
            this.size = size;
            Pmi1Message init = initStep(sent, INIT, "response_to_init");
            String version = init.get("pmi_version");
            if (init.rc() != 0 || (version != null && !version.equals("1"))) {
                throw new PmiException("the process manager refused PMI 1.1: " + init);
            }
            Pmi1Message maxes = initStep(sent, GET_MAXES, "maxes");
            int kvsNameMax = maxes.requireInt("kvsname_max");
            int keyLenMax = maxes.requireInt("keylen_max");
            int valLenMax = maxes.requireInt("vallen_max");
            // As MPICH: a put line (cmd=put kvsname= key= value= and the newline) must fit in one 1024-byte read.
            this.maxKeyLength = Math.min(PmiLimits.MAX_KEY_LENGTH, keyLenMax - 1);
            this.maxValueLength = Math.min(valLenMax - 1,
                    Pmi1Message.MAX_LINE - kvsNameMax - keyLenMax - 30);
            if (maxKeyLength < 1 || maxValueLength < 1) {
                throw new PmiException("unusable PMI limits: " + maxes);
            }
            this.allgatherServed = "1".equals(maxes.get(PmiAllgather.PMI1_OFFER));
            this.kvsName = initStep(sent, GET_MY_KVSNAME, "my_kvsname").require("kvsname");
            this.sharedKvs = SharedKvsTable.openIfPossible(maxes.get(SharedKvsTable.PMI1_OFFER));
            this.gets = new SharedFirstGet(sharedKvs, connection.counters(), serverGet);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static final Pmi1Message INIT = Pmi1Message.of("init", "pmi_version", "1", "pmi_subversion", "1");
    private static final Pmi1Message GET_MAXES = Pmi1Message.of("get_maxes");
    private static final Pmi1Message GET_MY_KVSNAME = Pmi1Message.of("get_my_kvsname");

    /** One request of the init sequence: a round trip, or only its reply when the request was sent ahead. */
    private Pmi1Message initStep(boolean sent, Pmi1Message request, String expectedReply) {
        return sent ? connection.reply(request, expectedReply) : connection.call(request, expectedReply);
    }

    /** Writes the init sequence's three requests without waiting for replies. */
    private static void sendInitSequence(PmiConnection connection) {
        connection.send(INIT);
        connection.send(GET_MAXES);
        connection.send(GET_MY_KVSNAME);
    }

    /**
     * A client over the AF_UNIX socket the process manager left open as file descriptor {@code fd}
     * ({@code PMI_FD}); rank and size come from {@code PMI_RANK} and {@code PMI_SIZE}, which Hydra and Slurm
     * set in this mode.
     */
    public static Pmi1Client overFd(int fd, Map<String, String> env) {
        int rank = requireIntVariable(env, "PMI_RANK");
        int size = requireIntVariable(env, "PMI_SIZE");
        return new Pmi1Client(PmiConnection.overFd(fd), rank, size, false);
    }

    /**
     * A client over TCP to {@code hostPort} ({@code PMI_PORT}, Hydra's {@code -pmi-port} mode). The port-mode
     * handshake ({@code cmd=initack pmiid=<pmiId>}) yields rank and size.
     */
    public static Pmi1Client overPort(String hostPort, int pmiId) {
        return overPort(hostPort, pmiId, false);
    }

    /**
     * As {@link #overPort(String, int)}; {@code pipelined} writes the handshake and the whole init sequence at
     * once and then reads the four replies, one round trip instead of four. Only for a server known to read
     * every line of a read (mpjrun's {@code PmiServer}): the PMI-1 protocol itself is lock-step.
     */
    public static Pmi1Client overPort(String hostPort, int pmiId, boolean pipelined) {
        return overPort(hostPort, pmiId, pipelined, null);
    }

    /** As {@link #overPort(String, int, boolean)}, showing mpjrun's job {@code secret} first when not null. */
    public static Pmi1Client overPort(String hostPort, int pmiId, boolean pipelined, String secret) {
        return overPort(PmiConnection.overPort(hostPort, secret), pmiId, pipelined);
    }

    /** As {@link #overPort(String, int, boolean, String)}, over a port-mode {@code connection} already open. */
    static Pmi1Client overPort(PmiConnection connection, int pmiId, boolean pipelined) {
        int[] rankAndSize;
        try {
            connection.send(Pmi1Message.of("initack", "pmiid", Integer.toString(pmiId)));
            if (pipelined) {
                sendInitSequence(connection);
            }
            rankAndSize = initAckReplies(connection, pmiId);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
        return new Pmi1Client(connection, rankAndSize[0], rankAndSize[1], pipelined);
    }

    /** Port mode: the server answers the initack with four lines, {@code initack} and three {@code set}s. */
    static int[] initAck(PmiConnection connection, int pmiId) {
        connection.send(Pmi1Message.of("initack", "pmiid", Integer.toString(pmiId)));
        return initAckReplies(connection, pmiId);
    }

    /** The four lines answering an initack already sent: rank and size. */
    private static int[] initAckReplies(PmiConnection connection, int pmiId) {
        boolean acknowledged = false;
        int rank = -1;
        int size = -1;
        for (int i = 0; i < 4; i++) {
            Pmi1Message line = connection.receive("initack");
            if ("initack".equals(line.command())) {
                acknowledged = true;
            } else if ("set".equals(line.command())) {
                if (line.get("rank") != null) {
                    rank = line.requireInt("rank");
                } else if (line.get("size") != null) {
                    size = line.requireInt("size");
                } else if (line.get("debug") == null) {
                    throw new PmiException("unexpected line in the PMI port handshake: " + line);
                }
            } else {
                throw new PmiException("expected cmd=initack or cmd=set in the PMI port handshake but the process"
                        + " manager sent: " + line);
            }
        }
        if (!acknowledged || rank < 0 || size < 0) {
            throw new PmiException("the PMI port handshake for pmiid=" + pmiId + " gave no "
                    + (!acknowledged ? "cmd=initack" : rank < 0 ? "rank" : "size"));
        }
        return new int[] {rank, size};
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /** The KVS name the process manager gave this job. */
    @Override
    public String jobId() {
        return kvsName;
    }

    @Override
    public String processMapping() {
        if (processMapping == null) {
            String value = get(ProcessMapping.KEY);
            processMapping = value != null ? value : "";
        }
        return processMapping;
    }

    @Override
    public int maxValueLength() {
        return maxValueLength;
    }

    @Override
    public void put(String key, String value) {
        PmiLimits.checkPut(key, value, maxKeyLength, maxValueLength);
        Pmi1Message reply = call(
                Pmi1Message.of("put", "kvsname", kvsName, "key", key, "value", value), "put_result");
        connection.counters().countPut();
        if (reply.rc() != 0) {
            throw new PmiException("the process manager rejected the put of key '" + key + "': " + reply);
        }
    }

    /** Any rc other than 0 means "not found": Hydra 4.0.2 answers -1, Slurm and newer Hydra 1. */
    @Override
    public String get(String key) {
        long start = System.nanoTime();
        splitBarrier.requireNone(); // the shared table may already hold the pending fence's keys
        return gets.get(start, key);
    }

    private String serverGet(String key) {
        PmiLimits.checkKey(key, maxKeyLength); // only here: the table holds only keys the server accepted
        Pmi1Message reply = call(Pmi1Message.of("get", "kvsname", kvsName, "key", key), "get_result");
        return reply.rc() != 0 ? null : reply.require("value");
    }

    @Override
    public void barrier() {
        barrierBegin();
        barrierEnd();
    }

    @Override
    public void barrierBegin() {
        splitBarrier.begin();
        connection.send(Pmi1Message.of("barrier_in"));
    }

    /** The shared table's get path run past the JIT's first threshold, while the fence is pending. */
    @Override
    public void prepareGets() {
        gets.warm();
    }

    @Override
    public void barrierEnd() {
        splitBarrier.end();
        Pmi1Message reply = connection.receive("barrier_out");
        connection.counters().countBarrier();
        if (!"barrier_out".equals(reply.command())) {
            throw new PmiException("expected cmd=barrier_out in reply to cmd=barrier_in but the process manager sent: "
                    + reply);
        }
        if (reply.rc() != 0) {
            throw new PmiException("the PMI barrier failed: " + reply);
        }
    }

    @Override
    public boolean hasAllgather() {
        return allgatherServed;
    }

    /** mpjrun's allgather, offered in its {@code maxes} reply. */
    @Override
    public List<String> allgather(String value) {
        splitBarrier.requireNone();
        return AllgatherCall.run(connection, false, allgatherServed, value, size);
    }

    private Pmi1Message call(Pmi1Message request, String expectedReply) {
        splitBarrier.requireNone();
        return connection.call(request, expectedReply);
    }

    /** Sends {@code finalize}, waits for {@code finalize_ack} (Hydra kills a job whose rank skips it), closes. */
    @Override
    public void finish() {
        try {
            call(Pmi1Message.of("finalize"), "finalize_ack");
        } finally {
            close();
        }
    }

    /** Sends {@code cmd=abort exitcode=N} and closes; PMI-1 has no field for {@code message}, so it is not sent. */
    @Override
    public void abort(int exitCode, String message) {
        try {
            connection.send(Pmi1Message.of("abort", "exitcode", Integer.toString(exitCode)));
        } finally {
            connection.close();
        }
    }

    @Override
    public String dialect() {
        return "pmi1";
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
        return "Pmi1Client[rank=" + rank + " size=" + size + " kvs=" + kvsName + " " + connection.counters() + "]";
    }

    static int requireIntVariable(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new PmiException(name + " is not set although PMI_FD is; the process manager must set "
                    + "PMI_RANK and PMI_SIZE with PMI_FD");
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new PmiException(name + " is not an integer: '" + value + "'");
        }
    }

    static InetSocketAddress parseHostPort(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new PmiException("PMI_PORT must be host:port, not '" + hostPort + "'");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new PmiException("PMI_PORT has no valid port number: '" + hostPort + "'");
        }
        return new InetSocketAddress(host, port);
    }

    /** {@link #serverGet} as the shared table's fallback: a class, since a lambda's linkage is cold work in {@code MPI.Init}. */
    private final class ServerGet implements UnaryOperator<String> {
        @Override
        public String apply(String key) {
            return serverGet(key);
        }
    }
}

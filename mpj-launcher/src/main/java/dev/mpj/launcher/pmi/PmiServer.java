package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The process manager's PMI server in port mode (PMI.md §2, §3, §6): ranks connect to 127.0.0.1 on an
 * ephemeral port named in {@code PMI_PORT}, identify themselves with {@code cmd=initack pmiid=R}, then speak
 * PMI-1 or PMI-2 lock-step. A connection speaks PMI-1 lines until its {@code init} asks for
 * {@code pmi_version=2}; from then on each message is detected as Hydra does: one starting with {@code cmd=} or
 * {@code mcmd=} is a PMI-1 line, anything else a length-framed PMI-2 message. One thread with one selector
 * serves every connection, as Hydra's proxy does, so the KVS and the barrier need no locks and every reply
 * order is deterministic.
 *
 * <p>Semantics follow Hydra and Slurm: a put ({@code put}, {@code kvs-put}) stays invisible, even to its
 * putter, until the next barrier; the barrier ({@code barrier_in}, and {@code kvs-fence}, a true barrier here
 * as in Slurm) completes when all ranks have entered it, whatever their dialect, and shares one KVS;
 * {@code PMI_process_mapping} is always served. PMI-2 node attributes are kept per node of the
 * {@link ProcessMapping}, and a get with {@code wait=TRUE} is answered when a rank of the same node puts the
 * key. Unlike Hydra, an unknown command gets an {@code rc=-1} reply instead of killing the job, and a PMI-2
 * {@code abort} ends the job with its {@code exitcode} field (1 without one). A client that breaks the
 * protocol (a line over 1024 bytes, a PMI-2 length field that is not a number or announces more than
 * {@link Pmi2Message#MAX_BODY} bytes, a message the parsers reject, a command out of order) is reported to the
 * {@link Listener} and its connection closed; the server keeps serving the others and never throws from its
 * thread.
 */
public final class PmiServer implements AutoCloseable {

    /**
     * What the server tells the job. Called on the server thread in the order things happened (a rank's
     * {@code rankFinalized} comes before its {@code finalize_ack} is written), so implementations must be quick
     * and must not block.
     */
    public interface Listener {
        /** The rank identified its connection ({@code initack}). */
        void rankConnected(int rank);

        /** The rank sent {@code finalize}. */
        void rankFinalized(int rank);

        /** The rank asked to end the job ({@code abort exitcode=N}). */
        void rankAborted(int rank, int exitCode);

        /** The rank's connection closed before it sent {@code finalize} or {@code abort}. */
        void rankDisconnected(int rank);

        /**
         * A client broke the protocol; its connection is closed.
         *
         * @param rank    the client's rank, or -1 when it had not identified itself
         * @param problem what it did, phrased to follow "rank R", e.g. "sent a malformed PMI line: …"
         */
        void protocolError(int rank, String problem);

        /** The server itself failed (its selector broke) and serves nobody any more. */
        void serverFailed(Exception cause);
    }

    /** Limits announced by {@code get_maxes}, counting the terminating NUL as Hydra and Slurm do. */
    static final int KVSNAME_MAX = 256;
    static final int KEYLEN_MAX = 64;
    static final int VALLEN_MAX = 1024;

    /** The key every server answers itself, before any barrier. */
    static final String PROCESS_MAPPING_KEY = "PMI_process_mapping";

    private final ProcessMapping mapping;
    private final String kvsName;
    private final Listener listener;
    private final Connection[] connectionOfRank;
    private final Map<String, String> published = new HashMap<>();
    private final Map<String, String> staged = new HashMap<>();
    private final List<Connection> barrierWaiters = new ArrayList<>();
    /** PMI-2 node attributes, one store per node of the mapping. */
    private final List<Map<String, String>> nodeAttributes = new ArrayList<>();
    /** Connections waiting in {@code info-getnodeattr wait=TRUE}, by node and key. */
    private final Map<NodeKey, List<Waiter>> nodeAttributeWaiters = new HashMap<>();
    private int firstFinalizedRank = -1;

    private Selector selector;
    private ServerSocketChannel acceptor;
    private Thread thread;
    private volatile boolean closing;

    /**
     * A server for one job.
     *
     * @param mapping  the job's size and rank placement, served as {@value #PROCESS_MAPPING_KEY}
     * @param kvsName  the name served by {@code get_my_kvsname} (see {@link #newKvsName()})
     * @param listener receives the job's PMI events
     */
    public PmiServer(ProcessMapping mapping, String kvsName, Listener listener) {
        if (kvsName.isEmpty() || kvsName.length() >= KVSNAME_MAX || !kvsName.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("unusable KVS name '" + kvsName + "'");
        }
        this.mapping = mapping;
        this.kvsName = kvsName;
        this.listener = listener;
        this.connectionOfRank = new Connection[mapping.size()];
        for (int node = 0; node < mapping.nodes(); node++) {
            nodeAttributes.add(new HashMap<>());
        }
    }

    private record NodeKey(int node, String key) {
    }

    /** A PMI-2 request whose reply is held back; {@code thrid} is echoed when it comes. */
    private record Waiter(Connection connection, String thrid) {
    }

    /** A KVS name unique to this launcher and job: {@code mpj_<launcher pid>_<random hex>}. */
    public static String newKvsName() {
        return "mpj_" + ProcessHandle.current().pid() + "_"
                + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    }

    /** Binds an ephemeral loopback port and starts serving; returns the bound address. */
    public InetSocketAddress start() throws IOException {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        selector = Selector.open();
        try {
            acceptor = ServerSocketChannel.open();
            // the backlog covers every rank connecting at once, so no SYN is dropped at startup
            acceptor.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Math.max(128, mapping.size()));
            acceptor.configureBlocking(false);
            acceptor.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            closeQuietly(acceptor);
            closeQuietly(selector);
            throw e;
        }
        thread = new Thread(this::serve, "mpjrun-pmi-server");
        thread.setDaemon(true);
        thread.start();
        return address();
    }

    /** The bound address. */
    public InetSocketAddress address() throws IOException {
        return (InetSocketAddress) acceptor.getLocalAddress();
    }

    /** The value of {@code PMI_PORT} for the ranks: {@code host:port}. */
    public String portVariable() throws IOException {
        InetSocketAddress a = address();
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    public String kvsName() {
        return kvsName;
    }

    /** Stops serving and closes every connection; waits for the server thread to end. */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        closing = true;
        selector.wakeup();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serve() {
        try {
            while (!closing) {
                selector.select();
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                        continue;
                    }
                    Connection c = (Connection) key.attachment();
                    if (key.isWritable()) {
                        c.flush();
                    }
                    if (key.isValid() && key.isReadable()) {
                        c.read();
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                listener.serverFailed(e);
            }
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key.channel());
            }
            closeQuietly(selector);
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = acceptor.accept()) != null) {
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                key.attach(new Connection(channel, key));
            } catch (IOException e) {
                closeQuietly(channel); // the client went away while connecting: it will fail on its side
            }
        }
    }

    // ---- PMI-1 commands, one method per request ----

    private void handle(Connection c, Pmi1Message m) {
        String cmd = m.command();
        if (m.get("mcmd") != null) {
            c.skippingMultiLineCommand = true; // spawn: read up to endcmd, then refuse it
            return;
        }
        if (c.rank < 0 && !cmd.equals("initack")) {
            c.fail("sent cmd=" + cmd + " before identifying itself with cmd=initack pmiid=<rank>");
            return;
        }
        switch (cmd) {
            case "initack" -> initack(c, m);
            case "init" -> init(c, m);
            case "get_maxes" -> c.send(Pmi1Message.of("maxes", "kvsname_max", Integer.toString(KVSNAME_MAX),
                    "keylen_max", Integer.toString(KEYLEN_MAX), "vallen_max", Integer.toString(VALLEN_MAX)));
            case "get_appnum" -> c.send(Pmi1Message.of("appnum", "appnum", "0"));
            case "get_my_kvsname" -> c.send(Pmi1Message.of("my_kvsname", "kvsname", kvsName));
            case "get_universe_size" -> c.send(Pmi1Message.of("universe_size", "size",
                    Integer.toString(mapping.size())));
            case "put" -> put(c, m);
            case "get" -> get(c, m);
                case "barrier_in" -> barrierIn(c, false, null);
            case "finalize" -> finalize(c, Pmi1Message.of("finalize_ack"));
            case "abort" -> abort(c, m.get("exitcode"));
            default -> c.send(Pmi1Message.of(cmd + "_result", "rc", "-1", "msg", "unknown_command"));
        }
    }

    // ---- PMI-2 commands (PMI.md §3.2) ----

    private void handle(Connection c, Pmi2Message m) {
        String cmd = m.command();
        String thrid = m.get("thrid");
        switch (cmd) {
            case "fullinit" -> fullinit(c, m, thrid);
            case "job-getid" -> c.send(reply2(thrid, "job-getid-response", "rc", "0", "jobid", kvsName));
            case "info-getjobattr" -> c.send(lookupReply(thrid, "info-getjobattr-response", jobAttribute(m.require("key"))));
            case "kvs-put" -> kvsPut(c, m, thrid);
            case "kvs-get" -> {
                String key = m.require("key");
                c.send(lookupReply(thrid, "kvs-get-response",
                        key.equals(PROCESS_MAPPING_KEY) ? mapping.pmiValue() : published.get(key)));
            }
            case "kvs-fence" -> barrierIn(c, true, thrid);
            case "info-putnodeattr" -> putNodeAttribute(c, m, thrid);
            case "info-getnodeattr" -> getNodeAttribute(c, m, thrid);
            case "finalize" -> finalize(c, reply2(thrid, "finalize-response", "rc", "0"));
            case "abort" -> abort(c, m.get("exitcode"));
            default -> c.send(reply2(thrid, cmd + "-response", "rc", "-1", "errmsg", "unknown_command"));
        }
    }

    private void fullinit(Connection c, Pmi2Message m, String thrid) {
        String claimed = m.get("pmirank");
        if (claimed != null && !claimed.trim().equals(Integer.toString(c.rank))) {
            c.fail("sent fullinit with pmirank=" + claimed + " on the connection of rank " + c.rank);
            return;
        }
        c.send(reply2(thrid, "fullinit-response", "rc", "0", "pmi-version", "2", "pmi-subversion", "0",
                "rank", Integer.toString(c.rank), "size", Integer.toString(mapping.size()), "appnum", "0",
                "debugged", "FALSE", "pmiverbose", "FALSE"));
    }

    private String jobAttribute(String key) {
        return switch (key) {
            case PROCESS_MAPPING_KEY -> mapping.pmiValue();
            case "universeSize" -> Integer.toString(mapping.size());
            default -> null;
        };
    }

    private void kvsPut(Connection c, Pmi2Message m, String thrid) {
        String key = m.require("key");
        String value = m.require("value");
        if (key.length() >= KEYLEN_MAX) {
            c.send(reply2(thrid, "kvs-put-response", "rc", "-1", "errmsg", "key_longer_than_" + (KEYLEN_MAX - 1)));
        } else {
            staged.put(key, value);
            c.send(reply2(thrid, "kvs-put-response", "rc", "0"));
        }
    }

    /** Visible at once to the ranks of the putter's node, and answers the gets that wait for it there. */
    private void putNodeAttribute(Connection c, Pmi2Message m, String thrid) {
        String key = m.require("key");
        String value = m.require("value");
        int node = mapping.nodeOf(c.rank);
        nodeAttributes.get(node).put(key, value);
        c.send(reply2(thrid, "info-putnodeattr-response", "rc", "0"));
        List<Waiter> waiting = nodeAttributeWaiters.remove(new NodeKey(node, key));
        if (waiting != null) {
            for (Waiter w : waiting) {
                w.connection().send(lookupReply(w.thrid(), "info-getnodeattr-response", value));
            }
        }
    }

    private void getNodeAttribute(Connection c, Pmi2Message m, String thrid) {
        String key = m.require("key");
        int node = mapping.nodeOf(c.rank);
        String value = nodeAttributes.get(node).get(key);
        if (value == null && "TRUE".equalsIgnoreCase(m.get("wait"))) {
            nodeAttributeWaiters.computeIfAbsent(new NodeKey(node, key), k -> new ArrayList<>())
                    .add(new Waiter(c, thrid));
        } else {
            c.send(lookupReply(thrid, "info-getnodeattr-response", value));
        }
    }

    /** A lookup reply: {@code found=TRUE;value=…} or {@code found=FALSE}. */
    private static Pmi2Message lookupReply(String thrid, String command, String value) {
        return value == null ? reply2(thrid, command, "rc", "0", "found", "FALSE")
                : reply2(thrid, command, "rc", "0", "found", "TRUE", "value", value);
    }

    /** A PMI-2 reply, echoing the request's {@code thrid} when it had one. */
    private static Pmi2Message reply2(String thrid, String command, String... keyValues) {
        if (thrid == null) {
            return Pmi2Message.of(command, keyValues);
        }
        String[] withThrid = Arrays.copyOf(keyValues, keyValues.length + 2);
        withThrid[keyValues.length] = "thrid";
        withThrid[keyValues.length + 1] = thrid;
        return Pmi2Message.of(command, withThrid);
    }

    private void initack(Connection c, Pmi1Message m) {
        if (c.rank >= 0) {
            c.fail("sent cmd=initack a second time");
            return;
        }
        int id = m.requireInt("pmiid");
        if (id < 0 || id >= mapping.size()) {
            c.fail("claimed pmiid=" + id + " in a job of " + mapping.size() + " ranks");
            return;
        }
        if (connectionOfRank[id] != null) {
            c.fail("claimed pmiid=" + id + ", which another connection already holds");
            return;
        }
        c.rank = id;
        connectionOfRank[id] = c;
        listener.rankConnected(id);
        c.send(Pmi1Message.of("initack"),
                Pmi1Message.of("set", "size", Integer.toString(mapping.size())),
                Pmi1Message.of("set", "rank", Integer.toString(id)),
                Pmi1Message.of("set", "debug", "0"));
    }

    /** PMI-1 init; {@code pmi_version=2} is answered in PMI-1 and switches the connection to PMI-2. */
    private void init(Connection c, Pmi1Message m) {
        String version = m.get("pmi_version");
        if (version == null || version.equals("1")) {
            c.send(Pmi1Message.of("response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", "0"));
        } else if (version.equals("2")) {
            c.send(Pmi1Message.of("response_to_init", "pmi_version", "2", "pmi_subversion", "0", "rc", "0"));
            c.pmi2 = true;
        } else {
            c.send(Pmi1Message.of("response_to_init", "pmi_version", "1", "pmi_subversion", "1", "rc", "-1",
                    "msg", "only_PMI-1_and_PMI-2_are_served"));
        }
    }

    private void put(Connection c, Pmi1Message m) {
        String key = m.require("key");
        String value = m.require("value");
        if (!kvsNameMatches(m)) {
            c.send(Pmi1Message.of("put_result", "rc", "-1", "msg", "kvsname_not_found"));
        } else if (key.length() >= KEYLEN_MAX) {
            c.send(Pmi1Message.of("put_result", "rc", "-1", "msg", "key_longer_than_" + (KEYLEN_MAX - 1)));
        } else {
            staged.put(key, value);
            c.send(Pmi1Message.of("put_result", "rc", "0", "msg", "success"));
        }
    }

    private void get(Connection c, Pmi1Message m) {
        String key = m.require("key");
        String value = !kvsNameMatches(m) ? null
                : key.equals(PROCESS_MAPPING_KEY) ? mapping.pmiValue()
                : published.get(key);
        if (value == null) {
            c.send(Pmi1Message.of("get_result", "rc", "-1", "msg", "key_" + key + "_not_found", "value", "unknown"));
        } else {
            c.send(Pmi1Message.of("get_result", "rc", "0", "msg", "success", "value", value));
        }
    }

    private boolean kvsNameMatches(Pmi1Message m) {
        String requested = m.get("kvsname");
        return requested == null || requested.equals(kvsName);
    }

    /** {@code barrier_in} or ({@code fence}) {@code kvs-fence}: one barrier for both dialects. */
    private void barrierIn(Connection c, boolean fence, String fenceThrid) {
        if (c.inBarrier) {
            c.fail("entered the PMI barrier twice");
            return;
        }
        if (firstFinalizedRank >= 0) {
            c.fail("entered a PMI barrier after rank " + firstFinalizedRank + " had finalized; it could never "
                    + "complete");
            return;
        }
        c.inBarrier = true;
        c.fencing = fence;
        c.fenceThrid = fenceThrid;
        barrierWaiters.add(c);
        if (barrierWaiters.size() == mapping.size()) {
            published.putAll(staged);
            staged.clear();
            Pmi1Message out = Pmi1Message.of("barrier_out");
            for (Connection waiting : barrierWaiters) {
                waiting.inBarrier = false; // before send: a failed write closes the connection
                if (waiting.fencing) {
                    waiting.send(reply2(waiting.fenceThrid, "kvs-fence-response", "rc", "0"));
                } else {
                    waiting.send(out);
                }
                waiting.fencing = false;
                waiting.fenceThrid = null;
            }
            barrierWaiters.clear();
        }
    }

    /** Both dialects; {@code ack} is {@code finalize_ack} or {@code finalize-response}. */
    private void finalize(Connection c, Object ack) {
        c.finalized = true;
        if (firstFinalizedRank < 0) {
            firstFinalizedRank = c.rank;
        }
        listener.rankFinalized(c.rank);
        c.send(ack);
        if (!barrierWaiters.isEmpty()) {
            c.fail("finalized while " + barrierWaiters.size() + " rank(s) wait in a PMI barrier that can now never "
                    + "complete");
        }
    }

    private void abort(Connection c, String exitCodeField) {
        int exitCode;
        try {
            exitCode = exitCodeField == null ? 1 : Integer.parseInt(exitCodeField.trim());
        } catch (NumberFormatException e) {
            c.fail("sent an abort whose exitcode is not an integer: '" + exitCodeField + "'");
            return;
        }
        c.aborted = true;
        listener.rankAborted(c.rank, exitCode);
        // no reply, as Hydra and Slurm: the job is ending
    }

    /**
     * One client connection: a buffer in holding PMI-1 lines and, once {@link #pmi2} is set, PMI-2 frames; a
     * queue of unwritten replies out.
     */
    private final class Connection {
        private final SocketChannel channel;
        private final SelectionKey key;
        private final ByteBuffer in = ByteBuffer.allocate(Pmi2Message.LENGTH_FIELD + Pmi2Message.MAX_BODY);
        private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
        int rank = -1;
        boolean finalized;
        boolean aborted;
        boolean inBarrier;
        /** Set by {@code init pmi_version=2}: messages not starting with cmd= or mcmd= are PMI-2 frames. */
        boolean pmi2;
        /** In the barrier through {@code kvs-fence} (answered in PMI-2), with the request's thrid if any. */
        boolean fencing;
        String fenceThrid;
        boolean skippingMultiLineCommand;
        private boolean closed;

        Connection(SocketChannel channel, SelectionKey key) {
            this.channel = channel;
            this.key = key;
        }

        void read() {
            int n;
            try {
                n = channel.read(in);
            } catch (IOException e) {
                n = -1; // reset by the peer: same as a close
            }
            if (n < 0) {
                lost();
                return;
            }
            byte[] bytes = in.array();
            int consumed = 0;
            while (!closed) {
                int used = isFrame(bytes, consumed, in.position())
                        ? consumeFrame(bytes, consumed, in.position())
                        : consumeLine(bytes, consumed, in.position());
                if (used == 0) {
                    break;
                }
                consumed += used;
            }
            if (closed) {
                return;
            }
            in.flip().position(consumed);
            in.compact();
            if (in.position() >= Pmi1Message.MAX_LINE && !isFrame(bytes, 0, in.position())) {
                lineTooLong(bytes, 0);
            }
        }

        private void lineTooLong(byte[] bytes, int from) {
            String head = new String(bytes, from, 60, StandardCharsets.ISO_8859_1);
            fail("sent a malformed PMI line: longer than " + Pmi1Message.MAX_LINE + " bytes, starting \"" + head
                    + "…\"");
        }

        /**
         * Whether the message at {@code from} is a PMI-2 frame: only after {@code init pmi_version=2}, and then,
         * as Hydra decides, when it does not start with {@code cmd=} or {@code mcmd=} (a length field never does).
         */
        private boolean isFrame(byte[] bytes, int from, int to) {
            if (!pmi2 || skippingMultiLineCommand) {
                return false;
            }
            return !startsWith(bytes, from, to, "cmd=") && !startsWith(bytes, from, to, "mcmd=");
        }

        /** True also when the bytes so far are a prefix of {@code prefix}: the line is still arriving. */
        private static boolean startsWith(byte[] bytes, int from, int to, String prefix) {
            for (int i = 0; i < prefix.length(); i++) {
                if (from + i >= to) {
                    return i > 0;
                }
                if (bytes[from + i] != prefix.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        /** Handles one complete line at {@code from}; returns the bytes used, 0 when the line is incomplete. */
        private int consumeLine(byte[] bytes, int from, int to) {
            for (int i = from; i < to; i++) {
                if (bytes[i] == '\n') {
                    if (i + 1 - from > Pmi1Message.MAX_LINE) {
                        lineTooLong(bytes, from);
                        return 0;
                    }
                    // ISO-8859-1 keeps every byte one char, so Pmi1Message.parse sees and rejects non-ASCII
                    handleLine(new String(bytes, from, i - from, StandardCharsets.ISO_8859_1));
                    return i + 1 - from;
                }
            }
            return 0;
        }

        /** Handles one complete frame at {@code from}; returns the bytes used, 0 when incomplete or failed. */
        private int consumeFrame(byte[] bytes, int from, int to) {
            if (to - from < Pmi2Message.LENGTH_FIELD) {
                return 0;
            }
            String field = new String(bytes, from, Pmi2Message.LENGTH_FIELD, StandardCharsets.ISO_8859_1);
            int length;
            try {
                length = Pmi2Message.parseLength(field);
            } catch (PmiException e) {
                fail("sent a malformed PMI-2 frame: " + e.getMessage());
                return 0;
            }
            int end = from + Pmi2Message.LENGTH_FIELD + length;
            if (end > to) {
                return 0;
            }
            String body = new String(bytes, from + Pmi2Message.LENGTH_FIELD, length, StandardCharsets.ISO_8859_1);
            try {
                handle(this, Pmi2Message.parse(body));
            } catch (PmiException e) {
                fail("sent a malformed PMI-2 frame: " + e.getMessage());
            } catch (RuntimeException e) {
                fail("sent a PMI-2 message the PMI server failed on: \"" + body + "\" (" + e + ")");
            }
            return end - from;
        }

        private void handleLine(String line) {
            if (skippingMultiLineCommand) {
                if (line.equals("endcmd")) {
                    skippingMultiLineCommand = false;
                    send(Pmi1Message.of("spawn_result", "rc", "-1", "msg", "spawn_not_supported"));
                }
                return;
            }
            try {
                handle(this, Pmi1Message.parse(line));
            } catch (PmiException e) {
                fail("sent a malformed PMI line: " + e.getMessage());
            } catch (RuntimeException e) {
                // a bug of ours must not take the server down for every other rank
                fail("sent a line the PMI server failed on: \"" + line + "\" (" + e + ")");
            }
        }

        /** Queues replies, each a {@link Pmi1Message} or a {@link Pmi2Message}, as one buffer, and flushes. */
        void send(Object... replies) {
            if (closed) {
                return;
            }
            int length = 0;
            byte[][] encoded = new byte[replies.length][];
            for (int i = 0; i < replies.length; i++) {
                encoded[i] = replies[i] instanceof Pmi2Message m2 ? m2.encode() : ((Pmi1Message) replies[i]).encode();
                length += encoded[i].length;
            }
            ByteBuffer buffer = ByteBuffer.allocate(length);
            for (byte[] e : encoded) {
                buffer.put(e);
            }
            out.add(buffer.flip());
            flush();
        }

        void flush() {
            try {
                while (!out.isEmpty()) {
                    ByteBuffer head = out.peek();
                    channel.write(head);
                    if (head.hasRemaining()) {
                        key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                        return;
                    }
                    out.poll();
                }
                key.interestOps(SelectionKey.OP_READ);
            } catch (IOException e) {
                lost();
            }
        }

        /** The peer closed or reset the connection. */
        private void lost() {
            boolean early = rank >= 0 && !finalized && !aborted;
            close();
            if (early) {
                listener.rankDisconnected(rank);
            }
        }

        void fail(String problem) {
            close();
            listener.protocolError(rank, problem);
        }

        private void close() {
            if (closed) {
                return;
            }
            closed = true;
            if (inBarrier) {
                barrierWaiters.remove(this);
                inBarrier = false;
            }
            nodeAttributeWaiters.values().forEach(waiters -> waiters.removeIf(w -> w.connection() == this));
            key.cancel();
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // closing on the way out: nothing left to tell
        }
    }
}

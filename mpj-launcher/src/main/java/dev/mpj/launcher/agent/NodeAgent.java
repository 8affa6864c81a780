package dev.mpj.launcher.agent;

import dev.mpj.launcher.pmi.PmiServer;
import dev.mpj.launcher.pmi.PmiUpstream;
import dev.mpj.runtime.pmi.wire.ProcessMapping;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The PMI side of one node agent (decision 0036): a {@link PmiServer} for the ranks of its node, a link to its
 * parent agent (none at the root, which is mpjrun), and links from its children, which connect to it and must
 * show the job's secret and their node first. Each collective (fence, allgather, ring) completes here once the
 * node's ranks and every child have sent their parts, so ranks may enter one before a child has even connected (an
 * agent starts its ranks without waiting for its children, decision 0054): a child agent sends the merged part up, the root computes
 * the result, and results flow back down, each agent passing them to its server (which writes the fence's KVS into
 * its node's shared table before it answers its ranks) and to its children. Events about ranks and agents go up
 * to the root's {@link Events}. A child link that breaks is an agent failure; a parent link that breaks ends the
 * agent ({@link #onParentLost}). The children have the ranks' init timeout ({@code mpj.initTimeout}) to connect
 * once this agent has started, and each connection that long to show the secret: a child that is only slow, on a
 * machine so loaded that its JVM boots in tens of seconds, is still admitted, and one that never comes fails the
 * job in one line naming its node rather than through its node's ranks' timeouts.
 */
public final class NodeAgent implements PmiUpstream, AutoCloseable {
    /** What the root learns from the whole tree: its server's events, and those of ranks and agents below it. */
    public interface Events extends PmiServer.Listener {
        /** An agent started {@code rank} as process {@code pid}. */
        void rankStarted(int rank, long pid);

        /** A rank started by an agent exited with {@code status}. */
        void rankExited(int rank, int status);

        /** The agent of {@code node} failed, or could not start what it should: the job cannot go on. */
        void agentFailed(int node, String problem);
    }

    private final ProcessMapping mapping;
    private final String kvsName;
    private final String secret;
    private final int node;
    /** How long the children have to connect from {@link #start}, and a connection to show the secret. */
    private final Duration childTimeout;
    private final Events events;
    private final TreeLink parent;
    private final byte[] spec;
    private final List<Integer> childNodes;
    private final Map<Integer, TreeLink> children = new ConcurrentHashMap<>();
    private final ChildrenDue childrenDue;
    private final List<Thread> threads = new ArrayList<>();
    private ServerSocket acceptor;
    private Thread childrenWatch;
    private PmiServer server;
    private volatile Runnable onParentLost = () -> { };
    private volatile boolean closing;

    /** Parts of the collective under way, from this node's ranks and from children; guarded by {@code this}. */
    private final Map<String, String> fence = new HashMap<>();
    private int fenceParts;
    private final SortedMap<Integer, String> allgather = new TreeMap<>();
    private int allgatherParts;
    private final SortedMap<Integer, RingPart> ring = new TreeMap<>();
    private int ringParts;
    /** At the root: the first rank that finalized, or -1. */
    private int firstFinalized = -1;
    /** The ranks of each child's subtree, as its ring part named them: only their answers go back down to it. */
    private final Map<Integer, Set<Integer>> ringRanksOfChild = new ConcurrentHashMap<>();

    private NodeAgent(ProcessMapping mapping, String kvsName, String secret, int node, int width,
                      Duration childTimeout, Events events, TreeLink parent, byte[] spec) {
        this.mapping = mapping;
        this.kvsName = kvsName;
        this.secret = secret;
        this.node = node;
        this.childTimeout = childTimeout;
        this.events = events;
        this.parent = parent;
        this.spec = spec.clone();
        this.childNodes = TreeShape.children(node, mapping.nodes(), width);
        this.childrenDue = new ChildrenDue(childNodes);
    }

    /**
     * The root, node 0: {@code events} learns everything; {@code spec} goes to each child that connects;
     * {@code initTimeout} (the ranks' {@code mpj.initTimeout}) bounds the children's coming.
     */
    public static NodeAgent root(ProcessMapping mapping, String kvsName, String secret, int width,
                                 Duration initTimeout, Events events, byte[] spec) {
        return new NodeAgent(mapping, kvsName, secret, 0, width, initTimeout, events, null, spec);
    }

    /** The agent of {@code node}, below {@code parent}, to which its events go. */
    public static NodeAgent below(TreeLink parent, ProcessMapping mapping, String kvsName, String secret, int node,
                                  int width, Duration initTimeout, byte[] spec) {
        return new NodeAgent(mapping, kvsName, secret, node, width, initTimeout, TreeEvent.upTo(parent), parent,
                spec);
    }

    /**
     * Connects to the parent agent at {@code port} on loopback, shows the secret and {@code node}, and returns the
     * link with the job's spec, which the parent sends back.
     */
    public static Connected connect(int port, String secret, int node) throws IOException {
        TreeLink link = new TreeLink(new Socket(InetAddress.getLoopbackAddress(), port));
        try {
            link.send(new TreeLink.Hello(secret, node));
            if (!(link.read() instanceof TreeLink.Spec s)) {
                throw new IOException("the parent agent sent no job");
            }
            return new Connected(link, s.bytes());
        } catch (IOException | RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /** A link to the parent, and the job's spec it sent. */
    public record Connected(TreeLink link, byte[] spec) {
    }

    /** What to do when the parent link breaks or closes: stop the node's ranks and end. */
    public void onParentLost(Runnable action) {
        onParentLost = action;
    }

    /**
     * Opens the children's port, starts the PMI server, and reads the parent link; from now on the children have
     * the init timeout to connect.
     */
    public void start() throws IOException {
        if (!childNodes.isEmpty()) {
            acceptor = new ServerSocket(0, Math.max(50, childNodes.size()), InetAddress.getLoopbackAddress());
            daemon("mpj-agent-accept", this::acceptChildren);
            childrenWatch = daemon("mpj-agent-children-due", this::awaitChildren);
        }
        String hex = kvsName.substring(kvsName.lastIndexOf('_') + 1);
        server = new PmiServer(mapping, kvsName, secret, childTimeout, parent == null ? new RootWatch() : events, node,
                this,
                "mpj_" + ProcessHandle.current().pid() + "_" + hex + "n" + node);
        server.start();
        if (parent != null) {
            daemon("mpj-agent-parent", this::readParent);
        }
    }

    /** The value of {@code PMI_PORT} for this node's ranks. */
    public String pmiPort() throws IOException {
        return server.portVariable();
    }

    /** The port the children connect to (0 without children). */
    public int childrenPort() {
        return acceptor == null ? 0 : acceptor.getLocalPort();
    }

    public int node() {
        return node;
    }

    /** The nodes whose agents this one starts. */
    public List<Integer> childNodes() {
        return childNodes;
    }

    /** Where this agent's own events go: up the tree, or the root's {@link Events}. */
    public Events events() {
        return events;
    }

    /** How many children have connected (and shown the secret). */
    public int connectedChildren() {
        return children.size();
    }

    private Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return t;
    }

    /** Fails the job, naming every child missing, if not all have connected within the init timeout. */
    private void awaitChildren() {
        List<Integer> missing;
        try {
            missing = childrenDue.await(childTimeout.toMillis());
        } catch (InterruptedException e) {
            return;
        }
        if (!closing && !missing.isEmpty()) {
            events.agentFailed(missing.get(0), lostChildren(missing));
        }
    }

    /** One line: which children's agents did not connect to this one in time, and the setting that bounds it. */
    private String lostChildren(List<Integer> missing) {
        String nodes = missing.stream().map(String::valueOf).collect(Collectors.joining(", "));
        return (missing.size() == 1 ? "the agent of node " + nodes : "the agents of nodes " + nodes)
                + " did not connect to the agent of node " + node + " within " + childTimeout.toSeconds()
                + " s (mpj.initTimeout)";
    }

    private void acceptChildren() {
        while (!closing) {
            Socket s;
            try {
                s = acceptor.accept();
            } catch (IOException e) {
                if (!closing) {
                    events.agentFailed(node, "cannot accept its children's connections: " + e.getMessage());
                }
                return;
            }
            // on a thread of its own: a stranger that sends nothing must not hold up the children behind it
            Thread t = new Thread(() -> admit(s), "mpj-agent-admit");
            t.setDaemon(true);
            t.start();
        }
    }

    /** A child must show the secret and a node of its own that has not connected yet; strangers are closed. */
    private void admit(Socket s) {
        TreeLink link;
        try {
            link = new TreeLink(s);
        } catch (IOException e) {
            closeQuietly(s);
            return;
        }
        try {
            s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, childTimeout.toMillis()));
            TreeLink.Hello hello = link.readHello();
            s.setSoTimeout(0);
            boolean secretShown = hello.secret() != null && MessageDigest.isEqual(
                    hello.secret().getBytes(StandardCharsets.UTF_8), secret.getBytes(StandardCharsets.UTF_8));
            if (!secretShown) {
                throw new IOException("did not show the job's secret");
            }
            int child = hello.node();
            ChildrenDue.Admission admission = childrenDue.admit(child);
            if (admission != ChildrenDue.Admission.ADMITTED) {
                throw new IOException(admission == ChildrenDue.Admission.TOO_LATE
                        ? "node " + child + " came after the init timeout (mpj.initTimeout)"
                        : "claimed node " + child + ", which is not a free child");
            }
            // in the map before the spec goes: no collective completes without this child's part, so none of its
            // results can pass it by
            children.put(child, link);
            link.send(new TreeLink.Spec(spec));
            daemon("mpj-agent-child-" + child, () -> readChild(child, link));
        } catch (IOException | RuntimeException e) {
            events.connectionsRejected("the agent of node " + node + " rejected a connection from "
                    + s.getRemoteSocketAddress() + ": " + e.getMessage()); // before the peer can see the close
            link.close();
        }
    }

    private void readChild(int child, TreeLink link) {
        try {
            while (true) {
                TreeLink.Message m = link.read();
                if (m instanceof TreeLink.Fence f && !f.done()) {
                    fencePart(f.entries());
                } else if (m instanceof TreeLink.Allgather a) {
                    allgatherPart(a.values());
                } else if (m instanceof TreeLink.Ring r) {
                    ringRanksOfChild.put(child, Set.copyOf(r.parts().keySet()));
                    ringPart(r.parts());
                } else if (m instanceof TreeLink.Event e) {
                    if (parent == null && e.kind() == TreeEvent.Kind.FINALIZED) {
                        finalized(e.subject());
                    }
                    TreeEvent.deliver(e, events);
                } else {
                    throw new IOException("sent its parent a " + m.getClass().getSimpleName());
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                events.agentFailed(child, TreeLink.isEnd(e instanceof IOException io ? io : null)
                        ? "the agent of node " + child + " ended before the job"
                        : "the link to the agent of node " + child + " broke: " + e.getMessage());
            }
        } finally {
            link.close();
        }
    }

    private void readParent() {
        try {
            while (true) {
                TreeLink.Message m = parent.read();
                if (m instanceof TreeLink.Fence f && f.done()) {
                    fenceDone(f.entries());
                } else if (m instanceof TreeLink.AllgatherDone a) {
                    allgatherDone(a.values());
                } else if (m instanceof TreeLink.RingDone r) {
                    ringDone(r.answers());
                } else {
                    throw new IOException("the parent sent a " + m.getClass().getSimpleName());
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                onParentLost.run();
            }
        }
    }

    @Override
    public void fenceEntered(Map<String, String> staged) {
        fencePart(staged);
    }

    @Override
    public void allgatherEntered(SortedMap<Integer, String> values) {
        allgatherPart(values);
    }

    @Override
    public void ringEntered(SortedMap<Integer, RingPart> parts) {
        ringPart(parts);
    }

    private int parts() {
        return 1 + childNodes.size();
    }

    /**
     * At the root: a rank finalized. A collective with parts pending, or one whose parts come later, can then never
     * complete (the rank cannot enter it any more), as the flat server finds when a rank finalizes while others wait
     * in its barrier: the job fails naming the rank rather than hang.
     */
    private void finalized(int rank) {
        boolean pending;
        synchronized (this) {
            if (firstFinalized < 0) {
                firstFinalized = rank;
            }
            pending = fenceParts + allgatherParts + ringParts > 0;
        }
        if (pending) {
            neverCompletes();
        }
    }

    /** At the root, under the lock: whether a part that arrives now belongs to a collective that cannot complete. */
    private boolean afterFinalize() {
        return parent == null && firstFinalized >= 0;
    }

    private void neverCompletes() {
        events.protocolError(firstFinalized, "finalized while other ranks wait in a PMI fence, allgather or ring that"
                + " can now never complete");
    }

    private void fencePart(Map<String, String> entries) {
        Map<String, String> all;
        synchronized (this) {
            fence.putAll(entries);
            if (afterFinalize()) {
                neverCompletes();
                return;
            }
            if (++fenceParts < parts()) {
                return;
            }
            all = new HashMap<>(fence);
            fence.clear();
            fenceParts = 0;
        }
        if (parent == null) {
            fenceDone(all);
        } else {
            up(new TreeLink.Fence(false, all));
        }
    }

    private void allgatherPart(SortedMap<Integer, String> values) {
        SortedMap<Integer, String> all;
        synchronized (this) {
            allgather.putAll(values);
            if (afterFinalize()) {
                neverCompletes();
                return;
            }
            if (++allgatherParts < parts()) {
                return;
            }
            all = new TreeMap<>(allgather);
            allgather.clear();
            allgatherParts = 0;
        }
        if (parent == null) {
            allgatherDone(new ArrayList<>(all.values()));
        } else {
            up(new TreeLink.Allgather(all));
        }
    }

    private void ringPart(SortedMap<Integer, RingPart> parts) {
        SortedMap<Integer, RingPart> all;
        synchronized (this) {
            ring.putAll(parts);
            if (afterFinalize()) {
                neverCompletes();
                return;
            }
            if (++ringParts < parts()) {
                return;
            }
            all = new TreeMap<>(ring);
            ring.clear();
            ringParts = 0;
        }
        if (parent == null) {
            List<RingAnswer> answers = PmiServer.ringAnswers(new ArrayList<>(all.values()));
            Map<Integer, RingAnswer> byRank = new HashMap<>();
            int i = 0;
            for (int rank : all.keySet()) {
                byRank.put(rank, answers.get(i++));
            }
            ringDone(byRank);
        } else {
            up(new TreeLink.Ring(all));
        }
    }

    private void fenceDone(Map<String, String> all) {
        down(new TreeLink.Fence(true, all));
        server.completeFence(all);
    }

    private void allgatherDone(List<String> values) {
        down(new TreeLink.AllgatherDone(values));
        server.completeAllgather(values);
    }

    /** Each child gets its subtree's answers only, so a ring costs each link its own ranks, not the job's. */
    private void ringDone(Map<Integer, RingAnswer> answers) {
        for (Map.Entry<Integer, TreeLink> child : children.entrySet()) {
            Map<Integer, RingAnswer> theirs = new HashMap<>();
            for (int rank : ringRanksOfChild.getOrDefault(child.getKey(), Set.of())) {
                theirs.put(rank, answers.get(rank));
            }
            try {
                child.getValue().send(new TreeLink.RingDone(theirs));
            } catch (IOException e) {
                child.getValue().close();
            }
        }
        server.completeRing(answers);
    }

    private void up(TreeLink.Message m) {
        try {
            parent.send(m);
        } catch (IOException e) {
            // the parent is gone: its reader ends this agent
        }
    }

    /** Sends {@code m} to every child; a child that cannot take it fails on its reader. */
    private void down(TreeLink.Message m) {
        for (TreeLink child : children.values()) {
            try {
                child.send(m);
            } catch (IOException e) {
                child.close();
            }
        }
    }

    /** The root's own server's events, passed on, its finalizes watched as those that come up the tree. */
    private final class RootWatch implements PmiServer.Listener {
        @Override
        public void rankConnected(int rank) {
            events.rankConnected(rank);
        }

        @Override
        public void rankFinalized(int rank) {
            finalized(rank);
            events.rankFinalized(rank);
        }

        @Override
        public void rankAborted(int rank, int exitCode) {
            events.rankAborted(rank, exitCode);
        }

        @Override
        public void rankDisconnected(int rank) {
            events.rankDisconnected(rank);
        }

        @Override
        public void protocolError(int rank, String problem) {
            events.protocolError(rank, problem);
        }

        @Override
        public void connectionsRejected(String report) {
            events.connectionsRejected(report);
        }

        @Override
        public void serverFailed(Exception cause) {
            events.serverFailed(cause);
        }
    }

    /** Closes the links and the server: the children see their parent gone. */
    @Override
    public void close() {
        closing = true;
        if (childrenWatch != null) {
            childrenWatch.interrupt();
        }
        closeQuietly(acceptor);
        children.values().forEach(TreeLink::close);
        if (parent != null) {
            parent.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // closing on the way out
            }
        }
    }
}

package dev.mpj.launcher;

import dev.mpj.launcher.agent.NodeAgent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A node agent's JVM (decision 0036): it connects to its parent agent, shows the job's secret and its node, and
 * receives the job ({@link AgentJob}); then it starts its children's agents and, without waiting for them, its
 * node's ranks, each under a {@link RankSupervisor}, and serves their PMI
 * ({@link NodeAgent}). Its ranks' output goes to its own stdout and
 * stderr, prefixed with the rank under {@code -l}. Their starts and exits go up the tree. It ends when its parent
 * link closes (the job is over, or the parent died) or on SIGTERM: it stops its ranks (SIGTERM, then SIGKILL) and
 * its children's agents, and exits. One JVM may run several agents (decision 0068): those of the nodes it is given,
 * and with {@code mpj.agentJvms=shared} their children's agents too, each on threads of its own with its own PMI
 * server, shared table and tree links, as if in a JVM of its own; an agent that fails ends them all.
 */
public final class NodeAgentMain {
    private static final long KILL_GRACE_MILLIS = 1000;
    /** How long the JVM waits, once its own agents are done, for the agents they ran in it to end. */
    private static final long HOSTED_END_MILLIS = 10_000;

    private final Host host;
    private final List<Process> rankProcesses = new ArrayList<>();
    private final List<Process> children = new ArrayList<>();
    private final List<Thread> forwarders = new ArrayList<>();
    private volatile boolean stopping;

    private NodeAgentMain(Host host) {
        this.host = host;
    }

    public static void main(String[] args) {
        List<Integer> nodes = Arrays.stream(System.getenv(AgentProcesses.NODES).split(",")).map(Integer::valueOf)
                .toList();
        int port = Integer.parseInt(System.getenv(AgentProcesses.PARENT_PORT));
        Host host = new Host(System.getenv(AgentProcesses.SECRET),
                Boolean.parseBoolean(System.getenv(AgentProcesses.SHARED)));
        Thread hook = new Thread(host::stopAll, "mpj-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        nodes.forEach(node -> host.start(node, port));
        host.awaitAll(nodes.size());
        System.out.flush();
        System.err.flush();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
        System.exit(0);
    }

    /** The agents one JVM runs, each on a thread of its own. */
    private static final class Host {
        private final String secret;
        private final boolean shared;
        private final List<NodeAgentMain> agents = new CopyOnWriteArrayList<>();
        private final List<Thread> threads = new CopyOnWriteArrayList<>();

        Host(String secret, boolean shared) {
            this.secret = secret;
            this.shared = shared;
        }

        /** Runs the agent of {@code node}, whose parent listens at {@code port}; its failure ends the JVM. */
        void start(int node, int port) {
            NodeAgentMain agent = new NodeAgentMain(this);
            agents.add(agent);
            Thread t = new Thread(() -> {
                try {
                    agent.run(node, port, secret);
                } catch (IOException | RuntimeException e) {
                    System.err.println("mpj-agent: node " + node + ": " + e);
                    stopAll();
                    System.exit(1);
                }
            }, "mpj-agent-node-" + node);
            threads.add(t);
            t.start();
        }

        /** Waits for the first {@code given} agents (those the JVM was given), then a while for those they ran. */
        void awaitAll(int given) {
            long deadline = Long.MAX_VALUE;
            for (int i = 0; i < threads.size(); i++) {
                if (i == given) {
                    deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HOSTED_END_MILLIS);
                }
                try {
                    threads.get(i).join(i < given ? 0
                            : Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        void stopAll() {
            agents.forEach(NodeAgentMain::stop);
        }
    }

    private void run(int node, int port, String secret) throws IOException {
        NodeAgent.Connected connected = NodeAgent.connect(port, secret, node);
        AgentJob job = AgentJob.decode(connected.spec());
        NodeAgent agent = NodeAgent.below(connected.link(), job.mapping(), job.kvsName(), secret, node,
                job.treeWidth(), job.initTimeout(), connected.spec());
        CountDownLatch parentLost = new CountDownLatch(1);
        agent.onParentLost(parentLost::countDown);
        agent.start();
        startChildren(agent, secret);
        startRanks(job, agent, secret);
        try {
            parentLost.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop();
        agent.close();
        for (Thread t : forwarders) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Starts the children's agents: in this JVM when it is shared, else a JVM each, side by side
     * ({@link ParallelStarts}), one that exits with a failure failing the job.
     */
    private void startChildren(NodeAgent agent, String secret) throws IOException {
        if (host.shared) {
            agent.childNodes().forEach(child -> host.start(child, agent.childrenPort()));
            return;
        }
        AgentProcesses.startChildren(agent.childNodes(), false, agent.childrenPort(), secret,
                ProcessBuilder::inheritIO, "mpj-agent-spawn-", (nodes, p) -> {
                    synchronized (children) {
                        children.add(p);
                    }
                }, (nodes, p) -> {
                    if (!stopping && p.exitValue() != 0) {
                        agent.events().agentFailed(nodes.get(0), AgentProcesses.exitedLine(nodes, p));
                    }
                });
    }

    /**
     * Starts this node's ranks side by side ({@link ParallelStarts}), as soon as its PMI server listens: their JVMs
     * boot while the children's agents boot, and their first fence is answered only once the whole tree's parts
     * have come up and the result down (decision 0054).
     */
    private void startRanks(AgentJob job, NodeAgent agent, String secret) throws IOException {
        RankCommand command = RankCommand.of(job, agent.pmiPort(), secret);
        int[] local = IntStream.range(0, job.size()).filter(r -> job.mapping().nodeOf(r) == agent.node()).toArray();
        Process[] started = new Process[local.length];
        IOException failure = ParallelStarts.start(i -> {
            ProcessBuilder pb = command.processBuilder(local[i]);
            pb.command(RankSupervisor.wrap(pb.command()));
            if (!job.prefixOutput()) {
                pb.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
            }
            return pb;
        }, i -> "rank " + local[i], started, "mpj-agent-rank-spawn-");
        for (int i = 0; i < started.length; i++) {
            Process p = started[i];
            if (p == null) {
                continue;
            }
            int rank = local[i];
            synchronized (rankProcesses) {
                rankProcesses.add(p);
            }
            p.getOutputStream().close();
            if (job.prefixOutput()) {
                String prefix = "[" + rank + "] ";
                forwarders.add(OutputForwarder.start(p.getInputStream(), System.out, prefix, "mpj-agent-out-" + rank));
                forwarders.add(OutputForwarder.start(p.getErrorStream(), System.err, prefix, "mpj-agent-err-" + rank));
            }
            agent.events().rankStarted(rank, p.pid());
            p.onExit().thenAccept(x -> agent.events().rankExited(rank, x.exitValue()));
        }
        if (failure != null) {
            agent.events().agentFailed(agent.node(), "the agent of node " + agent.node() + " " + failure.getMessage());
        }
    }

    /** Stops the ranks, then the children's agents: SIGTERM, then SIGKILL for what is alive after a second. */
    private void stop() {
        stopping = true;
        List<Process> all = new ArrayList<>();
        synchronized (rankProcesses) {
            all.addAll(rankProcesses);
        }
        synchronized (children) {
            all.addAll(children);
        }
        AgentProcesses.stop(all.stream().filter(Process::isAlive).toList(), KILL_GRACE_MILLIS);
    }
}

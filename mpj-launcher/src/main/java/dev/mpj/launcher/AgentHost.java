package dev.mpj.launcher;

import dev.mpj.launcher.agent.NodeAgent;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The node agents one process runs (decision 0036), each on a thread of its own with its own PMI server, shared
 * table and tree links, as if in a process of its own: an agent connects to its parent agent, shows the job's
 * secret and its node, and receives the job ({@link AgentJob}); then it starts its children's agents and, without
 * waiting for them, its node's ranks, each under a {@link RankSupervisor}, and serves their PMI ({@link NodeAgent}).
 * Their starts and exits go up the tree. It ends when its parent link closes (the job is over, or the parent died):
 * it stops its ranks (SIGTERM, then SIGKILL) and its children's agents. The process is an agent JVM of its own
 * ({@link NodeAgentMain}, decision 0068) or mpjrun itself ({@code mpj.agentJvms=launcher}, decision 0077); with
 * {@code shared} the agents' children's agents run here too, else each in a JVM of its own.
 */
final class AgentHost {
    private static final long KILL_GRACE_MILLIS = 1000;

    /** What the process does when an agent cannot go on (the job cannot either); every agent's ranks stop after. */
    @FunctionalInterface
    interface Failure {
        void agentFailed(int node, Exception cause);
    }

    private final String secret;
    private final boolean shared;
    private final RankOutput output;
    private final Failure failure;
    private final List<Agent> agents = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /**
     * Where a node's ranks write: {@code inherit}, straight to this process's stdout and stderr unless their lines
     * carry the rank, else copied line by line to {@code out} and {@code err}.
     */
    record RankOutput(PrintStream out, PrintStream err, boolean inherit) {
    }

    AgentHost(String secret, boolean shared, RankOutput output, Failure failure) {
        this.secret = secret;
        this.shared = shared;
        this.output = output;
        this.failure = failure;
    }

    /** Runs the agent of {@code node}, whose parent takes children on loopback {@code port}. */
    void start(int node, int port) {
        Agent agent = new Agent();
        agents.add(agent);
        Thread t = new Thread(() -> {
            try {
                agent.run(node, port);
            } catch (IOException | RuntimeException e) {
                failure.agentFailed(node, e); // first, so that the job names the agent rather than a rank it stops
                stopAll();
            }
        }, "mpj-agent-node-" + node);
        threads.add(t);
        t.start();
    }

    /** Waits for the first {@code given} agents (those started from outside), then {@code hostedMillis} for the rest. */
    void awaitAll(int given, long hostedMillis) {
        long deadline = Long.MAX_VALUE;
        for (int i = 0; i < threads.size(); i++) {
            if (i == given) {
                deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(hostedMillis);
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

    /** Stops every agent's ranks and children's agents, each agent after the other's. */
    void stopAll() {
        agents.forEach(Agent::stop);
    }

    /** The ranks and child agents' JVMs that every agent here started and that are still alive. */
    List<Process> liveProcesses() {
        List<Process> all = new ArrayList<>();
        agents.forEach(a -> all.addAll(a.processes()));
        return all.stream().filter(Process::isAlive).toList();
    }

    /** The forwarders of the ranks' output, to be awaited once the ranks are gone. */
    List<Thread> forwarders() {
        List<Thread> all = new ArrayList<>();
        agents.forEach(a -> all.addAll(a.forwarders));
        return all;
    }

    /** One node's agent. */
    private final class Agent {
        private final List<Process> rankProcesses = new ArrayList<>();
        private final List<Process> children = new ArrayList<>();
        private final List<Thread> forwarders = new CopyOnWriteArrayList<>();
        private volatile boolean stopping;

        private void run(int node, int port) throws IOException {
            NodeAgent.Connected connected = NodeAgent.connect(port, secret, node);
            AgentJob job = AgentJob.decode(connected.spec());
            NodeAgent agent = NodeAgent.below(connected.link(), job.mapping(), job.kvsName(), secret, node,
                    job.treeWidth(), job.initTimeout(), connected.spec());
            CountDownLatch parentLost = new CountDownLatch(1);
            agent.onParentLost(parentLost::countDown);
            try {
                agent.start();
                startChildren(agent);
                startRanks(job, agent);
                parentLost.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stop();
                agent.close();
            }
            for (Thread t : forwarders) {
                try {
                    t.join(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /**
         * Starts the children's agents: in this process when it is shared, else a JVM each, side by side
         * ({@link ParallelStarts}), one that exits with a failure failing the job.
         */
        private void startChildren(NodeAgent agent) throws IOException {
            if (shared) {
                agent.childNodes().forEach(child -> start(child, agent.childrenPort()));
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
         * Starts this node's ranks side by side ({@link ParallelStarts}), as soon as its PMI server listens: their
         * JVMs boot while the children's agents boot, and their first fence is answered only once the whole tree's
         * parts have come up and the result down (decision 0054).
         */
        private void startRanks(AgentJob job, NodeAgent agent) throws IOException {
            RankCommand command = RankCommand.of(job, agent.pmiPort(), secret);
            int[] local = IntStream.range(0, job.size()).filter(r -> job.mapping().nodeOf(r) == agent.node())
                    .toArray();
            boolean inherit = output.inherit() && !job.prefixOutput();
            Process[] started = new Process[local.length];
            IOException failure = ParallelStarts.start(i -> {
                ProcessBuilder pb = command.processBuilder(local[i]);
                pb.command(RankSupervisor.wrap(pb.command()));
                if (inherit) {
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
                if (!inherit) {
                    String prefix = job.prefixOutput() ? "[" + rank + "] " : "";
                    forwarders.add(OutputForwarder.start(p.getInputStream(), output.out(), prefix,
                            "mpj-agent-out-" + rank));
                    forwarders.add(OutputForwarder.start(p.getErrorStream(), output.err(), prefix,
                            "mpj-agent-err-" + rank));
                }
                agent.events().rankStarted(rank, p.pid());
                p.onExit().thenAccept(x -> agent.events().rankExited(rank, x.exitValue()));
            }
            if (failure != null) {
                agent.events().agentFailed(agent.node(), "the agent of node " + agent.node() + " "
                        + failure.getMessage());
            }
        }

        private List<Process> processes() {
            List<Process> all = new ArrayList<>();
            synchronized (rankProcesses) {
                all.addAll(rankProcesses);
            }
            synchronized (children) {
                all.addAll(children);
            }
            return all;
        }

        /** Stops the ranks, then the children's agents: SIGTERM, then SIGKILL for what is alive after a second. */
        private void stop() {
            stopping = true;
            AgentProcesses.stop(processes().stream().filter(Process::isAlive).toList(), KILL_GRACE_MILLIS);
        }
    }
}

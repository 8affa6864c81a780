package dev.mpj.launcher;

import dev.mpj.launcher.agent.NodeAgent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

/**
 * A node agent's JVM (decision 0036): it connects to its parent agent, shows the job's secret and its node, and
 * receives the job ({@link AgentJob}); then it starts its children's agents and, without waiting for them, its
 * node's ranks, each under a {@link RankSupervisor}, and serves their PMI
 * ({@link NodeAgent}). Its ranks' output goes to its own stdout and
 * stderr, prefixed with the rank under {@code -l}. Their starts and exits go up the tree. It ends when its parent
 * link closes (the job is over, or the parent died) or on SIGTERM: it stops its ranks (SIGTERM, then SIGKILL) and
 * its children's agents, and exits.
 */
public final class NodeAgentMain {
    private static final long KILL_GRACE_MILLIS = 1000;

    private final List<Process> rankProcesses = new ArrayList<>();
    private final List<Process> children = new ArrayList<>();
    private final List<Thread> forwarders = new ArrayList<>();
    private volatile boolean stopping;

    private NodeAgentMain() {
    }

    public static void main(String[] args) {
        int node = Integer.parseInt(System.getenv(AgentProcesses.NODE));
        int port = Integer.parseInt(System.getenv(AgentProcesses.PARENT_PORT));
        String secret = System.getenv(AgentProcesses.SECRET);
        NodeAgentMain main = new NodeAgentMain();
        try {
            main.run(node, port, secret);
        } catch (IOException | RuntimeException e) {
            System.err.println("mpj-agent: node " + node + ": " + e);
            main.stop();
            System.exit(1);
        }
        System.exit(0);
    }

    private void run(int node, int port, String secret) throws IOException {
        NodeAgent.Connected connected = NodeAgent.connect(port, secret, node);
        AgentJob job = AgentJob.decode(connected.spec());
        NodeAgent agent = NodeAgent.below(connected.link(), job.mapping(), job.kvsName(), secret, node,
                job.treeWidth(), job.initTimeout(), connected.spec());
        CountDownLatch parentLost = new CountDownLatch(1);
        agent.onParentLost(parentLost::countDown);
        Thread hook = new Thread(this::stop, "mpj-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
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
        System.out.flush();
        System.err.flush();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
    }

    /** Starts the children's agents side by side ({@link ParallelStarts}); one that exits with a failure fails the job. */
    private void startChildren(NodeAgent agent, String secret) throws IOException {
        AgentProcesses.startChildren(agent.childNodes(), agent.childrenPort(), secret, ProcessBuilder::inheritIO,
                "mpj-agent-spawn-", (node, p) -> {
                    synchronized (children) {
                        children.add(p);
                    }
                }, (node, p) -> {
                    if (!stopping && p.exitValue() != 0) {
                        agent.events().agentFailed(node, AgentProcesses.exitedLine(node, p));
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

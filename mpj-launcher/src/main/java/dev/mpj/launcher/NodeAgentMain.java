package dev.mpj.launcher;

import dev.mpj.launcher.agent.NodeAgent;
import dev.mpj.runtime.config.Settings;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A node agent's JVM (decision 0036): it connects to its parent agent, shows the job's secret and its node, and
 * receives the job ({@link AgentJob}); then it starts its children's agents and, once they have connected (at most
 * the ranks' init timeout), its node's ranks, each under a {@link RankSupervisor}, and serves their PMI
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
                job.treeWidth(), connected.spec());
        CountDownLatch parentLost = new CountDownLatch(1);
        agent.onParentLost(parentLost::countDown);
        Thread hook = new Thread(this::stop, "mpj-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        agent.start();
        for (int child : agent.childNodes()) {
            Process p = AgentProcesses.builder(child, agent.childrenPort(), secret).inheritIO().start();
            synchronized (children) {
                children.add(p);
            }
            p.onExit().thenAccept(x -> {
                agent.stopWaitingForChildren();
                if (!stopping && x.exitValue() != 0) {
                    agent.events().agentFailed(child, "the agent of node " + child + " exited with status "
                            + x.exitValue());
                }
            });
        }
        awaitChildren(job, agent);
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

    /**
     * Waits for this agent's children to connect before it starts its own ranks, at most the ranks' init timeout,
     * as mpjrun does for the root (its {@code awaitChildAgents}).
     */
    private static void awaitChildren(AgentJob job, NodeAgent agent) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.putAll(job.environment());
        try {
            agent.awaitChildren(Settings.from(environment, new Properties()).initTimeoutSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalArgumentException e) {
            // a setting the ranks will refuse themselves: start them and let them say so
        }
    }

    private void startRanks(AgentJob job, NodeAgent agent, String secret) throws IOException {
        RankCommand command = RankCommand.of(job, agent.pmiPort(), secret);
        for (int rank = 0; rank < job.size(); rank++) {
            if (job.mapping().nodeOf(rank) != agent.node()) {
                continue;
            }
            ProcessBuilder pb = command.processBuilder(rank);
            pb.command(RankSupervisor.wrap(pb.command()));
            if (!job.prefixOutput()) {
                pb.redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT);
            }
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                agent.events().agentFailed(agent.node(), "the agent of node " + agent.node() + " cannot start rank "
                        + rank + ": " + e.getMessage());
                return;
            }
            synchronized (rankProcesses) {
                rankProcesses.add(p);
            }
            p.getOutputStream().close();
            if (job.prefixOutput()) {
                String prefix = "[" + rank + "] ";
                forwarders.add(OutputForwarder.start(p.getInputStream(), System.out, prefix, "mpj-agent-out-" + rank));
                forwarders.add(OutputForwarder.start(p.getErrorStream(), System.err, prefix, "mpj-agent-err-" + rank));
            }
            int r = rank;
            agent.events().rankStarted(rank, p.pid());
            p.onExit().thenAccept(x -> agent.events().rankExited(r, x.exitValue()));
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

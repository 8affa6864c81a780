package dev.mpj.launcher;

import java.util.Arrays;
import java.util.List;

/**
 * A node agent's JVM (decision 0036): it runs the agents of the nodes it is given ({@link AgentHost}), and with
 * {@code mpj.agentJvms=shared} their children's agents too (decision 0068). Its ranks' output goes to its own
 * stdout and stderr, prefixed with the rank under {@code -l}. It ends when its agents' parent links close (the job
 * is over, or the parent died) or on SIGTERM: it stops its ranks (SIGTERM, then SIGKILL) and its children's agents,
 * and exits. An agent that fails ends them all, and the JVM with status 1.
 */
public final class NodeAgentMain {
    /** How long the JVM waits, once its own agents are done, for the agents they ran in it to end. */
    private static final long HOSTED_END_MILLIS = 10_000;

    private NodeAgentMain() {
    }

    public static void main(String[] args) {
        List<Integer> nodes = Arrays.stream(System.getenv(AgentProcesses.NODES).split(",")).map(Integer::valueOf)
                .toList();
        int port = Integer.parseInt(System.getenv(AgentProcesses.PARENT_PORT));
        AgentHost host = new AgentHost(System.getenv(AgentProcesses.SECRET),
                Boolean.parseBoolean(System.getenv(AgentProcesses.SHARED)),
                new AgentHost.RankOutput(System.out, System.err, true), (node, e) -> {
                    System.err.println("mpj-agent: node " + node + ": " + e);
                    System.exit(1); // the shutdown hook stops every agent's ranks
                });
        Thread hook = new Thread(host::stopAll, "mpj-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        nodes.forEach(node -> host.start(node, port));
        host.awaitAll(nodes.size(), HOSTED_END_MILLIS);
        System.out.flush();
        System.err.flush();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down already
        }
        System.exit(0);
    }
}

package dev.mpj.launcher;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The JVMs of node agents ({@link NodeAgentMain}): small and quick to start, on the launcher's class path and
 * class-data archive, told where their parent listens and which node they are; the job's secret goes in their
 * environment, which only their user can read, never on a command line.
 */
final class AgentProcesses {
    static final String PARENT_PORT = "MPJ_AGENT_PARENT_PORT";
    /** The nodes whose agents the JVM runs, comma-separated. */
    static final String NODES = "MPJ_AGENT_NODES";
    /** Set (to {@code true}) when the JVM runs its agents' children's agents too ({@code mpj.agentJvms=shared}). */
    static final String SHARED = "MPJ_AGENT_SHARED";
    static final String SECRET = "MPJ_AGENT_SECRET";
    /** Names mpjrun's pid on every agent's command line, so that what a job started can be found. */
    static final String LAUNCHER_PROPERTY = "mpj.agent.launcher";

    /** An agent needs little heap and no optimising compiler: it relays short messages and waits. */
    private static final List<String> JVM_FLAGS = List.of("-Xmx64m", "-Xss512k", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Xshare:auto");

    private AgentProcesses() {
    }

    /**
     * A builder for the JVM of the agents of {@code nodes}, whose parent takes children on loopback
     * {@code parentPort}; {@code shared}: it runs their subtrees' agents too.
     */
    static ProcessBuilder builder(List<Integer> nodes, boolean shared, int parentPort, String secret) {
        List<String> command = new ArrayList<>();
        command.add(RankCommand.javaExecutable());
        command.addAll(JVM_FLAGS);
        command.addAll(JvmStartFlags.FLAGS);
        command.addAll(sharedArchiveFlags());
        command.add("-D" + LAUNCHER_PROPERTY + "="
                + System.getProperty(LAUNCHER_PROPERTY, Long.toString(ProcessHandle.current().pid())));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NodeAgentMain.class.getName());
        ProcessBuilder pb = new ProcessBuilder(command);
        Map<String, String> env = pb.environment();
        RankCommand.ENCLOSING_PMI_VARIABLES.forEach(env::remove);
        env.put(PARENT_PORT, Integer.toString(parentPort));
        env.put(NODES, nodes.stream().map(String::valueOf).collect(Collectors.joining(",")));
        if (shared) {
            env.put(SHARED, "true");
        }
        env.put(SECRET, secret);
        return pb;
    }

    /**
     * Starts the agents of {@code nodes}, each told to connect to its parent at {@code parentPort}, its standard
     * streams set by {@code io}: {@code shared}, in one JVM that runs their subtrees' agents too (decision 0068);
     * else one JVM each, side by side ({@link ParallelStarts}). Each JVM that started is handed to {@code started}
     * with the nodes it runs, then watched: {@code exited} learns when it ends. Throws the first failure to start
     * one, once those that did start have been handed on (the caller stops them with the job).
     */
    static void startChildren(List<Integer> nodes, boolean shared, int parentPort, String secret,
                              UnaryOperator<ProcessBuilder> io, String threadName, Started started,
                              BiConsumer<List<Integer>, Process> exited) throws IOException {
        List<List<Integer>> jvms = shared && !nodes.isEmpty() ? List.of(nodes)
                : nodes.stream().map(List::of).toList();
        Process[] processes = new Process[jvms.size()];
        IOException failure = ParallelStarts.start(i -> io.apply(builder(jvms.get(i), shared, parentPort, secret)),
                i -> agentsOf(jvms.get(i)), processes, threadName);
        for (int i = 0; i < processes.length; i++) {
            Process p = processes[i];
            if (p == null) {
                continue;
            }
            List<Integer> its = jvms.get(i);
            started.accept(its, p);
            p.onExit().thenAccept(x -> exited.accept(its, x));
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Takes in a child agent that has started: keeps it, attaches its streams. */
    @FunctionalInterface
    interface Started {
        void accept(List<Integer> nodes, Process agent) throws IOException;
    }

    /** "the agent of node 3", or "the agents of nodes 1, 2" for a shared JVM. */
    static String agentsOf(List<Integer> nodes) {
        String list = nodes.stream().map(String::valueOf).collect(Collectors.joining(", "));
        return nodes.size() == 1 ? "the agent of node " + list : "the agents of nodes " + list;
    }

    /** The one line that says a child agent's JVM ended: its nodes, pid and status. */
    static String exitedLine(List<Integer> nodes, Process agent) {
        return agentsOf(nodes) + " (pid " + agent.pid() + ") exited with status " + agent.exitValue();
    }

    /**
     * The class-data archive this JVM runs with ({@code -XX:SharedArchiveFile=…}, as the mpjrun script gives the
     * launcher), for the agents: they run the launcher's classes on its class path, so its archive serves them too.
     */
    static List<String> sharedArchiveFlags() {
        return ProcessHandle.current().info().arguments().stream().flatMap(Arrays::stream)
                .filter(a -> a.startsWith(ClassDataArchive.USE_FLAG)).limit(1).toList();
    }

    /** SIGTERM to each (an agent then stops its ranks and children), SIGKILL to whatever is alive after a while. */
    static void stop(List<Process> agents, long graceMillis) {
        agents.forEach(Process::destroy);
        Job.awaitExit(agents, graceMillis);
        agents.stream().filter(Process::isAlive).forEach(Process::destroyForcibly);
    }
}

package dev.mpj.launcher;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * The JVMs of node agents ({@link NodeAgentMain}): small and quick to start, on the launcher's class path and
 * class-data archive, told where their parent listens and which node they are; the job's secret goes in their
 * environment, which only their user can read, never on a command line.
 */
final class AgentProcesses {
    static final String PARENT_PORT = "MPJ_AGENT_PARENT_PORT";
    static final String NODE = "MPJ_AGENT_NODE";
    static final String SECRET = "MPJ_AGENT_SECRET";
    /** Names mpjrun's pid on every agent's command line, so that what a job started can be found. */
    static final String LAUNCHER_PROPERTY = "mpj.agent.launcher";

    /** An agent needs little heap and no optimising compiler: it relays short messages and waits. */
    private static final List<String> JVM_FLAGS = List.of("-Xmx64m", "-Xss512k", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC", "-Xshare:auto");

    private AgentProcesses() {
    }

    /** A builder for the agent of {@code node}, whose parent takes children on loopback {@code parentPort}. */
    static ProcessBuilder builder(int node, int parentPort, String secret) {
        List<String> command = new ArrayList<>();
        command.add(RankCommand.javaExecutable());
        command.addAll(JVM_FLAGS);
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
        env.put(NODE, Integer.toString(node));
        env.put(SECRET, secret);
        return pb;
    }

    /**
     * Starts the agents of {@code nodes} side by side ({@link ParallelStarts}), each told to connect to its parent
     * at {@code parentPort}, its standard streams set by {@code io}. Each agent that started is handed to
     * {@code started}, then watched: {@code exited} learns when it ends. Throws the first failure to start one, once
     * those that did start have been handed on (the caller stops them with the job).
     */
    static void startChildren(List<Integer> nodes, int parentPort, String secret, UnaryOperator<ProcessBuilder> io,
                              String threadName, Started started, BiConsumer<Integer, Process> exited)
            throws IOException {
        Process[] processes = new Process[nodes.size()];
        IOException failure = ParallelStarts.start(i -> io.apply(builder(nodes.get(i), parentPort, secret)),
                i -> "the agent of node " + nodes.get(i), processes, threadName);
        for (int i = 0; i < processes.length; i++) {
            Process p = processes[i];
            if (p == null) {
                continue;
            }
            int node = nodes.get(i);
            started.accept(node, p);
            p.onExit().thenAccept(x -> exited.accept(node, x));
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Takes in a child agent that has started: keeps it, attaches its streams. */
    @FunctionalInterface
    interface Started {
        void accept(int node, Process agent) throws IOException;
    }

    /** The one line that says a child agent ended: its node, pid and status. */
    static String exitedLine(int node, Process agent) {
        return "the agent of node " + node + " (pid " + agent.pid() + ") exited with status " + agent.exitValue();
    }

    /**
     * The class-data archive this JVM runs with ({@code -XX:SharedArchiveFile=…}, as the mpjrun script gives the
     * launcher), for the agents: they run the launcher's classes on its class path, so its archive serves them too.
     */
    static List<String> sharedArchiveFlags() {
        return ProcessHandle.current().info().arguments().stream().flatMap(Arrays::stream)
                .filter(a -> a.startsWith("-XX:SharedArchiveFile=")).limit(1).toList();
    }

    /** SIGTERM to each (an agent then stops its ranks and children), SIGKILL to whatever is alive after a while. */
    static void stop(List<Process> agents, long graceMillis) {
        agents.forEach(Process::destroy);
        Job.awaitExit(agents, graceMillis);
        agents.stream().filter(Process::isAlive).forEach(Process::destroyForcibly);
    }
}

package dev.mpj.launcher;

import dev.mpj.runtime.config.AgentJvms;
import dev.mpj.runtime.config.Settings;
import dev.mpj.launcher.agent.NodeAgent;
import dev.mpj.launcher.pmi.PmiServer;
import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.node.NodeSegmentFiles;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * One run of an MPI job: serves PMI, starts every rank, forwards their output, and decides how the job ends.
 *
 * <p>The job succeeds when every rank exits with status 0 after {@code finalize} (a non-MPI program, none of whose
 * ranks ever connects to PMI, succeeds when all exit 0). It fails at the first of: a rank exiting or closing its
 * PMI connection before {@code finalize}, a rank exiting before {@code MPI.Init} (whatever its status) while
 * another rank has connected, a rank calling abort, a rank breaking the PMI protocol, or the timeout. Connections
 * that are no rank's (they lack the job's secret, or break the protocol before identifying themselves) are
 * rejected by the PMI server and only logged, at a limited rate. A failure prints one line naming the rank to stderr and stops every other rank and its descendants:
 * SIGTERM, then SIGKILL for whatever is alive a second later. However the job ends (the launcher killed by a
 * signal included, short of SIGKILL), the node segment files of its ranks are removed. Every rank runs under a
 * {@link RankSupervisor}, so that even a SIGKILLed launcher takes its ranks and their children with it. All decisions are taken on the thread that
 * called {@link #run()}, from one queue of events, so the first failure wins and no lock is needed.
 *
 * <p>Exit codes: 0 on success; the code given to abort; the failing rank's exit status (128+signal when a
 * signal killed it, 1 when it exited 0 without finalizing); {@value #EXIT_TIMEOUT} on timeout;
 * {@value #EXIT_USAGE} when the program cannot be started as given; {@value #EXIT_LAUNCH_FAILED} when a
 * process could not be started or the process manager failed.
 */
public final class Job {
    public static final int EXIT_LAUNCH_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_TIMEOUT = 124;

    /** How long a rank's exit status is awaited after PMI saw it disconnect, so the message can quote it. */
    private static final long EXIT_STATUS_GRACE_MILLIS = 500;
    /** Between SIGTERM and SIGKILL, and again for SIGKILL to take effect. */
    private static final long KILL_GRACE_MILLIS = 1000;
    /** How long ranks inside MPI get to answer a request for their wait reports. */
    private static final long REPORT_WAIT_MILLIS = 5000;
    /** How long output forwarders may lag behind the exit of their rank. */
    private static final long OUTPUT_DRAIN_MILLIS = 2000;

    private final LaunchOptions options;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean inheritOutput;
    private final RankJvmFlags rankFlags;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    /** Written by the supervising thread while ranks start, read by the shutdown hook too. */
    private final List<RankProcess> ranks = new CopyOnWriteArrayList<>();
    /** With agents: the root of the tree (node 0, whose ranks this JVM starts), else null. */
    private NodeAgent rootAgent;
    private volatile boolean rootAgentClosing;
    /** With agents: the ranks agents start, by rank (null for the root's own), made before any agent starts. */
    private final RankProcess[] remoteRanks;
    /** The agents of the root's children, and the forwarders of their output. */
    private final List<Process> agents = new CopyOnWriteArrayList<>();
    /** With {@code mpj.agentJvms=launcher}: the agents below the root, on threads of this JVM; else null. */
    private volatile AgentHost agentHost;
    private final List<Thread> agentForwarders = new CopyOnWriteArrayList<>();
    /** Set by the shutdown hook: the ranks die because the launcher does, which is no news to report. */
    private volatile boolean shuttingDown;
    /** Names a file that keeps the traces of a failed job's ranks; relative to the working directory. */
    public static final String FAILURE_LOG_VARIABLE = "MPJ_FAILURE_LOG";

    /** Set by the first failure: whether the job failed, and the rank it blames (null when none). */
    private volatile boolean failed;
    private volatile RankProcess culprit;
    /** The KVS name served to the ranks, which is their job id; null until the server exists. */
    private volatile String kvsName;

    private Job(LaunchOptions options, PrintStream out, PrintStream err, boolean inheritOutput,
                RankJvmFlags rankFlags) {
        this.rankFlags = rankFlags;
        this.options = options;
        this.out = out;
        this.err = err;
        this.inheritOutput = inheritOutput;
        this.remoteRanks = new RankProcess[options.processes()];
    }

    /** Runs a job whose ranks' output is copied, line by line, to {@code out} and {@code err}; returns its exit code. */
    public static int run(LaunchOptions options, PrintStream out, PrintStream err) {
        return new Job(options, out, err, false, RankJvmFlags.NONE).run();
    }

    /**
     * Runs a job on the launcher's own console: without {@code -l} the ranks write straight to the launcher's
     * stdout (no copying), and rank 0 reads the launcher's stdin; stderr is always copied, for its traces.
     */
    public static int runOnConsole(LaunchOptions options) {
        return runOnConsole(options, RankJvmFlags.NONE);
    }

    /** As {@link #runOnConsole(LaunchOptions)}, with {@code rankFlags} added to each rank's JVM flags. */
    static int runOnConsole(LaunchOptions options, RankJvmFlags rankFlags) {
        Job job = new Job(options, System.out, System.err, !options.prefixOutput(), rankFlags);
        SignalHandler previous = answerReportSignal(job);
        try {
            return job.run();
        } finally {
            if (previous != null) {
                Signal.handle(new Signal(WaitReports.SIGNAL), previous);
            }
        }
    }

    /**
     * Makes {@value WaitReports#SIGNAL} to this process ask {@code job}'s ranks where they wait (SIGQUIT stays the
     * JVM's thread dump); returns the handler it replaces, or null where the signal cannot be handled.
     */
    private static SignalHandler answerReportSignal(Job job) {
        try {
            return Signal.handle(new Signal(WaitReports.SIGNAL), new RequestReports(job));
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return null;
        }
    }

    private int run() {
        String secret = PmiSecret.newSecret();
        kvsName = PmiServer.newKvsName();
        Settings settings;
        try {
            settings = rankSettings();
        } catch (IllegalArgumentException e) {
            err.println("mpjrun: " + e.getMessage());
            return EXIT_USAGE;
        }
        boolean withAgents = settings.agents() && options.mapping().nodes() > 1;
        PmiServer server = withAgents ? null
                : new PmiServer(options.mapping(), kvsName, secret, Duration.ofSeconds(settings.initTimeoutSeconds()),
                        new EventQueueListener());
        Thread stopOnShutdown = new Thread(new StopOnShutdown(), "mpjrun-shutdown");
        try {
            RankCommand command;
            String classPath = System.getProperty("java.class.path");
            try {
                String port;
                if (withAgents) {
                    RankCommand unserved = RankCommand.of(options, classPath, "", secret, rankFlags);
                    unserved.requireMainClass();
                    int width = settings.agentTreeWidth();
                    int initTimeout = settings.initTimeoutSeconds();
                    rootAgent = NodeAgent.root(options.mapping(), kvsName, secret, width,
                            Duration.ofSeconds(initTimeout), new EventQueueListener(),
                            unserved.agentJob(kvsName, width, initTimeout, options.prefixOutput()).encode());
                    rootAgent.start();
                    port = rootAgent.pmiPort();
                } else {
                    server.start();
                    port = server.portVariable();
                }
                command = RankCommand.of(options, classPath, port, secret, rankFlags);
                command.requireMainClass();
            } catch (UsageException e) {
                err.println("mpjrun: " + e.getMessage());
                return EXIT_USAGE;
            } catch (IOException e) {
                err.println("mpjrun: cannot start the PMI server: " + e);
                return EXIT_LAUNCH_FAILED;
            }
            Runtime.getRuntime().addShutdownHook(stopOnShutdown);
            try {
                if (rootAgent != null) {
                    // before the root's own ranks, as every agent does
                    startAgents(secret, settings.agentJvms());
                }
                startRanks(command);
            } catch (IOException e) {
                return fail(null, EXIT_LAUNCH_FAILED, e.getMessage());
            }
            return supervise();
        } finally {
            if (server != null) {
                server.close();
            }
            endAgents();
            removeNodeSegments();
            awaitOutput();
            reportTraces();
            err.flush();
            out.flush();
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnShutdown);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running or has run
            }
        }
    }

    /**
     * Starts every rank ({@link ParallelStarts}), then attaches its output forwarders and exit watch. The forwarders
     * come after, which shortens the gap between the first and the last rank's start (the wait at the job's first
     * fence). A rank's unread output waits in its pipe meanwhile.
     */
    private void startRanks(RankCommand command) throws IOException {
        int n = options.processes();
        // with agents, the root starts the first node's ranks (the first block), the agents the others
        int local = rootAgent == null ? n : options.mapping().localSize(0);
        Process[] started = new Process[local];
        IOException failure = ParallelStarts.start(new RankBuilders(command), new RankNames(), started,
                "mpjrun-spawn-");
        for (int rank = 0; rank < local; rank++) {
            if (started[rank] != null) {
                ranks.add(new RankProcess(rank, started[rank]));
            }
        }
        if (failure != null) {
            throw failure;
        }
        for (int rank = local; rank < n; rank++) {
            ranks.add(remoteRanks[rank]);
        }
        for (RankProcess r : ranks) {
            int rank = r.rank;
            if (r.isRemote()) {
                continue;
            }
            if (!inheritOutput || rank != 0) {
                r.process.getOutputStream().close(); // the rank reads end-of-file on stdin
            }
            String prefix = options.prefixOutput() ? "[" + rank + "] " : "";
            if (!inheritOutput) {
                r.addForwarder(OutputForwarder.start(r.process.getInputStream(), out, prefix, "mpjrun-out-" + rank));
            }
            r.addForwarder(OutputForwarder.start(r.process.getErrorStream(), err, prefix, "mpjrun-err-" + rank,
                    r.traces, r.reportLines));
            r.process.onExit().thenAccept(new ReportExit(rank));
        }
    }

    /**
     * Starts the agents of the root's children in the tree (they start theirs), as {@code mpj.agentJvms} says: on
     * threads of this JVM, their ranks' output going where the root's does, and an agent that fails failing the job
     * (decision 0077); or in one JVM or one each, their output copied to the job's, and an agent JVM that exits while
     * the job runs failing it.
     */
    private void startAgents(String secret, AgentJvms jvms) throws IOException {
        for (int rank = 0; rank < remoteRanks.length; rank++) {
            remoteRanks[rank] = RankProcess.remote(rank);
        }
        if (jvms == AgentJvms.LAUNCHER) {
            agentHost = new AgentHost(secret, true, new AgentHost.RankOutput(out, err, inheritOutput),
                    (node, e) -> events.add(new AgentFailed("the agent of node " + node + " failed: " + e)));
            rootAgent.childNodes().forEach(node -> agentHost.start(node, rootAgent.childrenPort()));
            return;
        }
        AgentProcesses.startChildren(rootAgent.childNodes(), jvms == AgentJvms.SHARED, rootAgent.childrenPort(), secret,
                pb -> inheritOutput ? pb.redirectOutput(ProcessBuilder.Redirect.INHERIT)
                        .redirectError(ProcessBuilder.Redirect.INHERIT) : pb,
                "mpjrun-agent-spawn-", (nodes, p) -> {
                    agents.add(p);
                    int node = nodes.get(0);
                    p.getOutputStream().close();
                    if (!inheritOutput) {
                        agentForwarders.add(OutputForwarder.start(p.getInputStream(), out, "", "mpjrun-agent-out-"
                                + node));
                        agentForwarders.add(OutputForwarder.start(p.getErrorStream(), err, "", "mpjrun-agent-err-"
                                + node));
                    }
                }, (nodes, p) -> events.add(new AgentFailed(AgentProcesses.exitedLine(nodes, p))));
    }

    /**
     * Closes the tree: the agents see their parent link close and end, their ranks gone already or stopped; those
     * that do not end in time are killed.
     */
    private void endAgents() {
        if (rootAgent == null) {
            return;
        }
        rootAgentClosing = true;
        rootAgent.close();
        List<Thread> forwarders = new ArrayList<>(agentForwarders);
        if (agentHost != null) {
            // the agents see their parent link close, stop what is left of their ranks and end
            agentHost.awaitAll(0, 2 * KILL_GRACE_MILLIS);
            agentHost.stopAll();
            forwarders.addAll(agentHost.forwarders());
        }
        if (!awaitExit(agents, 2 * KILL_GRACE_MILLIS)) {
            AgentProcesses.stop(agents, KILL_GRACE_MILLIS);
        }
        PmiServer.removeTablesOfEndedServers();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OUTPUT_DRAIN_MILLIS);
        for (Thread t : forwarders) {
            try {
                long millis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (millis > 0) {
                    t.join(millis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private ProcessBuilder processBuilder(RankCommand command, int rank) {
        ProcessBuilder pb = command.processBuilder(rank);
        pb.command(RankSupervisor.wrap(pb.command()));
        if (inheritOutput) {
            pb.redirectOutput(ProcessBuilder.Redirect.INHERIT); // stderr is always read, for its traces
            if (rank == 0) {
                pb.redirectInput(ProcessBuilder.Redirect.INHERIT); // as Hydra: stdin goes to rank 0
            }
        }
        return pb;
    }

    /*
     * The callbacks the launcher makes on its way to the ranks' start are named classes, not lambdas: each lambda's
     * first use links a call site through the JDK's method-handle machinery, in the launcher's interpreted code.
     */

    /** Each rank's process builder, for {@link ParallelStarts}. */
    private final class RankBuilders implements IntFunction<ProcessBuilder> {
        private final RankCommand command;

        RankBuilders(RankCommand command) {
            this.command = command;
        }

        @Override
        public ProcessBuilder apply(int rank) {
            return processBuilder(command, rank);
        }
    }

    /** How a start failure names the rank. */
    private static final class RankNames implements IntFunction<String> {
        @Override
        public String apply(int rank) {
            return "rank " + rank;
        }
    }

    /** {@link WaitReports#SIGNAL}: asks the ranks where they wait, through the job's events. */
    private static final class RequestReports implements SignalHandler {
        private final Job job;

        RequestReports(Job job) {
            this.job = job;
        }

        @Override
        public void handle(Signal signal) {
            job.events.add(new ReportRequested());
        }
    }

    /** A rank's exit, as an event. */
    private final class ReportExit implements Consumer<Process> {
        private final int rank;

        ReportExit(int rank) {
            this.rank = rank;
        }

        @Override
        public void accept(Process p) {
            events.add(new Exited(rank, p.exitValue()));
        }
    }

    /** The shutdown hook's work. */
    private final class StopOnShutdown implements Runnable {
        @Override
        public void run() {
            stopOnShutdown();
        }
    }

    /** Takes events until every rank has exited or the job fails; returns the job's exit code. */
    private int supervise() {
        long deadline = options.hasTimeout() ? System.nanoTime() + options.timeout().toNanos() : Long.MAX_VALUE;
        int running = ranks.size();
        int exitCode = 0;
        boolean anyConnected = false;
        // the first rank that exited 0 without connecting: fine in a non-MPI program, a failure in an MPI job
        RankProcess exitedUnconnected = null;
        while (running > 0) {
            Event event;
            try {
                event = nextEvent(deadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return fail(null, EXIT_LAUNCH_FAILED, "interrupted");
            }
            if (event == null) {
                collectWaitReports();
                return fail(null, EXIT_TIMEOUT, "job timed out after " + seconds(options.timeout()));
            }
            if (event instanceof ReportRequested) {
                collectWaitReports();
                continue;
            }
            if (event instanceof Connected c) {
                ranks.get(c.rank()).connected = true;
                anyConnected = true;
                if (exitedUnconnected != null) {
                    return fail(exitedUnconnected, 1, exitedUnconnected + " exited with status 0 before MPI.Init");
                }
            } else if (event instanceof Finalized f) {
                ranks.get(f.rank()).finalized = true;
            } else if (event instanceof Exited x) {
                running--;
                RankProcess r = ranks.get(x.rank());
                if (x.status() == 0 && r.finalized) {
                    continue;
                }
                if (x.status() == 0 && !r.connected && !anyConnected) {
                    if (exitedUnconnected == null) {
                        exitedUnconnected = r; // a non-MPI program, unless another rank connects later
                    }
                    continue;
                }
                if (!r.finalized) {
                    return fail(r, x.status() == 0 ? 1 : x.status(), r + " exited with status " + x.status()
                            + (r.connected ? " before MPI.Finalize" : anyConnected ? " before MPI.Init" : ""));
                }
                // it finished its MPI part: report, but let the others end on their own
                err.println("mpjrun: " + r + " exited with status " + x.status() + " after MPI.Finalize");
                if (exitCode == 0) {
                    exitCode = x.status();
                }
            } else if (event instanceof Disconnected d) {
                RankProcess r = ranks.get(d.rank());
                Integer status = r.exitStatusWithin(EXIT_STATUS_GRACE_MILLIS);
                return status == null
                        ? fail(r, 1, r + " closed its PMI connection before MPI.Finalize")
                        : fail(r, status == 0 ? 1 : status, r + " exited with status " + status
                                + " before MPI.Finalize");
            } else if (event instanceof Aborted a) {
                return fail(ranks.get(a.rank()), a.exitCode(), "rank " + a.rank() + " called MPI.Abort("
                        + a.exitCode() + ")");
            } else if (event instanceof ProtocolError p) {
                RankProcess r = p.rank() < 0 ? null : ranks.get(p.rank());
                return fail(r, 1, (r == null ? "an unidentified PMI client" : "rank " + p.rank()) + " "
                        + p.problem());
            } else if (event instanceof Rejected rejected) {
                if (!shuttingDown) {
                    err.println("mpjrun: " + rejected.report());
                }
            } else if (event instanceof AgentFailed a) {
                if (!rootAgentClosing) {
                    return fail(null, EXIT_LAUNCH_FAILED, a.problem());
                }
            } else if (event instanceof ServerFailed s) {
                return fail(null, EXIT_LAUNCH_FAILED, "the PMI server failed: " + s.cause());
            }
        }
        return exitCode;
    }

    /** The next event, or null once the deadline has passed. */
    private Event nextEvent(long deadlineNanos) throws InterruptedException {
        if (deadlineNanos == Long.MAX_VALUE) {
            return events.take();
        }
        return events.poll(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /**
     * Asks every live rank where it waits ({@link WaitReports}) and waits until each rank inside MPI has answered
     * on its stderr, or {@value #REPORT_WAIT_MILLIS} ms; then names the ranks that did not answer and why, as far
     * as PMI tells (a rank outside MPI has no handler, so it ignores the request).
     */
    private void collectWaitReports() {
        if (ranks.stream().noneMatch(r -> r.connected)) {
            return; // no MPI program, or none of it in MPI yet: nobody to answer
        }
        // an agent's ranks are asked too, but their reports reach the job's stderr through the agent, uncounted
        List<RankProcess> alive = ranks.stream().filter(r -> r.isAlive() && r.pid() > 0).toList();
        Map<RankProcess, Integer> before = new HashMap<>();
        alive.forEach(r -> before.put(r, r.reportLines.get()));
        if (!WaitReports.signal(alive.stream().map(RankProcess::pid).toList())) {
            err.println("mpjrun: could not ask every rank for its wait report (kill -" + WaitReports.SIGNAL + ")");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REPORT_WAIT_MILLIS);
        List<RankProcess> silent = new ArrayList<>(alive.stream().filter(r -> !r.isRemote()).toList());
        try {
            while (true) {
                silent.removeIf(r -> r.reportLines.get() > before.get(r));
                boolean waitingForMpiRanks = silent.stream().anyMatch(r -> r.connected && !r.finalized);
                if (!waitingForMpiRanks || System.nanoTime() > deadline) {
                    break;
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (RankProcess r : silent) {
            err.println("mpjrun: " + r + " gave no wait report: " + (!r.connected ? "it has not reached MPI.Init"
                    : r.finalized ? "it has finalized" : "no answer within " + REPORT_WAIT_MILLIS + " ms"));
        }
        err.flush();
    }

    /** Reports why the job fails, stops every rank, and returns {@code exitCode}. */
    private int fail(RankProcess culprit, int exitCode, String reason) {
        this.culprit = culprit;
        failed = true;
        long others = ranks.stream().filter(r -> r != culprit && r.isAlive()).count();
        String stopping = others == 0 ? ""
                : culprit == null ? "; stopping " + others + (others == 1 ? " rank" : " ranks")
                : others == 1 ? "; stopping the other rank"
                : "; stopping the other " + others + " ranks";
        if (!shuttingDown) {
            err.println("mpjrun: " + reason + stopping);
            err.flush();
        }
        stopAll();
        return exitCode;
    }

    /**
     * Ends every rank and its descendants: SIGTERM, then SIGKILL for whatever is alive a second later. The ranks'
     * supervisors get SIGTERM first, which costs the launcher nothing: a large job's ranks leave it little CPU,
     * and every moment they keep running is one more in which it gets none. Their descendants are collected
     * right after, while most are still attached, for the few that left the rank's process group, which the
     * supervisor kills.
     */
    private void stopAll() {
        List<Process> alive = new ArrayList<>();
        for (RankProcess r : ranks) {
            if (!r.isRemote() && r.process.isAlive()) {
                alive.add(r.process);
            }
        }
        agents.stream().filter(Process::isAlive).forEach(alive::add); // an agent stops its ranks and children
        AgentHost host = agentHost;
        if (host != null) {
            alive.addAll(host.liveProcesses()); // the ranks of the agents in this JVM, stopped with the root's
        }
        alive.forEach(Process::destroy);
        List<ProcessHandle> descendants = ProcessTree.descendantsOf(alive.stream().map(Process::pid)
                .collect(Collectors.toSet()));
        descendants.forEach(ProcessHandle::destroy);
        awaitExit(alive, KILL_GRACE_MILLIS);
        // descendants are not waited for: an orphan may linger as a zombie where nothing reaps it
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        alive.stream().filter(Process::isAlive).forEach(Process::destroyForcibly);
        awaitExit(alive, KILL_GRACE_MILLIS);
    }

    /** Waits for {@code processes} to exit, {@code millis} in all at most; returns whether they all did. */
    static boolean awaitExit(List<Process> processes, long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            for (Process p : processes) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Ctrl-C or SIGTERM of the launcher: take the whole job down with it. */
    private void stopOnShutdown() {
        shuttingDown = true;
        if (ranks.stream().anyMatch(RankProcess::isAlive)) {
            err.println("mpjrun: interrupted; stopping the job");
            err.flush();
            stopAll();
        }
        removeNodeSegments();
    }

    /**
     * Removes the node segment files of this job's ranks, which a rank that crashed or was killed leaves
     * behind. Called once every rank is gone.
     */
    private void removeNodeSegments() {
        String jobId = kvsName;
        if (jobId == null) {
            return;
        }
        try {
            NodeSegmentFiles.removeAll(NodeSegmentFiles.directory(rankSettings()), jobId);
        } catch (RuntimeException e) {
            // settings the ranks could not have used either: they made no segment
        }
    }

    private Settings rankSettings() {
        return RankCommand.rankSettings(options);
    }

    private void awaitOutput() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OUTPUT_DRAIN_MILLIS);
        try {
            for (RankProcess r : ranks) {
                r.awaitOutput(deadline);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Passes on the uncaught-exception traces held back from the ranks' stderr. When the job succeeded, or for
     * the rank that failed it first, they are shown as they were printed; every other rank of a failed job gets
     * one line instead (rank, host, how it ended, first cause), and its trace goes to the file named by
     * {@value #FAILURE_LOG_VARIABLE} if set. Called once every forwarder has ended.
     */
    private void reportTraces() {
        List<RankProcess> traced = new ArrayList<>();
        for (RankProcess r : ranks) {
            if (!r.traces.isEmpty()) {
                traced.add(r);
            }
        }
        if (traced.isEmpty()) {
            return;
        }
        if (!failed) {
            for (RankProcess r : traced) {
                err.print(r.traces.text());
            }
            return;
        }
        Path log = writeFailureLog(traced);
        String where = log != null ? " (trace in " + log + ")"
                : " (" + FAILURE_LOG_VARIABLE + "=FILE keeps the traces)";
        String host = hostName();
        for (RankProcess r : traced) {
            if (r == culprit) {
                err.print(r.traces.text());
            } else {
                err.println("mpjrun: " + r + " on " + host + " " + r.ending() + ": " + r.traces.firstCause() + where);
            }
        }
    }

    /** Appends the traces of {@code traced} to the failure log; returns its path, or null when there is none. */
    private Path writeFailureLog(List<RankProcess> traced) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.putAll(options.environment());
        String name = environment.get(FAILURE_LOG_VARIABLE);
        if (name == null || name.isBlank()) {
            return null;
        }
        Path log = Path.of(name).toAbsolutePath();
        StringBuilder text = new StringBuilder("== job " + kvsName + " failed at " + Instant.now() + "\n");
        for (RankProcess r : traced) {
            text.append("== ").append(r).append(' ').append(r.ending()).append('\n').append(r.traces.text());
        }
        try {
            Files.writeString(log, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            return log;
        } catch (IOException | RuntimeException e) {
            err.println("mpjrun: cannot write " + FAILURE_LOG_VARIABLE + " " + log + ": " + e.getMessage());
            return null;
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    static String seconds(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis / 1000.0 + " s";
    }

    /** What happened to the job, in the order it happened. */
    private sealed interface Event {
    }

    private record Connected(int rank) implements Event {
    }

    private record Finalized(int rank) implements Event {
    }

    private record Aborted(int rank, int exitCode) implements Event {
    }

    private record Disconnected(int rank) implements Event {
    }

    private record ProtocolError(int rank, String problem) implements Event {
    }

    private record Rejected(String report) implements Event {
    }

    private record ServerFailed(Exception cause) implements Event {
    }

    /** A node agent died or could not do its part: {@code problem} is the whole sentence. */
    private record AgentFailed(String problem) implements Event {
    }

    private record Exited(int rank, int status) implements Event {
    }

    /** {@code mpjrun} received {@value WaitReports#SIGNAL}: the user asks where the ranks wait. */
    private record ReportRequested() implements Event {
    }

    /** Turns the PMI server's callbacks into events for the supervising thread. */
    private final class EventQueueListener implements NodeAgent.Events {
        @Override
        public void rankStarted(int rank, long pid) {
            remoteRanks[rank].started(pid);
        }

        @Override
        public void rankExited(int rank, int status) {
            remoteRanks[rank].exited(status);
            events.add(new Exited(rank, status));
        }

        @Override
        public void agentFailed(int node, String problem) {
            events.add(new AgentFailed(problem));
        }

        @Override
        public void rankConnected(int rank) {
            events.add(new Connected(rank));
        }

        @Override
        public void rankFinalized(int rank) {
            events.add(new Finalized(rank));
        }

        @Override
        public void rankAborted(int rank, int exitCode) {
            events.add(new Aborted(rank, exitCode));
        }

        @Override
        public void rankDisconnected(int rank) {
            events.add(new Disconnected(rank));
        }

        @Override
        public void protocolError(int rank, String problem) {
            events.add(new ProtocolError(rank, problem));
        }

        @Override
        public void connectionsRejected(String report) {
            events.add(new Rejected(report));
        }

        @Override
        public void serverFailed(Exception cause) {
            events.add(new ServerFailed(cause));
        }
    }
}

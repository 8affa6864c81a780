package dev.mpj.launcher;

import dev.mpj.runtime.config.BindTo;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which CPU each rank mpjrun starts runs on ({@link BindTo}, {@code --bind-to}): with {@code core}, rank i on the
 * i-th CPU of those the launcher itself may run on ({@code Cpus_allowed_list}), so a launcher started under
 * {@code taskset} or in a Slurm allocation binds inside it. The ranks mpjrun starts all run on its machine (other
 * machines are Hydra's), pretend nodes included, so they count over the whole job. A bound rank sees one CPU, so
 * each also learns the count its node's ranks share ({@link Setting#NODE_CPUS}) and all decide alike whether they
 * outnumber the cores. Without {@code taskset} the ranks run unbound.
 */
final class CoreBinding {
    /** Every rank unbound. */
    static final CoreBinding NONE = new CoreBinding(new int[0]);

    private static final String TASKSET = "taskset";
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final String ALLOWED = "Cpus_allowed_list:";

    /** The CPUs rank by rank, or none when unbound. */
    private final int[] cpus;

    private CoreBinding(int[] cpus) {
        this.cpus = cpus;
    }

    /** The binding {@code mode} gives {@code ranks} ranks on the {@code allowed} CPUs. */
    static CoreBinding of(BindTo mode, int ranks, List<Integer> allowed) {
        if (mode == BindTo.NONE || allowed.isEmpty() || ranks > allowed.size()) {
            return NONE;
        }
        int[] cpus = new int[allowed.size()];
        for (int i = 0; i < cpus.length; i++) {
            cpus[i] = allowed.get(i);
        }
        return new CoreBinding(cpus);
    }

    /**
     * The binding of a job of {@code ranks} ranks whose variables are this process's and then {@code jobVariables}
     * ({@code -env}, where {@code --bind-to} puts {@link Setting#BIND_TO}), on the CPUs this process may run on:
     * mpjrun and its node agents decide alike.
     */
    static CoreBinding of(Map<String, String> jobVariables, int ranks) {
        Map<String, String> variables = new HashMap<>(System.getenv());
        variables.putAll(jobVariables);
        return ofThisProcess(Settings.from(variables, Map.of()).bindTo(), ranks, variables.get("PATH"));
    }

    /**
     * The binding {@code mode} gives {@code ranks} ranks on the CPUs this process may run on, where {@code taskset}
     * is on {@code path}; unbound where either is missing.
     */
    static CoreBinding ofThisProcess(BindTo mode, int ranks, String path) {
        if (mode == BindTo.NONE || ProcessManager.onPath(TASKSET, path).isEmpty()) {
            return NONE;
        }
        return of(mode, ranks, allowedCpus(STATUS));
    }

    /** The CPUs of the {@value #ALLOWED} line of the status file {@code status}; none when it has no such line. */
    static List<Integer> allowedCpus(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith(ALLOWED)) {
                    return cpuList(line.substring(ALLOWED.length()).trim());
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // no such file or an unknown form: the ranks run unbound
        }
        return List.of();
    }

    /** The CPUs of a Linux CPU list such as {@code 0-3,8,10-11}, in its order. */
    static List<Integer> cpuList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            int first = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
            int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1).trim());
            if (first < 0 || last < first) {
                throw new IllegalArgumentException("not a CPU list: " + list);
            }
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    boolean binds() {
        return cpus.length > 0;
    }

    /** {@code command} as rank {@code rank} runs it: behind {@code taskset} when bound. */
    List<String> command(int rank, List<String> command) {
        if (!binds()) {
            return command;
        }
        List<String> bound = new ArrayList<>(command.size() + 3);
        bound.add(TASKSET);
        bound.add("-c");
        bound.add(Integer.toString(cpus[rank]));
        bound.addAll(command);
        return bound;
    }

    /** Adds to a bound rank's {@code environment} the CPUs its node's ranks share. */
    void addTo(Map<String, String> environment) {
        if (binds()) {
            environment.put(Setting.NODE_CPUS.environmentVariable(), Integer.toString(cpus.length));
        }
    }
}

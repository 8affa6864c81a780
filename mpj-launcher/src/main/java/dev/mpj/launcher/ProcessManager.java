package dev.mpj.launcher;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A process manager of the user's that starts the ranks on several machines in place of {@code mpjrun}'s own:
 * Slurm's {@code srun} inside an allocation, MPICH's {@code mpiexec.hydra} when the hosts name other machines.
 * mpj has no daemon of its own on the other nodes (decision 0026); the ranks talk PMI to the manager.
 */
enum ProcessManager {
    SRUN("srun", "Slurm's client (Debian: apt-get install slurm-client)"),
    HYDRA("mpiexec.hydra", "MPICH (Debian: apt-get install mpich)");

    /** Set in every process of a Slurm allocation, {@code salloc}'s shell and {@code sbatch}'s script included. */
    static final String SLURM_JOB_VARIABLE = "SLURM_JOB_ID";

    private final String executable;
    private final String installHint;

    ProcessManager(String executable, String installHint) {
        this.executable = executable;
        this.installHint = installHint;
    }

    /**
     * The manager that runs the job, or none for {@code mpjrun}'s own: Hydra when the hosts name another machine;
     * srun inside a Slurm allocation unless {@code --no-srun} is given or the ranks are placed on pretend nodes
     * of this machine ({@code --fake-nodes}, {@code -ppn}, {@code -hosts} of this machine).
     */
    static Optional<ProcessManager> choose(LaunchOptions options, Map<String, String> environment) {
        if (options.spansMachines()) {
            return Optional.of(HYDRA);
        }
        boolean pretendNodes = options.fakeNodes() > 0 || options.ranksPerNode() > 0 || !options.hosts().isEmpty();
        if (environment.containsKey(SLURM_JOB_VARIABLE) && !options.noSrun() && !pretendNodes) {
            return Optional.of(SRUN);
        }
        return Optional.empty();
    }

    String executable() {
        return executable;
    }

    /** The manager's executable on {@code path} (a PATH value), if it is there. */
    Optional<Path> find(String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, executable);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Why {@code mpjrun} hands the job to this manager, for messages. */
    String reason(LaunchOptions options, Map<String, String> environment) {
        return switch (this) {
            case SRUN -> "inside the Slurm allocation " + environment.get(SLURM_JOB_VARIABLE)
                    + " the job runs through srun";
            case HYDRA -> "the hosts name other machines ("
                    + options.hosts().stream().map(HostList.Host::name).filter(h -> !HostList.isThisMachine(h))
                    .distinct().collect(Collectors.joining(", "))
                    + "): the job runs through mpiexec.hydra";
        };
    }

    /** The message when the executable is not on the PATH: what to install, or how to stay on this machine. */
    String missing(LaunchOptions options, Map<String, String> environment) {
        return reason(options, environment) + ", but " + executable + " is not on the PATH: install "
                + installHint + (this == SRUN ? ", or run on this machine alone with --no-srun" : "");
    }

    /**
     * The manager's command line that starts {@code options.processes()} ranks, each running {@code rankCommand}.
     * The {@code -env} variables reach srun's ranks through its environment ({@code --export=ALL}), where a value
     * may hold the commas that {@code --export=NAME=VALUE} cannot; Hydra takes them as {@code -genv}.
     */
    List<String> command(String manager, LaunchOptions options, List<String> rankCommand) {
        List<String> c = new ArrayList<>(List.of(manager));
        String np = Integer.toString(options.processes());
        if (this == SRUN) {
            c.addAll(List.of("--mpi=pmi2", "-n", np, "--export=ALL"));
            if (options.workingDirectory() != null) {
                c.add("--chdir=" + options.workingDirectory());
            }
            if (options.prefixOutput()) {
                c.add("--label");
            }
        } else {
            c.addAll(List.of("-hosts", options.hosts().stream().map(h -> h.name() + ":" + h.slots())
                    .collect(Collectors.joining(","))));
            if (options.ranksPerNode() > 0) {
                c.addAll(List.of("-ppn", Integer.toString(options.ranksPerNode())));
            }
            if (options.launcher() != null) {
                c.addAll(List.of("-launcher", options.launcher()));
            }
            if (options.workingDirectory() != null) {
                c.addAll(List.of("-wdir", options.workingDirectory()));
            }
            if (options.prefixOutput()) {
                c.add("-prepend-rank");
            }
            options.environment().forEach((name, value) -> c.addAll(List.of("-genv", name, value)));
            c.addAll(List.of("-n", np));
        }
        c.addAll(rankCommand);
        return c;
    }
}

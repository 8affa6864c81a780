package dev.mpj.runtime.pmi;

import dev.mpj.runtime.config.PmiDialect;
import dev.mpj.runtime.config.Setting;
import dev.mpj.runtime.config.Settings;
import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.pmi.wire.PmiVariables;

import java.util.Map;

/** Chooses and starts the PMI client for this process, from the {@code mpj.pmi} setting and the environment. */
public final class PmiClients {

    private PmiClients() {
    }

    /**
     * Starts the client named by {@link Setting#PMI} ({@link PmiDialect}):
     * <ul>
     *   <li>{@code auto} (default): over {@code PMI_FD} if set (Hydra, Slurm {@code --mpi=pmi2}), else over
     *       {@code PMI_PORT} if set (Hydra {@code -pmi-port}, mpjrun), else PMIx if a PMIx server started the
     *       process ({@code PMIX_NAMESPACE} or a {@code PMIX_SERVER_URI*} variable: Open MPI's {@code mpirun},
     *       Slurm {@code --mpi=pmix}), else a {@link SingletonPmiClient}. The
     *       wire dialect is PMI-1, which every server speaks, except under Slurm's pmi2 plugin
     *       ({@code SLURM_MPI_TYPE=pmi2} with {@code PMI_FD}), where it is PMI-2, Slurm's native dialect;</li>
     *   <li>{@code pmi1}, {@code pmi2}: that dialect over {@code PMI_FD} or {@code PMI_PORT}, no singleton
     *       fallback;</li>
     *   <li>{@code pmix}: the PMIx client ({@link PmixLoader});</li>
     *   <li>{@code singleton}: a job of one, whatever the environment says.</li>
     * </ul>
     * A rank under a PMIx server never falls back to a singleton: without PMIx support it fails, saying what is
     * missing. Nor does one of several tasks that a manager started without a PMI it offers us (for example
     * {@code srun} without {@code --mpi=pmi2}): each would run alone and print as if it were the whole job.
     *
     * @throws PmiException when the process manager cannot be reached or {@code pmi1}/{@code pmi2} finds none
     */
    public static PmiClient fromEnvironment(Settings settings, Map<String, String> env) {
        PmiDialect choice = settings.pmi();
        switch (choice) {
            case AUTO: {
                boolean slurmPmi2 = "pmi2".equalsIgnoreCase(String.valueOf(variable(env, "SLURM_MPI_TYPE")))
                        && variable(env, "PMI_FD") != null;
                PmiClient wire = wireIfOffered(env, slurmPmi2);
                if (wire != null) {
                    return wire;
                }
                if (underPmixServer(env)) {
                    return PmixLoader.start(env);
                }
                refuseUnknownManager(env);
                return SingletonPmiClient.of(env);
            }
            case PMI1:
            case PMI2: {
                PmiClient wire = wireIfOffered(env, choice == PmiDialect.PMI2);
                if (wire == null) {
                    throw new PmiException(Setting.PMI.property() + "=" + choice.settingValue() + " but neither"
                            + " PMI_FD nor PMI_PORT is set: start the program with a process manager (mpjrun, mpiexec,"
                            + " srun --mpi=pmi2) or use " + Setting.PMI.property() + "=" + PmiDialect.AUTO.settingValue());
                }
                return wire;
            }
            case PMIX:
                return PmixLoader.start(env);
            default:
                return SingletonPmiClient.of(env);
        }
    }

    /**
     * Whether {@link #fromEnvironment} will talk to a process manager rather than make a singleton: the same
     * choice, made without connecting. Another thread may then ready what a job of several ranks needs.
     */
    public static boolean offersProcessManager(Settings settings, Map<String, String> env) {
        PmiDialect choice = settings.pmi();
        if (choice == PmiDialect.AUTO) {
            return variable(env, "PMI_FD") != null || variable(env, "PMI_PORT") != null || underPmixServer(env);
        }
        return choice != PmiDialect.SINGLETON;
    }

    /**
     * When the environment offers the process manager over TCP ({@code PMI_PORT} without {@code PMI_FD}, the one
     * {@link #fromEnvironment} would connect to) and no connection to it is open yet, readies the JDK's network
     * start-up for that connection; for any other environment does nothing. Needs no settings, so another thread may
     * run it while they are read; never throws.
     */
    public static void warmUpConnection(Map<String, String> env) {
        String port = variable(env, "PMI_PORT");
        if (port != null && variable(env, "PMI_FD") == null && variable(env, PmiVariables.PORT_FD) == null) {
            PmiConnection.warmUpPort(port);
        }
    }

    /** A PMI-1 or PMI-2 client over whatever the environment offers, PMI_FD first (as MPICH), or null. */
    private static PmiClient wireIfOffered(Map<String, String> env, boolean pmi2) {
        String fd = variable(env, "PMI_FD");
        if (fd != null) {
            int number = parseInt("PMI_FD", fd);
            return pmi2 ? Pmi2Client.overFd(number, env) : Pmi1Client.overFd(number, env);
        }
        String port = variable(env, "PMI_PORT");
        if (port != null) {
            // PMI_ID names this process in the handshake; without it, PMI_RANK, then 0.
            String idName = variable(env, "PMI_ID") != null ? "PMI_ID"
                    : variable(env, "PMI_RANK") != null ? "PMI_RANK" : null;
            int id = idName == null ? 0 : parseInt(idName, variable(env, idName));
            PmiConnection connection = portConnection(port, env);
            return pmi2 ? Pmi2Client.overPort(connection, id, env) : Pmi1Client.overPort(connection, id,
                    "1".equals(variable(env, PmiVariables.PIPELINE)));
        }
        return null;
    }

    /**
     * The connection to {@code PMI_PORT}: the one the rank's starter opened and showed the job's secret on
     * ({@value PmiVariables#PORT_FD}), else a new TCP connection that shows it first.
     */
    private static PmiConnection portConnection(String port, Map<String, String> env) {
        String fd = variable(env, PmiVariables.PORT_FD);
        return fd == null ? PmiConnection.overPort(port, secret(env))
                : PmiConnection.overFd(parseInt(PmiVariables.PORT_FD, fd));
    }

    /**
     * Fails when the environment says this process is one of several that a manager started, with no PMI that
     * {@code auto} found: Slurm's {@code srun} without {@code --mpi=pmi2}, Open MPI's launcher without PMIx, or
     * any manager that sets {@code PMI_SIZE}. {@code mpj.pmi=singleton} runs such a process alone all the same.
     */
    private static void refuseUnknownManager(Map<String, String> env) {
        String what = null;
        String use = null;
        if (positive(env, "SLURM_STEP_NUM_TASKS") > 1) {
            what = "Slurm's srun as one of " + variable(env, "SLURM_STEP_NUM_TASKS") + " tasks, without --mpi=pmi2";
            use = "srun --mpi=pmi2 (or --mpi=pmix on Java 22+)";
        } else if (positive(env, "OMPI_COMM_WORLD_SIZE") > 1) {
            what = "Open MPI as one of " + variable(env, "OMPI_COMM_WORLD_SIZE") + " ranks, without a PMIx server";
            use = "an Open MPI whose mpirun serves PMIx (4.x and later) with Java 22+, or mpjrun";
        } else if (positive(env, "PMI_SIZE") > 1) {
            what = "a process manager as one of " + variable(env, "PMI_SIZE") + " ranks (PMI_SIZE), without PMI_FD"
                    + " or PMI_PORT";
            use = "mpjrun, MPICH's mpiexec or srun --mpi=pmi2";
        }
        if (what != null) {
            throw new PmiException("this process was started by " + what + ": it would run as a job of one rank."
                    + " Use " + use + "; " + Setting.PMI.property() + "=" + PmiDialect.SINGLETON.settingValue()
                    + " runs each process alone on purpose");
        }
    }

    private static int positive(Map<String, String> env, String name) {
        String v = variable(env, name);
        if (v == null) {
            return 0;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether a PMIx server started this process: it sets {@code PMIX_NAMESPACE} and {@code PMIX_SERVER_URI*}. */
    static boolean underPmixServer(Map<String, String> env) {
        if (variable(env, "PMIX_NAMESPACE") != null) {
            return true;
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().startsWith("PMIX_SERVER_URI") && e.getValue() != null && !e.getValue().isBlank()) {
                return true;
            }
        }
        return false;
    }

    /** mpjrun's job secret ({@value PmiVariables#SECRET}), or null: Hydra and Slurm set none. */
    static String secret(Map<String, String> env) {
        return variable(env, PmiVariables.SECRET);
    }

    private static String variable(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new PmiException(name + " is not an integer: '" + value + "'");
        }
    }
}

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
     *       {@code PMI_PORT} if set (Hydra {@code -pmi-port}, mpjrun), else a {@link SingletonPmiClient}. The
     *       wire dialect is PMI-1, which every server speaks, except under Slurm's pmi2 plugin
     *       ({@code SLURM_MPI_TYPE=pmi2} with {@code PMI_FD}), where it is PMI-2, Slurm's native dialect;</li>
     *   <li>{@code pmi1}, {@code pmi2}: that dialect over {@code PMI_FD} or {@code PMI_PORT}, no singleton
     *       fallback;</li>
     *   <li>{@code singleton}: a job of one, whatever the environment says.</li>
     * </ul>
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
                return wire != null ? wire : new SingletonPmiClient();
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
            default:
                return new SingletonPmiClient();
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
            return pmi2 ? Pmi2Client.overPort(port, id, env) : Pmi1Client.overPort(port, id,
                    "1".equals(variable(env, PmiVariables.PIPELINE)), secret(env));
        }
        return null;
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

package dev.mpj.launcher;

import dev.mpj.runtime.pmi.wire.PmiSecret;
import dev.mpj.runtime.pmi.wire.PmiVariables;

import java.util.ArrayList;
import java.util.List;

/**
 * The small shell supervisor every rank runs under, so that nothing a job started outlives it. The supervisor
 * starts the rank JVM with {@code setsid}, which makes it the leader of its own process group (and session);
 * whatever the rank starts joins that group. The supervisor then
 * <ul>
 *   <li>waits for the rank and exits with its status (128+signal when a signal ended it), so the launcher sees
 *       the rank's own status;</li>
 *   <li>kills the rank's group once the rank has ended, so the rank's children die with it;</li>
 *   <li>passes SIGTERM, SIGINT and SIGHUP on to the rank's group, and SIGUSR1 (a request for the rank's wait
 *       report) to the rank alone, which it starts with SIGUSR1 ignored until its runtime handles it, so that a
 *       request that comes too early is lost rather than fatal;</li>
 *   <li>runs a watcher that kills the rank's group as soon as the supervisor loses its parent, the launcher
 *       (SIGKILL of {@code mpjrun} included), or is itself killed.</li>
 * </ul>
 * Before it starts the rank, the supervisor opens the rank's connection to mpjrun's PMI server ({@code PMI_PORT})
 * through bash's {@code /dev/tcp}, shows the job's secret on it, and hands it over as descriptor {@value #PMI_FD}
 * ({@link PmiVariables#PORT_FD}), so that the rank JVM opens no socket of its own in {@code MPI.Init}; where that
 * fails the rank connects itself, as before.
 * The watcher follows the parent link rather than a pipe, because rank 0 may read the user's stdin. Where
 * {@code setsid} is missing the rank runs in the supervisor's group and only the rank itself is killed.
 */
final class RankSupervisor {
    /** The name the supervisor's shell runs under ({@code $0}). */
    static final String NAME = "mpj-rank";

    /** The descriptor the rank inherits its connection to {@code PMI_PORT} as. */
    static final int PMI_FD = 4;

    /** Between two looks at the parent link. */
    static final String WATCH_INTERVAL_SECONDS = "0.25";

    static final String SCRIPT = String.join("\n",
            "exec 3>&2 2>/dev/null", // the rank writes to stderr, the shell's own job reports go nowhere
            "trap '' " + WaitReports.SIGNAL,
            // the rank's PMI connection, made here by bash: the rank JVM then starts no network classes for it
            // and shown the job's secret at once, so the server holds it without a deadline until the rank's
            // MPI.Init, however late that comes
            "if [ -n \"$PMI_PORT\" ] && exec " + PMI_FD + "<>\"/dev/tcp/${PMI_PORT%:*}/${PMI_PORT##*:}\"; then"
                    + " [ -z \"$" + PmiVariables.SECRET + "\" ] || printf '" + PmiSecret.message("%s")
                    + "\\n' \"$" + PmiVariables.SECRET + "\" >&" + PMI_FD + ";"
                    + " export " + PmiVariables.PORT_FD + "=" + PMI_FD + "; fi",
            "if command -v setsid >/dev/null; then setsid \"$@\" <&0 2>&3 3>&- & else \"$@\" <&0 2>&3 3>&- & fi",
            "rank=$!",
            "exec " + PMI_FD + ">&-", // the connection is the rank's alone: its end must close it for the server
            "launcher=$PPID",
            "stop() { kill -$1 -- -$rank 2>/dev/null || kill -$1 $rank 2>/dev/null; }",
            "attached() {",
            "  if [ -r /proc/$$/stat ]; then read -r _ _ _ parent _ < /proc/$$/stat && [ \"$parent\" = \"$launcher\" ]",
            "  else kill -0 $$ 2>/dev/null && kill -0 $launcher 2>/dev/null; fi 2>/dev/null",
            "}",
            // read -t on a pipe nobody writes waits without starting a process, as sleep would four times a second
            "( exec 9<> <(:); while attached; do read -t " + WATCH_INTERVAL_SECONDS + " -u 9 _; done; stop KILL )"
                    + " </dev/null >/dev/null 3>&- &",
            "watcher=$!",
            "trap 'stop TERM' TERM INT HUP",
            "trap 'kill -" + WaitReports.SIGNAL + " $rank' " + WaitReports.SIGNAL,
            "while :; do wait $rank; status=$?; kill -0 $rank 2>/dev/null || break; done",
            "stop KILL",
            "kill $watcher 2>/dev/null",
            "exit $status");

    private RankSupervisor() {
    }

    /** {@code command} run under the supervisor. */
    static List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(command.size() + 4);
        wrapped.add("bash");
        wrapped.add("-c");
        wrapped.add(SCRIPT);
        wrapped.add(NAME);
        wrapped.addAll(command);
        return wrapped;
    }
}

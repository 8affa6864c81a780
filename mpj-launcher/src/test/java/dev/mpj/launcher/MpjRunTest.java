package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MpjRunTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void wrongUsageExitsWith2AndSaysWhy() {
        assertEquals(2, run("-np", "two", "Main"));
        assertEquals("mpjrun: -np needs a positive whole number, not 'two'\n"
                + "Try 'mpjrun --help' for more information.\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpPrintsTheUsageOnStdoutAndExits0() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: mpjrun -np N"));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void unknownOptionsKeepTheUsageErrorStyle() {
        assertEquals(2, run("-np", "2", "--map-by", "core", "Main"));
        assertEquals("mpjrun: unknown option '--map-by'\nTry 'mpjrun --help' for more information.\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void versionPrintsMpjsAndJavasVersionsAndExits0() {
        assertEquals(0, run("--version"));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.matches("mpj \\d+\\.\\d+\\.\\d+\\S*\nJava " + Pattern.quote(Runtime.version().toString())
                + " \\(.*\\)\n"), text);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpDescribesTheMpiexecStyleFlags() {
        assertEquals(0, run("--help"));
        String text = out.toString(StandardCharsets.UTF_8);
        for (String flag : List.of("-ppn N", "-hosts H", "-f FILE", "-genv", "-x NAME[=VALUE]", "-wdir DIR",
                "--oversubscribe", "-dev NAME", "--version")) {
            assertTrue(text.contains(flag), flag);
        }
    }

    @Test
    void dumpRefusesAPidThatIsNoMpjrunAndSendsItNothing() {
        // this test JVM runs no mpjrun: a signal would have reached it (and SIGUSR1 would have ended it)
        assertEquals(2, run("--dump", Long.toString(ProcessHandle.current().pid())));
        assertEquals("mpjrun: --dump: process " + ProcessHandle.current().pid() + " is no running mpjrun\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void dumpWithoutOneNumericPidIsAUsageError() {
        assertEquals(2, run("--dump", "twelve"));
        assertEquals(2, run("--dump"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--dump takes the pid of a running mpjrun, not "
                + "'twelve'"), err.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("mpjrun: --dump takes one argument: the pid of a "
                + "running mpjrun\nTry 'mpjrun --help'"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMissingWorkingDirectoryIsAUsageError(@TempDir Path dir) {
        String missing = dir.resolve("missing").toString();
        assertEquals(2, run("-np", "1", "-wdir", missing, "Main"));
        assertEquals("mpjrun: -wdir " + missing + " is no directory\nTry 'mpjrun --help' for more information.\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void moreRanksThanCoresWarnsUnlessOversubscribeIsGiven() throws UsageException {
        SampleCatalog none = SampleCatalog.of(Map.of());
        LaunchOptions sixteen = LaunchOptions.parse(List.of("-np", "16", "Main"), none, Map.of());
        assertEquals(Optional.of("mpjrun: 16 ranks on 2 cores: expect slow progress (pass --oversubscribe to "
                + "silence this)"), MpjRun.oversubscriptionWarning(sixteen, 2));
        assertEquals(Optional.empty(), MpjRun.oversubscriptionWarning(sixteen, 16));
        LaunchOptions meant = LaunchOptions.parse(List.of("-np", "16", "--oversubscribe", "Main"), none, Map.of());
        assertEquals(Optional.empty(), MpjRun.oversubscriptionWarning(meant, 2));
    }

    @Test
    void aJobForAManagerThatIsNotInstalledFailsNamingWhatToInstall(@TempDir Path emptyPath) {
        assertEquals(1, MpjRun.run(List.of("-np", "2", "Main"), Map.of("SLURM_JOB_ID", "7", "PATH",
                emptyPath.toString()), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertEquals("mpjrun: inside the Slurm allocation 7 the job runs through srun, but srun is not on the PATH: "
                + "install Slurm's client (Debian: apt-get install slurm-client), or run on this machine alone with "
                + "--no-srun\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void launcherIsIgnoredWithANoteWhenTheJobDoesNotRunThroughHydra(@TempDir Path emptyPath) {
        MpjRun.run(List.of("-np", "2", "-launcher", "fork", "Main"), Map.of("SLURM_JOB_ID", "7", "PATH",
                emptyPath.toString()), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("mpjrun: -launcher fork ignored: it tells Hydra "
                + "how to reach other hosts, and this job does not run through Hydra\nmpjrun: inside the Slurm "
                + "allocation 7"), err::toString);
    }

    private int run(String... args) {
        return MpjRun.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}

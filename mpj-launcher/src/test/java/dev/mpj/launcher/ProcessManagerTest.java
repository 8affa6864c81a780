package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProcessManagerTest {
    private static final Map<String, String> IN_ALLOCATION = Map.of("SLURM_JOB_ID", "42");
    private static final List<String> RANK = List.of("java", "-cp", "x", "Main", "arg");

    @Test
    void otherHostsGoToHydraAnAllocationToSrunElseMpjrunKeepsTheJob() throws UsageException {
        assertEquals(Optional.of(ProcessManager.HYDRA),
                ProcessManager.choose(parse("-np", "4", "-hosts", "a1.invalid:2,a2.invalid:2", "Main"), Map.of()));
        assertEquals(Optional.of(ProcessManager.HYDRA), ProcessManager.choose(
                parse("-np", "4", "-hosts", "a1.invalid:2,a2.invalid:2", "Main"), IN_ALLOCATION));
        assertEquals(Optional.of(ProcessManager.SRUN), ProcessManager.choose(parse("-np", "4", "Main"), IN_ALLOCATION));
        assertEquals(Optional.empty(), ProcessManager.choose(parse("-np", "4", "Main"), Map.of()));
    }

    @Test
    void noSrunAndPretendNodesKeepAnAllocatedJobOnThisMachine() throws UsageException {
        for (List<String> options : List.of(List.of("--no-srun"), List.of("--fake-nodes", "2"), List.of("-ppn", "2"),
                List.of("-hosts", "localhost:2,127.0.0.1:2"))) {
            List<String> args = new ArrayList<>(List.of("-np", "4"));
            args.addAll(options);
            args.add("Main");
            assertEquals(Optional.empty(), ProcessManager.choose(parse(args.toArray(String[]::new)), IN_ALLOCATION),
                    options.toString());
        }
    }

    @Test
    void srunGetsTheRanksPmi2TheWorkingDirectoryAndTheEnvironment() throws UsageException {
        LaunchOptions o = parse("-np", "4", "-wdir", "/tmp", "-l", "-env", "A", "1,2", "Main", "arg");
        assertEquals(List.of("/usr/bin/srun", "--mpi=pmi2", "-n", "4", "--export=ALL", "--chdir=/tmp", "--label",
                "java", "-cp", "x", "Main", "arg"), ProcessManager.SRUN.command("/usr/bin/srun", o, RANK));
    }

    @Test
    void hydraGetsTheHostsLauncherWorkingDirectoryAndGenv() throws UsageException {
        LaunchOptions o = parse("-np", "4", "-hosts", "a1.invalid:2,a2.invalid", "-launcher", "fork", "-wdir", "/tmp",
                "-genv", "A", "1", "-x", "B=2", "-ppn", "2", "Main", "arg");
        assertEquals(List.of("mpiexec.hydra", "-hosts", "a1.invalid:2,a2.invalid:1", "-ppn", "2", "-launcher", "fork",
                "-wdir", "/tmp", "-genv", "A", "1", "-genv", "B", "2", "-n", "4", "java", "-cp", "x", "Main", "arg"),
                ProcessManager.HYDRA.command("mpiexec.hydra", o, RANK));
    }

    @Test
    void theExecutableIsFoundOnThePathOrTheMessageSaysWhatToInstall(@TempDir Path dir) throws Exception {
        assertEquals(Optional.empty(), ProcessManager.SRUN.find(dir.toString()));
        Path srun = executable(dir.resolve("srun"));
        assertEquals(Optional.of(srun), ProcessManager.SRUN.find("/nonexistent:" + dir));
        assertEquals("inside the Slurm allocation 42 the job runs through srun, but srun is not on the PATH: "
                + "install Slurm's client (Debian: apt-get install slurm-client), or run on this machine alone with "
                + "--no-srun", ProcessManager.SRUN.missing(parse("-np", "2", "Main"), IN_ALLOCATION));
        assertEquals("the hosts name other machines (a1.invalid, a2.invalid): the job runs through mpiexec.hydra, "
                + "but mpiexec.hydra is not on the PATH: install MPICH (Debian: apt-get install mpich)",
                ProcessManager.HYDRA.missing(parse("-np", "2", "-hosts", "a1.invalid,localhost,a2.invalid,a1.invalid",
                        "Main"), Map.of()));
    }

    static Path executable(Path file) throws IOException {
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private static LaunchOptions parse(String... args) throws UsageException {
        return LaunchOptions.parse(List.of(args), SampleCatalog.of(Map.of()), Map.of());
    }
}

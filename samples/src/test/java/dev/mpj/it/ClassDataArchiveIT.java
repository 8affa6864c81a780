package dev.mpj.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The class-data archives of {@code mpjrun}: the first job makes them, every rank maps the ranks' archive
 * ({@code -Xshare:on} makes a JVM that cannot map it fail), which holds what connecting on demand loads, the
 * scripts give the launcher its own, and {@code MPJ_CDS=off} turns them off; on a newer Java (24 on) too, where the
 * ranks' archive is an AOT cache, without a line of errors from any rank.
 */
@Timeout(180)
@Tag("multi-jvm")
class ClassDataArchiveIT {
    /** As {@link Job#RANK_JVM_OPTS}, but a rank whose archive does not map fails to start. */
    private static final String SHARING_REQUIRED = "-Xmx64m -XX:TieredStopAtLevel=1 -Xshare:on";

    @Test
    void firstJobMakesTheArchivesAndEveryRankOfTheNextMapsIt(@TempDir Path cache) throws IOException {
        Job.Result first = job(cache).run("hello");
        assertEquals(0, first.exitCode(), first::err);
        assertTrue(first.err().contains("making the class-data archive"), first::err);
        assertEquals(1, archives(cache, "-ranks.jsa"), this::listing);
        assertEquals(1, archives(cache, "-launcher.jsa"), this::listing);

        Job.Result next = job(cache).run("hello");
        assertEquals(0, next.exitCode(), next::err);
        assertFalse(next.err().contains("making the class-data archive"), next::err);
        for (int r = 0; r < 3; r++) {
            assertTrue(next.out().contains("Hello from rank " + r + " of 3"), next::out);
        }
    }

    @Test
    void anOnDemandJobConnectsWithArchivedClasses(@TempDir Path cache) throws IOException {
        Job.Result first = job(cache).run("hello");
        assertEquals(0, first.exitCode(), first::err);

        // ring: rank 1 sends to rank 2 and rank 2 to rank 0 across the fake nodes, so connections open on demand
        Job.Result r = job(cache).env("MPJ_CONNECTIONS", "ondemand")
                .env("MPJ_JVM_OPTS", SHARING_REQUIRED + " -Xlog:class+load").run("ring");
        assertEquals(0, r.exitCode(), r::err);
        assertTrue(r.out().contains("token = "), r::out);
        assertTrue(r.out().contains("dev.mpj.transport.tcp.HandshakeConnector source: shared objects file"),
                "the connecting side's classes come from the jars: " + r.out());
    }

    /**
     * A program's first alltoall and first reduction of a vector link no lambda of the collectives' per-thread
     * scratch and load the reduction kernels from the archive (decision 0067).
     */
    @Test
    void firstCollectivesLinkNoScratchLambdaAndLoadTheKernelsFromTheArchive(@TempDir Path cache) throws IOException {
        Job.Result first = job(cache).run("hello");
        assertEquals(0, first.exitCode(), first::err);

        Job.Result r = job(cache).env("MPJ_JVM_OPTS", SHARING_REQUIRED + " -Xlog:class+load")
                .run("connbench", "--ops", "alltoall,allreduce", "--bytes", "1024", "-i", "1");
        assertEquals(0, r.exitCode(), r::err);
        List<String> loads = r.out().lines().filter(l -> l.contains(" source: ")).toList();
        for (String name : List.of("mpi.CollectiveScratch", "dev.mpj.runtime.coll.Bytes", "mpi.ArrayKernels",
                "mpi.ReductionKernels", "dev.mpj.runtime.coll.BinomialReduce")) {
            assertTrue(loads.stream().anyMatch(l -> l.contains(" " + name + " source: shared objects file")),
                    name + " not loaded from the archive: " + r.out());
        }
        String scratchLambda = ".* (mpi\\.(CollectiveScratch|ArrayKernels|GatherArrays|TransferBuffers)"
                + "|dev\\.mpj\\.runtime\\.coll\\.Bytes)\\$\\$Lambda.*";
        assertEquals(List.of(), loads.stream().filter(l -> l.matches(scratchLambda)).toList());
    }

    /**
     * A halo exchange of {@code double} faces as strided datatypes, run long enough for the first eager credit
     * return, takes the classes of its packing and strided layouts from the archive and links no lambda for the
     * return (decision 0074).
     */
    @Test
    void haloExchangeOfDoubleFacesLoadsItsClassesFromTheArchiveAndLinksNoCreditLambda(@TempDir Path cache)
            throws IOException {
        Job.Result first = job(cache).run("hello");
        assertEquals(0, first.exitCode(), first::err);

        // 40 iterations: each neighbour's 32 KiB faces pass half the default eager credit (1 MiB) in the 32nd
        Job.Result r = job(cache).env("MPJ_JVM_OPTS", SHARING_REQUIRED + " -Xlog:class+load")
                .run("stencil3d", "64", "40", "--datatypes");
        assertEquals(0, r.exitCode(), r::err);
        assertTrue(r.out().contains("faces=datatypes"), r::out);
        List<String> loads = r.out().lines().filter(l -> l.contains(" source: ")).toList();
        for (String name : List.of("java.nio.ByteBufferAsDoubleBufferL", "mpi.Typemap$Cursor", "mpi.GatherArrays",
                "mpi.RunCopy", "dev.mpj.runtime.engine.EagerCredit$Returns")) {
            assertTrue(loads.stream().anyMatch(l -> l.contains(" " + name + " source: shared objects file")),
                    name + " not loaded from the archive: " + r.out());
        }
        assertEquals(List.of(), loads.stream().filter(l -> l.contains("ProgressEngine$$Lambda")).toList());
    }

    /**
     * A halo exchange of faces above the eager threshold (128 KiB) through shared memory loads none of the
     * shared-memory transport's classes from the jars: the rendezvous's first frames that the ring hands over
     * rather than lets be taken in place find their class in the archive (decision 0135).
     */
    @Test
    void rendezvousFacesThroughSharedMemoryLoadNoSharedMemoryClassFromTheJars(@TempDir Path cache) throws IOException {
        Job.Result first = job(cache).run("hello");
        assertEquals(0, first.exitCode(), first::err);

        Job.Result r = job(cache).env("MPJ_JVM_OPTS", SHARING_REQUIRED + " -Xlog:class+load")
                .run("stencil3d", "128", "2");
        assertEquals(0, r.exitCode(), r::err);
        assertTrue(r.out().contains("n=128"), r::out);
        List<String> loads = r.out().lines().filter(l -> l.contains(" source: ")).toList();
        assertTrue(loads.stream().anyMatch(l -> l.contains(" dev.mpj.transport.shm.FramePool$PooledFrame source: "
                + "shared objects file")), "the ring's frame copies not loaded from the archive: " + r.out());
        assertEquals(List.of(), loads.stream()
                .filter(l -> l.contains(" dev.mpj.transport.shm.") && !l.contains("source: shared objects file"))
                .toList());
    }

    @Test
    void turnedOffRanksRunWithoutAnArchive(@TempDir Path cache) throws IOException {
        Job.Result r = job(cache).env("MPJ_CDS", "off").run("hello");
        assertEquals(0, r.exitCode(), r::err);
        assertEquals(0, archives(cache, ".jsa"));
    }

    @Test
    void mpjrunScriptStartsItsLauncherFromTheLauncherArchive(@TempDir Path cache) throws Exception {
        List<String> cmd = List.of("env", "MPJ_CDS_DIR=" + cache, "MPJ_LAUNCHER_OPTS=-Xlog:class+load",
                Commands.repoRoot().resolve("mpjrun").toString(), "-np", "2", "hello");
        Commands.Output next = twice(cmd).get(1);
        assertTrue(next.text().contains("dev.mpj.launcher.MpjRun source: shared objects file (top)"),
                next::text);
    }

    /**
     * Once the archives exist, the script hands the launcher the ranks' archive it found: the launcher hashes no
     * jar to name it (no SHA-1 class is loaded), and the rank still maps the runtime from it.
     */
    @Test
    void mpjrunScriptHandsTheLauncherTheRanksArchive(@TempDir Path cache) throws Exception {
        // through the launcher both times: a job of one that ran before would start without it
        List<String> cmd = List.of("env", "MPJ_CDS_DIR=" + cache, "MPJ_LAUNCHER_OPTS=-Xlog:class+load",
                "MPJ_DIRECT=off", "MPJ_JVM_OPTS=-Xmx64m -Xlog:class+load",
                Commands.repoRoot().resolve("mpjrun").toString(), "-np", "1", "hello");
        List<Commands.Output> runs = twice(cmd);
        Commands.Output first = runs.get(0);
        Commands.Output next = runs.get(1);
        assertTrue(first.text().contains("sun.security.provider.SHA "), "the first job names the archives itself");
        assertFalse(next.text().contains("sun.security.provider.SHA "), next::text);
        assertTrue(next.text().contains("dev.mpj.runtime.init.InitSequence source: shared objects file"),
                next::text); // a class of the rank's alone
    }

    /**
     * The training job runs on two nodes, yet a job on one node (the {@code roots} exchange) finds every runtime
     * class its ranks load in the archive: none is read from a jar inside {@code MPI.Init}.
     */
    @Test
    void ranksOnOneNodeLoadEveryRuntimeClassFromTheArchive(@TempDir Path cache) throws Exception {
        List<String> cmd = List.of("env", "MPJ_CDS_DIR=" + cache, "MPJ_JVM_OPTS=-Xmx64m -Xlog:class+load",
                Commands.repoRoot().resolve("mpjrun").toString(), "-np", "2", "hello");
        Commands.Output next = twice(cmd).get(1);
        List<String> runtime = next.text().lines().filter(l -> l.contains(" dev.mpj.runtime.")).toList();
        assertTrue(runtime.stream().anyMatch(l -> l.contains("dev.mpj.runtime.bootstrap.RootsAllgatherExchange ")),
                next::text);
        assertEquals(List.of(), runtime.stream().filter(l -> !l.contains("source: shared objects file")).toList());
    }

    /**
     * A job of one of jars alone: the launcher runs it first, the script starts it directly next and dumps the job's
     * own archive at its exit, and from then on the rank, started without the segment export, maps that archive,
     * which holds every class of mpj's and of the program's it loads.
     */
    @Test
    void aJobOfOneStartedDirectlyMapsItsOwnArchive(@TempDir Path cache) throws Exception {
        List<String> cmd = List.of("env", "MPJ_CDS_DIR=" + cache, "MPJ_JVM_OPTS=-Xmx64m -Xlog:class+load -Xlog:cds",
                Commands.repoRoot().resolve("mpjrun").toString(), "-np", "1", "hello");
        twice(cmd);
        try (Stream<Path> files = Files.list(cache)) {
            assertEquals(1, files.filter(f -> f.getFileName().toString().matches(".*-direct-.*\\.jsa")).count(),
                    this::listing);
        }
        Commands.Output third = Commands.run(cmd, Commands.repoRoot(), 60);
        assertEquals(0, third.exitCode(), third::text);
        assertTrue(third.text().contains("Hello from rank 0 of 1"), third::text);
        assertTrue(third.text().contains("optimized module handling: enabled"), third::text);
        List<String> mpj = third.text().lines().filter(l -> l.contains(" dev.mpj.")).toList();
        assertTrue(mpj.stream().anyMatch(l -> l.contains(" dev.mpj.runtime.pmi.SingletonPmiClient ")), third::text);
        assertEquals(List.of(), mpj.stream().filter(l -> !l.contains("source: shared objects file")).toList());
    }

    /**
     * From Java 24 on the ranks' archive is an AOT cache created with their flags, so no rank reports a mismatch; with
     * module options of the user's, which the JVM could not use it with, the launcher leaves it out and says so.
     */
    @Test
    void onANewerJavaEveryRankMapsTheArchiveWithoutErrors(@TempDir Path cache) throws Exception {
        Path jdk = newerJdk();
        assumeTrue(jdk != null, "no JDK 24 or newer in /usr/lib/jvm");
        List<String> cmd = mpjrunOn(jdk, cache, SHARING_REQUIRED + " -Xlog:class+load", "--fake-nodes", "2");
        List<Commands.Output> runs = twice(cmd);
        Commands.Output first = runs.get(0);
        Commands.Output next = runs.get(1);
        assertTrue(first.text().contains("making the class-data archive"), first::text);
        for (Commands.Output run : runs) {
            assertFalse(run.text().contains("[error]"), run::text);
            assertEquals(2, run.text().lines()
                    .filter(l -> l.contains("dev.mpj.runtime.MpjRuntime source: shared objects file")).count(),
                    run::text);
        }

        Commands.Output opens = Commands.run(
                mpjrunOn(jdk, cache, "-Xmx64m --add-opens java.base/java.lang=ALL-UNNAMED"), Commands.repoRoot(), 60);
        assertEquals(0, opens.exitCode(), opens::text);
        assertFalse(opens.text().contains("[error]"), opens::text);
        assertTrue(opens.text().contains("ranks start without a class-data archive"), opens::text);
    }

    /** The repository's {@code mpjrun} running {@code hello} on 2 ranks under {@code jdk}, with these rank options. */
    /** Runs {@code cmd} twice, the first run making the archives, and checks that both succeed. */
    private static List<Commands.Output> twice(List<String> cmd) throws Exception {
        Commands.Output first = Commands.run(cmd, Commands.repoRoot(), 120);
        assertEquals(0, first.exitCode(), first::text);
        Commands.Output next = Commands.run(cmd, Commands.repoRoot(), 60);
        assertEquals(0, next.exitCode(), next::text);
        return List.of(first, next);
    }

    private static List<String> mpjrunOn(Path jdk, Path cache, String jvmOptions, String... launcherOptions) {
        List<String> cmd = new ArrayList<>(List.of("env", "JAVA_HOME=" + jdk, "MPJ_CDS_DIR=" + cache, "MPJ_BUILD=0",
                "MPJ_JVM_OPTS=" + jvmOptions, Commands.repoRoot().resolve("mpjrun").toString(), "-np", "2"));
        cmd.addAll(List.of(launcherOptions));
        cmd.add("hello");
        return cmd;
    }

    /** A JDK of feature version 24 or later among the installed ones, or null. */
    private static Path newerJdk() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        try (Stream<Path> dirs = Files.list(jvms)) {
            return dirs.filter(d -> Files.isExecutable(d.resolve("bin/java")) && featureVersion(d) >= 24)
                    .sorted().findFirst().orElse(null);
        }
    }

    /** From the JDK's {@code release} file ({@code JAVA_VERSION="25.0.3"}); 0 when it cannot tell. */
    private static int featureVersion(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    int end = v.indexOf('.');
                    return Integer.parseInt(end < 0 ? v : v.substring(0, end));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not a JDK we can use here
        }
        return 0;
    }

    private static Job job(Path cache) {
        return Job.np(3).launcherOptions("--fake-nodes", "2").env("MPJ_CDS_DIR", cache.toString())
                .env("MPJ_JVM_OPTS", SHARING_REQUIRED);
    }

    private static long archives(Path cache, String suffix) throws IOException {
        if (!Files.isDirectory(cache)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(cache)) {
            return files.filter(f -> f.getFileName().toString().endsWith(suffix)).count();
        }
    }

    private String listing() {
        return "archives not as expected";
    }
}

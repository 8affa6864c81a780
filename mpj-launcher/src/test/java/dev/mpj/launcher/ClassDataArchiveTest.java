package dev.mpj.launcher;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ClassDataArchiveTest {
    @Test
    void archiveNamesAreWhatTheScriptsComputeWithStatAndSha1sum(@TempDir Path dir) throws Exception {
        Path a = Files.writeString(dir.resolve("a.jar"), "a");
        Path b = Files.writeString(dir.resolve("b b.jar"), "bb");
        List<String> jars = List.of(a.toString(), b.toString());
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/stat")) && Files.isExecutable(Path.of("/usr/bin/sha1sum")));
        assertEquals(shell("printf '%s\\n' \"$@\" | sha1sum | cut -c1-16", jars), ClassDataArchive.pathsKey(jars));
        List<String> stated = new ArrayList<>(List.of(dir.resolve("libjvm.so").toString()));
        Files.writeString(Path.of(stated.get(0)), "jvm");
        stated.addAll(jars);
        assertEquals(shell("stat -c '%n %s %Y' \"$@\" | sha1sum | cut -c1-16", stated),
                ClassDataArchive.stateKey(Path.of(stated.get(0)), jars));
    }

    @Test
    void archivesOfOtherClassPathsUnusedForAMonthAreRemovedWithTheirLocks(@TempDir Path dir) throws IOException {
        Instant now = Instant.now();
        Instant old = now.minus(ClassDataArchive.UNUSED_FOR).minusSeconds(60);
        Path mine = aged(dir.resolve("aaaa-1111-ranks.jsa"), old);
        Path mineLock = aged(dir.resolve("aaaa.lock"), old);
        Path unused = aged(dir.resolve("bbbb-2222-ranks.jsa"), old);
        Path unusedLauncher = aged(dir.resolve("bbbb-2222-launcher.jsa"), old);
        Path unusedFailure = aged(dir.resolve("bbbb-3333.failed"), old);
        Path unusedLock = aged(dir.resolve("bbbb.lock"), old);
        Path used = aged(dir.resolve("cccc-4444-ranks.jsa"), now);
        Path usedLauncherOld = aged(dir.resolve("cccc-4444-launcher.jsa"), old);
        Path usedLock = aged(dir.resolve("cccc.lock"), old);
        Path training = aged(dir.resolve("dddd-5555.123.ranks.tmp"), old);
        Path trainingLock = aged(dir.resolve("dddd.lock"), old);
        Path oldMemo = aged(dir.resolve("%opt%mpj-1%lib%a.jar-launcher.flag"), old);
        Path memo = aged(dir.resolve("%opt%mpj-2%lib%a.jar-ranks.flag"), now);

        ClassDataArchive.removeUnused(dir, "aaaa", now.minus(ClassDataArchive.UNUSED_FOR));

        for (Path gone : List.of(unused, unusedLauncher, unusedFailure, unusedLock, usedLauncherOld, oldMemo)) {
            assertFalse(Files.exists(gone), gone::toString);
        }
        for (Path kept : List.of(mine, mineLock, used, usedLock, training, trainingLock, memo)) {
            assertTrue(Files.exists(kept), kept::toString);
        }
    }

    @Test
    void makingAnArchiveRemovesThoseOfOlderBuildsAndKeepsAnotherJdksOfThisBuild(@TempDir Path dir)
            throws IOException {
        Instant now = Instant.now();
        Instant built = now.minus(ClassDataArchive.UNUSED_FOR).minus(Duration.ofDays(1)); // a build kept a while
        Path olderBuild = aged(dir.resolve("aaaa-1111-ranks.jsa"), built.minusSeconds(60));
        Path olderBuildFailure = aged(dir.resolve("aaaa-1112.failed"), built.minusSeconds(60));
        Path otherJdk = aged(dir.resolve("aaaa-2222-ranks.jsa"), now.minus(Duration.ofDays(2)));
        Path otherJdkLauncher = aged(dir.resolve("aaaa-2222-launcher.jsa"), now.minus(Duration.ofDays(2)));
        // made from this build by a JDK that was since upgraded in place, and so no longer used
        Path replacedJdk = aged(dir.resolve("aaaa-4444-ranks.jsa"), built.plus(Duration.ofHours(1)));
        Path killedTraining = aged(dir.resolve("aaaa-3333.123.ranks.tmp"), now);
        Path otherPaths = aged(dir.resolve("bbbb-1111-ranks.jsa"), built.minusSeconds(60));

        ClassDataArchive.removeStale(dir, "aaaa", "aaaa-3333", built, now.minus(ClassDataArchive.UNUSED_FOR));

        for (Path gone : List.of(olderBuild, olderBuildFailure, replacedJdk, killedTraining)) {
            assertFalse(Files.exists(gone), gone::toString);
        }
        for (Path kept : List.of(otherJdk, otherJdkLauncher, otherPaths)) {
            assertTrue(Files.exists(kept), kept::toString);
        }
    }

    @Test
    void usingAnArchiveBringsItsTimeForwardAtMostOnceADay(@TempDir Path dir) throws IOException {
        Instant now = Instant.now();
        Path stale = aged(dir.resolve("a-ranks.jsa"), now.minus(Duration.ofDays(2)));
        Instant recent = now.minusSeconds(3600);
        Path fresh = aged(dir.resolve("b-ranks.jsa"), recent);

        ClassDataArchive.markUsed(stale, now);
        ClassDataArchive.markUsed(fresh, now);
        ClassDataArchive.markUsed(dir.resolve("absent-launcher.jsa"), now);

        assertEquals(now.getEpochSecond(), Files.getLastModifiedTime(stale).toInstant().getEpochSecond());
        assertEquals(recent.getEpochSecond(), Files.getLastModifiedTime(fresh).toInstant().getEpochSecond());
    }

    private static Path aged(Path file, Instant modified) throws IOException {
        Files.writeString(file, file.getFileName().toString());
        Files.setLastModifiedTime(file, FileTime.from(modified));
        return file;
    }

    /** bin/mpj-archive-flag, sourced as the mpjrun scripts do: a flag it found is remembered until a jar is newer. */
    @Test
    void theScriptsRememberTheFlagTheyFoundUntilAJarIsNewerThanTheMemo(@TempDir Path dir) throws Exception {
        Path script = Path.of("..", "mpj-dist", "src", "bin", "mpj-archive-flag").toAbsolutePath().normalize();
        assumeTrue(Files.isRegularFile(script) && Files.isExecutable(Path.of("/usr/bin/stat"))
                && Files.isExecutable(Path.of("/usr/bin/sha1sum")));
        Instant now = Instant.now();
        Path a = aged(dir.resolve("a.jar"), now.minusSeconds(60));
        Path b = aged(dir.resolve("b.jar"), now.minusSeconds(60));
        List<String> jars = List.of(a.toString(), b.toString());
        Path cds = Files.createDirectory(dir.resolve("cds"));
        Path javaHome = Path.of(System.getProperty("java.home")).toRealPath();
        Path archive = Files.writeString(cds.resolve(ClassDataArchive.pathsKey(jars) + "-"
                + ClassDataArchive.stateKey(javaHome.resolve("lib/server/libjvm.so"), jars) + "-launcher.jsa"), "a");
        List<String> args = List.of(script.toString(), cds.toString(), javaHome.toString(), a + ":" + b);
        String flag = "source \"$1\"; MPJ_CDS_DIR=\"$2\" JAVA_HOME=\"$3\" mpj_archive_flag launcher \"$4\"";

        assertEquals("-XX:SharedArchiveFile=" + archive, shell(flag, args));
        String found = "source \"$1\"; MPJ_CDS_DIR=\"$2\" JAVA_HOME=\"$3\" mpj_find_archive_flag launcher \"$4\"; "
                + "echo \"[$mpj_archive_flag_found]\"";
        assertEquals("[-XX:SharedArchiveFile=" + archive + "]", shell(found, args), "set without being printed");
        Path memo = cds.resolve(a.toString().replace('/', '%') + "-launcher" + ClassDataArchive.MEMO_SUFFIX);
        List<String> lines = new ArrayList<>(Files.readAllLines(memo));
        Path other = Files.writeString(cds.resolve("other-launcher.jsa"), "o");
        lines.set(2, "-XX:SharedArchiveFile=" + other);
        Files.write(memo, lines);
        assertEquals("-XX:SharedArchiveFile=" + other, shell(flag, args), "the memo answers");
        Files.setLastModifiedTime(memo, FileTime.from(now.minusSeconds(3600)));
        assertEquals("-XX:SharedArchiveFile=" + archive, shell(flag, args), "a jar is newer than the memo");
    }

    @Test
    void theRanksArchiveTheScriptFoundIsUsedAsItIsAndMarkedUsedWithItsLaunchersArchive(@TempDir Path dir)
            throws IOException {
        Instant old = Instant.now().minus(Duration.ofDays(2));
        Path ranks = aged(dir.resolve("aaaa-1111-ranks.jsa"), old);
        Path launcher = aged(dir.resolve("aaaa-1111-launcher.jsa"), old);

        RankJvmFlags flags = ClassDataArchive.rankFlags("/opt/mpj/runtime.jar", List.of(), Map.of(), quiet(),
                ranks.toString());

        assertEquals(List.of("-XX:SharedArchiveFile=" + ranks), flags.of(0));
        assertEquals(flags.of(0), flags.of(3));
        assertTrue(Files.getLastModifiedTime(ranks).toInstant().isAfter(old.plusSeconds(60)));
        assertTrue(Files.getLastModifiedTime(launcher).toInstant().isAfter(old.plusSeconds(60)));
    }

    @Test
    void aRanksArchiveTheScriptNamedThatIsGoneIsNamedAgainByTheLauncher(@TempDir Path dir) {
        // a launcher outside the built jars names no archive of its own: no flags, rather than the missing file
        RankJvmFlags flags = ClassDataArchive.rankFlags("/opt/mpj/runtime.jar", List.of(), Map.of(), quiet(),
                dir.resolve("aaaa-1111-ranks.jsa").toString());
        assertEquals(List.of(), flags.of(0));
    }

    @Test
    void aRebuiltJarGetsAnotherArchive(@TempDir Path dir) throws IOException {
        Path jar = Files.writeString(dir.resolve("a.jar"), "a");
        Path libjvm = Files.writeString(dir.resolve("libjvm.so"), "jvm");
        String before = ClassDataArchive.stateKey(libjvm, List.of(jar.toString()));
        Files.writeString(jar, "a, rebuilt");
        assertFalse(before.equals(ClassDataArchive.stateKey(libjvm, List.of(jar.toString()))));
    }

    @Test
    void trainingLauncherMakesRankZeroAloneWriteTheArchive() {
        RankJvmFlags flags = ClassDataArchive.rankFlags("/opt/mpj/runtime.jar", List.of(),
                Map.of(ClassDataArchive.DUMP_VARIABLE, "/tmp/x.tmp"), quiet());
        assertEquals(ClassDataArchive.dumpFlags(Runtime.version().feature(), "/tmp/x.tmp"), flags.of(0));
        assertEquals(List.of(), flags.of(1));
    }

    @Test
    void findsTheOptionsThatChangeTheModuleGraph() {
        assertEquals("--add-opens", ClassDataArchive.moduleOption(
                List.of("-Xmx64m", "--add-opens", "java.base/java.lang=ALL-UNNAMED")));
        assertEquals("--add-exports", ClassDataArchive.moduleOption(
                List.of("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED")));
        assertEquals("-javaagent", ClassDataArchive.moduleOption(List.of("-javaagent:/opt/agent.jar", "-Xss1m")));
        assertEquals(null, ClassDataArchive.moduleOption(
                List.of("-Xmx64m", "-XX:TieredStopAtLevel=1", "-Dmpj.add-opens=x")));
        assertEquals(null, ClassDataArchive.moduleOption(List.of()));
    }

    @Test
    void fromJava24TheTrainingRecordsAnAotConfiguration() {
        assertEquals(List.of("-XX:ArchiveClassesAtExit=/tmp/x"), ClassDataArchive.dumpFlags(17, "/tmp/x"));
        assertEquals(List.of("-XX:ArchiveClassesAtExit=/tmp/x"), ClassDataArchive.dumpFlags(23, "/tmp/x"));
        for (int feature : new int[] {24, 25}) {
            assertEquals(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=/tmp/x"),
                    ClassDataArchive.dumpFlags(feature, "/tmp/x"));
        }
    }

    @Test
    void turnedOffRanksGetNoArchive() {
        for (String off : List.of("off", "OFF", "0", "false")) {
            assertEquals(List.of(), ClassDataArchive.rankFlags("/opt/mpj/runtime.jar", List.of(),
                    Map.of(ClassDataArchive.SWITCH_VARIABLE, off), quiet()).of(0), off);
        }
        assertFalse(ClassDataArchive.isOff("on"));
        assertFalse(ClassDataArchive.isOff(null));
    }

    @Test
    void runtimeRunningFromClassDirectoriesHasNoArchive() {
        // as in these unit tests: the JVM can archive jars only
        assertNull(ClassDataArchive.of(List.of("/opt/lib/netty.jar"), Map.of()));
        assertEquals(List.of(), ClassDataArchive.rankFlags(System.getProperty("java.class.path"), List.of(), Map.of(),
                quiet()).of(0));
    }

    @Test
    void archivesLiveInMpjCdsDirElseUnderXdgCacheHomeElseHomeCache() {
        assertEquals(Path.of("/x/cds"), ClassDataArchive.directory(Map.of(ClassDataArchive.DIR_VARIABLE, "/x/cds")));
        assertEquals(Path.of("/c/mpj/cds"), ClassDataArchive.directory(Map.of("XDG_CACHE_HOME", "/c")));
        assertEquals(Path.of(System.getProperty("user.home"), ".cache", "mpj", "cds"),
                ClassDataArchive.directory(Map.of()));
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    private static String shell(String script, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", script, "sh"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }
}

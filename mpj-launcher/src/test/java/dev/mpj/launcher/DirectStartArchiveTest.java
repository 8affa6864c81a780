package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectStartArchiveTest {
    private static final SampleCatalog SAMPLES = SampleCatalog.of(Map.of("hello", "dev.mpj.samples.Hello"));

    @TempDir
    Path dir;

    private String jars() throws IOException {
        Path a = Files.createFile(dir.resolve("a.jar"));
        Path b = Files.createFile(dir.resolve("b.jar"));
        return a + ":" + b;
    }

    private String memo() {
        return dir.resolve("x.jar-direct" + ClassDataArchive.MEMO_SUFFIX).toString();
    }

    private static LaunchOptions options(String jvmOptions, String... args) throws UsageException {
        return LaunchOptions.parse(List.of(args), SAMPLES, Map.of(LaunchOptions.JVM_OPTS_VARIABLE, jvmOptions));
    }

    @Test
    void theRankMapsAnArchiveBesideTheMemoWithoutTheSegmentExport() throws Exception {
        DirectStartArchive archive = DirectStartArchive.of(memo(), options("-Xmx64m", "-np", "1", "hello"), Map.of(),
                jars());
        RankJvmFlags flags = archive.rankFlags();
        assertFalse(flags.mapsSegment());
        String flag = flags.of(0).get(0);
        assertTrue(flag.startsWith(ClassDataArchive.USE_FLAG + dir.resolve("x.jar-direct-")), flag);
        assertTrue(flag.endsWith(DirectStartArchive.SUFFIX), flag);
    }

    /** The JVM refuses an archive dumped for another class path or other options: each has its own. */
    @Test
    void anotherClassPathOrOtherOptionsNameAnotherArchive() throws Exception {
        String jars = jars();
        String one = DirectStartArchive.of(memo(), options("-Xmx64m", "-np", "1", "hello"), Map.of(), jars)
                .rankFlags().of(0).get(0);
        String otherOptions = DirectStartArchive.of(memo(), options("-Xmx1g", "-np", "1", "hello"), Map.of(), jars)
                .rankFlags().of(0).get(0);
        String otherJars = DirectStartArchive.of(memo(), options("-Xmx64m", "-np", "1", "hello"), Map.of(),
                jars.substring(0, jars.indexOf(':'))).rankFlags().of(0).get(0);
        assertNotEquals(one, otherOptions);
        assertNotEquals(one, otherJars);
        assertEquals(one, DirectStartArchive.of(memo(), options("-Xmx64m", "-np", "1", "hello"), Map.of(), jars)
                .rankFlags().of(0).get(0));
    }

    /** Options that change the module graph or name an archive of their own keep the ranks' archive. */
    @ParameterizedTest
    @ValueSource(strings = {"--add-opens=java.base/java.lang=ALL-UNNAMED", "-Xshare:off",
            "-XX:SharedArchiveFile=/tmp/mine.jsa", "-XX:ArchiveClassesAtExit=/tmp/mine.jsa"})
    void userArchiveOrModuleOptionsKeepTheRanksArchive(String option) throws Exception {
        assertNull(DirectStartArchive.of(memo(), options(option, "-np", "1", "hello"), Map.of(), jars()));
    }

    @Test
    void aClassDirectoryTurnedOffArchivesOrSeveralRanksKeepTheRanksArchive() throws Exception {
        String jars = jars();
        Files.createDirectories(dir.resolve("classes"));
        assertNull(DirectStartArchive.of(memo(), options("", "-np", "1", "-cp", dir.resolve("classes").toString(),
                "org.x.Main"), Map.of(), jars));
        assertNull(DirectStartArchive.of(memo(), options("", "-np", "1", "hello"), Map.of("MPJ_CDS", "off"), jars));
        assertNull(DirectStartArchive.of(memo(), options("", "-np", "2", "hello"), Map.of(), jars));
        assertNull(DirectStartArchive.of(null, options("", "-np", "1", "hello"), Map.of(), jars));
    }
}

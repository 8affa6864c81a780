package dev.mpj.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectStartMemoTest {
    private static final SampleCatalog SAMPLES = SampleCatalog.of(Map.of("hello", "dev.mpj.samples.Hello"));

    private static LaunchOptions options(String... args) throws UsageException {
        return LaunchOptions.parse(List.of(args), SAMPLES, Map.of());
    }

    @Test
    void aJobOfOneWithNothingForTheLauncherQualifies() throws UsageException {
        assertTrue(DirectStartMemo.qualifies(options("-np", "1", "hello"), Map.of("PWD", "/tmp")));
        assertTrue(DirectStartMemo.qualifies(options("-n", "1", "-cp", "app", "org.x.Main", "a"), Map.of()));
        assertTrue(DirectStartMemo.qualifies(options("-np", "1", "--fake-nodes", "1", "--oversubscribe", "hello"),
                Map.of()));
    }

    /** Each needs the launcher: several ranks, or what only the launcher does for a job of one. */
    @ParameterizedTest
    @ValueSource(strings = {"-np 2 hello", "-np 1 --timeout 5 hello", "-np 1 -l hello", "-np 1 -env A 1 hello",
            "-np 1 -wdir /tmp hello", "-np 1 -hosts localhost hello", "-np 1 --no-srun hello"})
    void optionsTheLauncherServesDoNotQualify(String args) throws UsageException {
        assertFalse(DirectStartMemo.qualifies(options(args.split(" ")), Map.of()));
    }

    /** Each says a process manager or another PMI client runs the job, or asks for the archive's training. */
    @ParameterizedTest
    @ValueSource(strings = {"SLURM_JOB_ID", "PMI_PORT", "PMI_FD", "MPJ_PMI", "MPJ_CDS_DUMP"})
    void variablesOfAnotherManagerOrClientDoNotQualify(String variable) throws UsageException {
        assertFalse(DirectStartMemo.qualifies(options("-np", "1", "hello"), Map.of(variable, "x")));
    }

    @Test
    void aPmiClientChosenInTheRanksFlagsDoesNotQualify() throws UsageException {
        LaunchOptions o = LaunchOptions.parse(List.of("-np", "1", "hello"), SAMPLES,
                Map.of(LaunchOptions.JVM_OPTS_VARIABLE, "-Dmpj.pmi=pmi2"));
        assertFalse(DirectStartMemo.qualifies(o, Map.of()));
    }

    @Test
    void theMemoHoldsTheInputsThenTheCommand() {
        List<String> lines = DirectStartMemo.lines("a.jar:b.jar", "/c/r.jsa", List.of("-np", "1", "hello"),
                Map.of("PWD", "/w", "MPJ_JVM_OPTS", "-Xmx64m", "JAVA_HOME", "/j", "HOME", "/root", "PMI_X", "1"),
                List.of("java", "-cp", "a.jar:b.jar", "dev.mpj.samples.Hello"));
        assertEquals(List.of(DirectStartMemo.HEADER, "a.jar:b.jar", "/c/r.jsa", "/w", "3", "-np", "1", "hello",
                "3", "JAVA_HOME=/j", "MPJ_JVM_OPTS=-Xmx64m", "PMI_X=1",
                "4", "java", "-cp", "a.jar:b.jar", "dev.mpj.samples.Hello"), lines);
    }

    @Test
    void aValueWithALineBreakOrNoWorkingDirectoryMakesNoMemo() {
        assertNull(DirectStartMemo.lines("a.jar", "", List.of("-np", "1", "x\ny"), Map.of("PWD", "/w"),
                List.of("java")));
        assertNull(DirectStartMemo.lines("a.jar", "", List.of("-np", "1", "x"), Map.of(), List.of("java")));
    }

    @Test
    void theArchiveIsTheOneTheRankMaps() {
        assertEquals("/c/r.jsa", DirectStartMemo.archive(List.of("-Xmx1g", "-XX:SharedArchiveFile=/c/r.jsa")));
        assertEquals("", DirectStartMemo.archive(List.of()));
    }
}

package dev.mpj.launcher;

import dev.mpj.runtime.config.BindTo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoreBindingTest {
    private static final List<String> JAVA = List.of("java", "Main");

    @ParameterizedTest
    @EnumSource(value = BindTo.class, names = {"AUTO", "CORE"})
    void rankIRunsOnTheIthAllowedCpuWhenTheRanksFit(BindTo mode) {
        CoreBinding b = CoreBinding.of(mode, 3, List.of(2, 5, 7, 9));
        assertTrue(b.binds());
        assertEquals(List.of("taskset", "-c", "2", "java", "Main"), b.command(0, JAVA));
        assertEquals(List.of("taskset", "-c", "7", "java", "Main"), b.command(2, JAVA));
    }

    @ParameterizedTest
    @EnumSource(value = BindTo.class, names = {"AUTO", "CORE"})
    void ranksThatOutnumberTheAllowedCpusRunUnbound(BindTo mode) {
        CoreBinding b = CoreBinding.of(mode, 3, List.of(0, 1));
        assertFalse(b.binds());
        assertEquals(JAVA, b.command(1, JAVA));
    }

    @Test
    void noneLeavesEveryRankUnbound() {
        assertFalse(CoreBinding.of(BindTo.NONE, 1, List.of(0, 1)).binds());
    }

    @Test
    void unknownCpusLeaveEveryRankUnbound() {
        assertFalse(CoreBinding.of(BindTo.CORE, 1, List.of()).binds());
    }

    @Test
    void withoutTasksetOnThePathTheRanksRunUnbound(@TempDir Path empty) {
        assertFalse(CoreBinding.ofThisProcess(BindTo.CORE, 1, empty.toString()).binds());
    }

    @Test
    void aBoundRankLearnsTheCpusItsNodeShares() {
        Map<String, String> env = new HashMap<>();
        CoreBinding.of(BindTo.AUTO, 2, List.of(0, 1, 2, 3)).addTo(env);
        assertEquals(Map.of("MPJ_NODE_CPUS", "4"), env);
        Map<String, String> unbound = new HashMap<>();
        CoreBinding.NONE.addTo(unbound);
        assertEquals(Map.of(), unbound);
    }

    @Test
    void cpuListsReadAsLinuxWritesThem() {
        assertEquals(List.of(0, 1), CoreBinding.cpuList("0-1"));
        assertEquals(List.of(3), CoreBinding.cpuList("3"));
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), CoreBinding.cpuList("0-3,8,10-11"));
        assertThrows(IllegalArgumentException.class, () -> CoreBinding.cpuList("3-1"));
        assertThrows(IllegalArgumentException.class, () -> CoreBinding.cpuList("x"));
    }

    @Test
    void theAllowedCpusComeFromTheStatusFilesLine(@TempDir Path dir) throws IOException {
        Path status = Files.writeString(dir.resolve("status"),
                "Name:\tjava\nCpus_allowed:\t0f\nCpus_allowed_list:\t1-2,6\nMems_allowed:\t1\n");
        assertEquals(List.of(1, 2, 6), CoreBinding.allowedCpus(status));
        assertEquals(List.of(), CoreBinding.allowedCpus(dir.resolve("absent")));
        assertEquals(List.of(), CoreBinding.allowedCpus(Files.writeString(dir.resolve("odd"),
                "Cpus_allowed_list:\tall\n")));
    }
}

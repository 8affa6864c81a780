package dev.mpj.launcher;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmStartFlagsTest {
    @Test
    void theScriptsGiveTheLauncherTheFlagsTheRanksGet() throws IOException {
        String script = Files.readString(Path.of("..", "mpj-dist", "src", "bin", "mpj-archive-flag"));
        Matcher m = Pattern.compile("(?m)^mpj_start_flags=\\(([^)]*)\\)$").matcher(script);
        assertTrue(m.find(), "mpj-archive-flag defines mpj_start_flags");
        assertEquals(JvmStartFlags.FLAGS, List.of(m.group(1).trim().split("\\s+")));
    }

    @Test
    void thisJvmTakesThemAndMapsItsArchiveWhereItWasDumped() throws Exception {
        List<String> command = new ArrayList<>(List.of(RankCommand.javaExecutable()));
        command.addAll(JvmStartFlags.FLAGS);
        command.addAll(List.of("-Xshare:auto", "-Xlog:cds=info", "-version"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertFalse(out.contains("at an alternative address"), out);
    }
}

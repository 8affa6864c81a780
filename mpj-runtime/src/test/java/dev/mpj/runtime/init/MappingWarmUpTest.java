package dev.mpj.runtime.init;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class MappingWarmUpTest {

    @Test
    void neverThrows() {
        assertDoesNotThrow(MappingWarmUp::run);
    }

    /**
     * In a JVM that has mapped nothing yet, the warm-up alone initialises what the first {@code FileChannel.map}
     * and the node segment's first Agrona buffer would otherwise initialise on the caller's thread.
     */
    @Test
    @Tag("multi-jvm")
    @Timeout(60)
    void initialisesTheFirstMappingsStartUp() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Xlog:class+init=info", "-cp", System.getProperty("java.class.path"), WarmUpMain.class.getName())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), output);
        assertTrue(output.contains("warmed up"), output);
        for (String initialised : new String[] {MappingWarmUp.EXTENDED_MAP_MODE, "org.agrona.SystemUtil",
                "org.agrona.BufferUtil"}) {
            // -Xlog:class+init names each class as it initialises it: Initializing 'java/lang/String'
            assertTrue(output.contains("Initializing '" + initialised.replace('.', '/') + "'"),
                    initialised + " not initialised:\n" + output);
        }
    }

    /** The child JVM's program: the warm-up and nothing else. */
    static final class WarmUpMain {
        public static void main(String[] args) {
            MappingWarmUp.run();
            System.out.println("warmed up");
        }
    }
}

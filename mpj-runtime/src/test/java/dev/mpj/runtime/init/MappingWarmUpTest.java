package dev.mpj.runtime.init;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mpj.runtime.testing.SmallJvm;
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
        String output = SmallJvm.run(WarmUpMain.class, "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Xlog:class+init=info");
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

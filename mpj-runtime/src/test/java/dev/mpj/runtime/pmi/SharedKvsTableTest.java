package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared-memory KVS table over a real mapped file: a writer's mapping and readers' mappings of its file. */
@Timeout(60)
class SharedKvsTableTest {
    @TempDir
    Path dir;

    private static String value(int i) {
        return Integer.toHexString(i * 7919).repeat(1 + i % 9);
    }

    @Test
    void aReaderMappingFindsEveryKeyTheWriterPutAndNoOther() {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 5000, 5000 * 80);
             SharedKvsTable reader = SharedKvsTable.open(file)) {
            for (int i = 0; i < 5000; i++) {
                writer.put("mpj-card-" + i, value(i));
            }
            for (int i = 0; i < 5000; i++) {
                assertEquals(value(i), reader.get("mpj-card-" + i), "key " + i);
            }
            assertNull(reader.get("mpj-card-5000"));
            assertNull(reader.get("mpj-card-"));
        }
    }

    @Test
    void aReaderWarmedBeforeTheWriterFillsTheTableFindsWhatItPutsAfter() {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 5000, 5000 * 80);
             SharedKvsTable reader = SharedKvsTable.open(file)) {
            assertTrue(reader.warm(), "maps the pages a rank reads first while its fence is pending");
            assertFalse(reader.warm(), "once");
            for (int i = 0; i < 5000; i++) {
                writer.put("mpj-card-" + i, value(i));
            }
            for (int i = 0; i < 5000; i++) {
                assertEquals(value(i), reader.get("mpj-card-" + i), "key " + i);
            }
            assertEquals("1", reader.get(SharedKvsTable.WARM_KEY));
        }
    }

    @Test
    void puttingAKeyAgainReplacesItsValueForReaders() {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 4, 256);
             SharedKvsTable reader = SharedKvsTable.open(file)) {
            writer.put("k", "first");
            writer.put("k", "second");
            assertEquals("second", reader.get("k"));
        }
    }

    @Test
    void aReaderRacingTheWriterSeesEachKeyEitherMissingOrWhole() throws Exception {
        Path file = dir.resolve("kvs");
        int keys = 20000;
        try (SharedKvsTable writer = SharedKvsTable.create(file, keys, keys * 80);
             SharedKvsTable reader = SharedKvsTable.open(file)) {
            AtomicReference<String> torn = new AtomicReference<>();
            Thread racing = new Thread(() -> {
                for (int round = 0; round < 20 && torn.get() == null; round++) {
                    for (int i = 0; i < keys; i += 7) {
                        String v = reader.get("key-" + i);
                        if (v != null && !v.equals(value(i))) {
                            torn.set("key-" + i + " read as " + v);
                        }
                    }
                }
            });
            racing.start();
            for (int i = 0; i < keys; i++) {
                writer.put("key-" + i, value(i));
            }
            racing.join();
            assertNull(torn.get());
        }
    }

    @Test
    void aFullTableRefusesThePutInsteadOfOverwriting() {
        try (SharedKvsTable writer = SharedKvsTable.create(dir.resolve("kvs"), 1, 8)) {
            writer.put("a", "1");
            PmiException e = assertThrows(PmiException.class, () -> writer.put("b", "x".repeat(64)));
            assertEquals("the shared PMI key-value table is full", e.getMessage().substring(0, 38));
            assertEquals("1", writer.get("a"));
        }
    }

    @Test
    void aFileThatIsNoTableIsRefused() throws Exception {
        Path file = Files.write(dir.resolve("other"), new byte[4096]);
        assertThrows(PmiException.class, () -> SharedKvsTable.open(file));
    }

    @Test
    void aReaderCannotPut() {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 4, 64);
             SharedKvsTable reader = SharedKvsTable.open(file)) {
            assertThrows(IllegalStateException.class, () -> reader.put("k", "v"));
            assertNull(writer.get("k"));
        }
    }
}

package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shared-memory KVS table over a real mapped file: a writer's mapping and readers' mappings of its file, each
 * reader both ways a JVM may read it (straight from the mapping's address, as the ranks do, or through the buffer).
 */
@Timeout(60)
class SharedKvsTableTest {
    @TempDir
    Path dir;

    private static String value(int i) {
        return Integer.toHexString(i * 7919).repeat(1 + i % 9);
    }

    @ParameterizedTest(name = "direct reads {0}")
    @ValueSource(booleans = {true, false})
    void aReaderMappingFindsEveryKeyTheWriterPutAndNoOther(boolean direct) {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 5000, 5000 * 80);
             SharedKvsTable reader = SharedKvsTable.open(file, direct)) {
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

    @ParameterizedTest(name = "direct reads {0}")
    @ValueSource(booleans = {true, false})
    void aReaderWarmedBeforeTheWriterFillsTheTableFindsWhatItPutsAfter(boolean direct) {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 5000, 5000 * 80);
             SharedKvsTable reader = SharedKvsTable.open(file, direct)) {
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

    @ParameterizedTest(name = "direct reads {0}")
    @ValueSource(booleans = {true, false})
    void puttingAKeyAgainReplacesItsValueForReaders(boolean direct) {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 4, 256);
             SharedKvsTable reader = SharedKvsTable.open(file, direct)) {
            writer.put("k", "first");
            writer.put("k", "second");
            assertEquals("second", reader.get("k"));
        }
    }

    @ParameterizedTest(name = "direct reads {0}")
    @ValueSource(booleans = {true, false})
    void aReaderRacingTheWriterSeesEachKeyEitherMissingOrWhole(boolean direct) throws Exception {
        Path file = dir.resolve("kvs");
        int keys = 20000;
        try (SharedKvsTable writer = SharedKvsTable.create(file, keys, keys * 80);
             SharedKvsTable reader = SharedKvsTable.open(file, direct)) {
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
    void aReaderInAJvmThatExportsJdkInternalMiscReadsStraightFromTheMapping() {
        Path file = dir.resolve("kvs");
        try (SharedKvsTable writer = SharedKvsTable.create(file, 4, 256);
             SharedKvsTable reader = SharedKvsTable.open(file);
             SharedKvsTable throughBuffer = SharedKvsTable.open(file, false)) {
            assertTrue(Object.class.getModule().isExported("jdk.internal.misc", getClass().getModule()),
                    "the build gives the tests' JVM the ranks' export");
            assertTrue(reader.readsDirectly());
            assertFalse(throughBuffer.readsDirectly());
            assertFalse(writer.readsDirectly(), "the writer, in mpjrun's JVM, writes through the buffer");
        }
    }

    @ParameterizedTest(name = "direct reads {0}")
    @ValueSource(booleans = {true, false})
    void anEntryWithACorruptLengthFailsTheGetRatherThanReadingPastTheMapping(boolean direct) throws Exception {
        Path file = dir.resolve("kvs");
        String key = "mpj-corrupt-entry";
        try (SharedKvsTable writer = SharedKvsTable.create(file, 4, 256);
             SharedKvsTable reader = SharedKvsTable.open(file, direct)) {
            writer.put(key, "v");
            byte[] bytes = Files.readAllBytes(file);
            int keyAt = new String(bytes, StandardCharsets.ISO_8859_1).indexOf(key);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ByteBuffer huge = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
                huge.putInt(0, Integer.MAX_VALUE / 2);
                channel.write(huge, keyAt - 4); // the entry's value length, just before its key
            }
            PmiException e = assertThrows(PmiException.class, () -> reader.get(key));
            assertTrue(e.getMessage().startsWith("a corrupt entry"), e.getMessage());
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

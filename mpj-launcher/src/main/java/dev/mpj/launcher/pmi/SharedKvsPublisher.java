package dev.mpj.launcher.pmi;

import dev.mpj.runtime.pmi.SharedKvsTable;
import dev.mpj.runtime.pmi.wire.PmiException;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The job's published KVS in shared memory ({@link SharedKvsTable}), for ranks on this host to read without a
 * round trip (paper [2] of REFERENCES): every barrier writes what it publishes here before it answers. Sized for
 * the job's cards; when an update does not fit, the table is disabled and the ranks ask the server again. The file
 * is the owner's only. Every rank maps it while its client starts, before it can enter a barrier, so the first
 * barrier removes the file (the mappings stay, as with the node segment, decision 0006): a launcher killed later
 * leaves nothing behind. Otherwise it goes when the server closes or the JVM exits; a launcher killed before its
 * first barrier leaves it to the next server on the machine, which removes tables whose launcher is gone (as node
 * roots do with stale segments, decision 0017); a node agent's JVM killed so leaves it to mpjrun, which sweeps once
 * its agents have ended. The keys the server answers itself ({@code PMI_process_mapping})
 * are written when the table is made, so that a rank's first get, before any barrier, needs no round trip either;
 * a rank's put of such a key never reaches the table, as the server's get never answers it.
 */
final class SharedKvsPublisher implements AutoCloseable {
    private static final String PREFIX = "mpj-kvs-";

    /** Keys per rank the table is sized for (a card, its segments, a few more), and bytes per key and value. */
    private static final int KEYS_PER_RANK = 4;
    private static final int BYTES_PER_KEY = 128;

    private final Path file;
    private final SharedKvsTable table;
    /** What the server answers itself, written at creation and never replaced by a rank's put. */
    private final Map<String, String> served;
    private boolean disabled;
    private boolean removed;

    private SharedKvsPublisher(Path file, SharedKvsTable table, Map<String, String> served) {
        this.file = file;
        this.table = table;
        this.served = served;
    }

    /**
     * A table for a job of {@code size} ranks in {@code dir} holding {@code served} (the keys the server answers
     * itself) from the start, or null when it cannot be made there.
     */
    static SharedKvsPublisher create(Path dir, String kvsName, int size, Map<String, String> served) {
        removeStale(dir);
        Path file = dir.resolve(PREFIX + kvsName);
        int keys = KEYS_PER_RANK * size + 64 + served.size();
        int servedBytes = 0;
        for (Map.Entry<String, String> e : served.entrySet()) {
            servedBytes += e.getKey().length() + e.getValue().length();
        }
        try {
            SharedKvsTable table = SharedKvsTable.create(file, keys, keys * BYTES_PER_KEY + servedBytes);
            file.toFile().deleteOnExit();
            for (Map.Entry<String, String> e : served.entrySet()) {
                table.put(e.getKey(), e.getValue());
            }
            return new SharedKvsPublisher(file, table, Map.copyOf(served));
        } catch (RuntimeException | LinkageError e) {
            return null; // the ranks ask the server instead
        }
    }

    /**
     * Removes the tables in {@code dir} whose launcher no longer runs: {@code mpj-kvs-mpj_<pid>_<hex>}, named after
     * the KVS ({@link PmiServer#newKvsName()}). Failures are ignored: the new table does not depend on it.
     */
    static void removeStale(Path dir) {
        // every entry, filtered here: a glob is a regular expression, whose character classes link lambdas
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (!name.startsWith(PREFIX + "mpj_")) {
                    continue;
                }
                int from = PREFIX.length() + "mpj_".length();
                int to = name.indexOf('_', from);
                long pid = to < 0 ? -1 : Long.parseLong(name.substring(from, to));
                if (pid > 0 && ProcessHandle.of(pid).isEmpty()) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing to sweep, or nothing we may remove
        }
    }

    /** Where the ranks map it. */
    Path file() {
        return file;
    }

    /** Writes what a barrier publishes; disables the table for good when it does not fit. */
    void publish(Map<String, String> entries) {
        remove();
        if (disabled) {
            return;
        }
        try {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                if (!served.containsKey(e.getKey())) {
                    table.put(e.getKey(), e.getValue());
                }
            }
        } catch (PmiException e) {
            disabled = true;
            table.disable();
        }
    }

    @Override
    public void close() {
        table.close();
        remove();
    }

    private void remove() {
        if (!removed) {
            removed = true;
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // the JVM's exit removes it
            }
        }
    }
}

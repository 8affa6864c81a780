package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;
import dev.mpj.runtime.config.SegmentFiles;
import dev.mpj.runtime.config.UnsafeExport;
import org.agrona.UnsafeApi;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A node's PMI key-value store in shared memory, as paper [2] of REFERENCES publishes it after a fence: an
 * insert/lookup-only hash table that one writer (the node's PMI agent) fills and the node's ranks read directly,
 * with no round trip. One file mapped by all, in two regions after a header:
 * <pre>
 *   header  magic, bucket count (a power of two), data capacity, data used, disabled flag
 *   index   one int per bucket: 0 when empty, else 1 + the offset of the bucket's newest entry in the data region
 *   data    entries appended one after another: key length, value length, key bytes, value bytes (4-aligned)
 * </pre>
 * Keys hash (the key's {@link String#hashCode}, which the JDK has compiled and caches) to a bucket and probe linearly. The writer appends the entry, then publishes it by an ordered
 * write of the bucket, so a reader that sees the bucket sees the whole entry; putting a key again appends a new
 * entry and points the bucket at it. Nothing is ever removed, so readers need no lock. Keys and values are PMI's
 * printable ASCII. The writer accesses the mapping through the buffer's own accessors with {@link VarHandle} fences
 * for the ordering; a reader in a rank's JVM loads straight from the mapping's address ({@link IntView}). A rank
 * makes only a few gets, all of them interpreted and cold, so a get reads an entry in one bulk copy and decodes it
 * without a charset scan, and a reader {@link #warm warms} the table while it waits in its first fence when many
 * gets follow.
 */
public final class SharedKvsTable implements AutoCloseable {
    /** The field of mpjrun's PMI-1 {@code maxes} reply that gives the table's path. */
    public static final String PMI1_OFFER = "mpj_kvs_table";
    /** The field of mpjrun's PMI-2 {@code fullinit-response} that gives the table's path. */
    public static final String PMI2_OFFER = "mpj-kvs-table";
    private static final int MAGIC = 0x4d504a48; // "MPJH": keys hashed by String.hashCode
    private static final int MAGIC_OFFSET = 0;
    private static final int BUCKETS_OFFSET = 4;
    private static final int CAPACITY_OFFSET = 8;
    private static final int USED_OFFSET = 12;
    private static final int DISABLED_OFFSET = 16;
    private static final int HEADER = 64;
    private static final int ENTRY_HEADER = 8;
    /**
     * A key of mpj's own that the writer puts at creation, so that a reader's warm-up finds it and runs the whole
     * lookup once before its first real get. A rank that gets it before anyone puts it reads "1".
     */
    static final String WARM_KEY = "mpj-kvs-warm";
    /** The data bytes a reader's warm-up maps beside the header and the index: where a job's first fences write. */
    private static final int WARM_DATA_BYTES = 1 << 18;
    private static final int PAGE = 4096;
    /** Whether this JVM lets {@link UnsafeApi} reach {@code jdk.internal.misc}. */
    private static final boolean UNSAFE_EXPORTED = UnsafeExport.TO_AGRONA;

    private final IntView buffer;
    private final int buckets;
    private final int dataOffset;
    private final int capacity;
    private final boolean writer;
    private boolean closed;
    private boolean warmed;

    private SharedKvsTable(MappedByteBuffer mapped, boolean writer, boolean direct) {
        this.buffer = new IntView(mapped, direct);
        this.writer = writer;
        if (buffer.capacity() < HEADER || buffer.getIntVolatile(MAGIC_OFFSET) != MAGIC) {
            throw new PmiException("not a shared PMI key-value table (bad magic)");
        }
        this.buckets = buffer.getInt(BUCKETS_OFFSET);
        this.capacity = buffer.getInt(CAPACITY_OFFSET);
        this.dataOffset = HEADER + 4 * buckets;
        if (!(buckets > 0 && Integer.bitCount(buckets) == 1) || (long) dataOffset + capacity > buffer.capacity()) {
            throw new PmiException("a shared PMI key-value table with a corrupt header");
        }
    }

    /**
     * Creates the table's file (it must not exist) for at least {@code keys} keys and {@code dataBytes} bytes of
     * keys and values, and maps it for writing.
     */
    public static SharedKvsTable create(Path file, int keys, int dataBytes) {
        int allKeys = keys + 1; // and the warm-up key
        int buckets = Integer.highestOneBit(Math.max(16, 2 * allKeys) - 1) << 1;
        int capacity = align4(dataBytes + WARM_KEY.length() + 1 + allKeys * (ENTRY_HEADER + 3));
        long length = (long) HEADER + 4L * buckets + capacity;
        if (length > Integer.MAX_VALUE) {
            throw new PmiException("a shared PMI key-value table of " + length + " bytes is too large");
        }
        MappedByteBuffer mapped = map(file, length, true);
        try {
            IntView b = new IntView(mapped, false);
            b.putInt(BUCKETS_OFFSET, buckets);
            b.putInt(CAPACITY_OFFSET, capacity);
            b.putInt(USED_OFFSET, 0);
            b.putIntOrdered(MAGIC_OFFSET, MAGIC); // last: a reader that sees the magic sees the header
            SharedKvsTable table = new SharedKvsTable(mapped, true, false);
            table.put(WARM_KEY, "1");
            return table;
        } catch (RuntimeException | Error e) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Maps an existing table for reading, straight from the mapping's address when this JVM allows it. */
    public static SharedKvsTable open(Path file) {
        return open(file, true);
    }

    /** As {@link #open(Path)}, or with {@code direct} false through the buffer's accessors wherever it runs. */
    static SharedKvsTable open(Path file, boolean direct) {
        return new SharedKvsTable(map(file, -1, false), false, direct);
    }

    /** Whether gets load from the mapping's address ({@link UnsafeApi}) rather than through the buffer. */
    boolean readsDirectly() {
        return buffer.address != 0;
    }

    /** As {@link #open}, or null when the file cannot be mapped as a table (another host's path, say). */
    public static SharedKvsTable openIfPossible(String path) {
        try {
            return path == null ? null : open(Path.of(path));
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static MappedByteBuffer map(Path file, long length, boolean create) {
        try (FileChannel channel = create
                ? SegmentFiles.createOwnerOnly(file)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = create ? length : channel.size();
            if (create) {
                SegmentFiles.requireRoom(file, size);
                channel.truncate(size);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (IOException e) {
            throw new PmiException("cannot map the shared PMI key-value table " + file + ": " + e.getMessage(), e);
        }
    }

    /** Inserts {@code key} (or replaces its value); visible to every reader when this returns. Writer only. */
    public void put(String key, String value) {
        if (!writer || closed) {
            throw new IllegalStateException("a reader of the shared PMI key-value table cannot put");
        }
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        int used = buffer.getInt(USED_OFFSET);
        int length = align4(ENTRY_HEADER + k.length + v.length);
        if ((long) used + length > capacity) {
            throw new PmiException("the shared PMI key-value table is full (" + capacity + " bytes of data)");
        }
        int at = dataOffset + used;
        buffer.putInt(at, k.length);
        buffer.putInt(at + 4, v.length);
        buffer.putBytes(at + ENTRY_HEADER, k);
        buffer.putBytes(at + ENTRY_HEADER + k.length, v);
        buffer.putIntOrdered(USED_OFFSET, used + length);
        int mask = buckets - 1;
        for (int probe = 0, i = hash(key) & mask; probe < buckets; probe++, i = (i + 1) & mask) {
            int slot = buffer.getInt(HEADER + 4 * i);
            if (slot == 0 || valueIfKey(slot - 1, k) != null) {
                buffer.putIntOrdered(HEADER + 4 * i, used + 1); // publishes the entry written above
                return;
            }
        }
        throw new PmiException("the shared PMI key-value table has no free bucket for '" + key + "'");
    }

    /**
     * Tells readers to trust the table no more (their gets return null from now on): the writer could not take
     * an update, so a value in it may be stale. Writer only.
     */
    public void disable() {
        buffer.putIntVolatile(DISABLED_OFFSET, 1);
    }

    /**
     * The value of {@code key}, or null when none was put or the table is disabled. Any thread, any process that
     * mapped the table.
     */
    public String get(String key) {
        if (closed || buffer.getIntVolatile(DISABLED_OFFSET) != 0) {
            return null;
        }
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1); // a copy, no scan: keys are ASCII
        int mask = buckets - 1;
        for (int probe = 0, i = hash(key) & mask; probe < buckets; probe++, i = (i + 1) & mask) {
            int slot = buffer.getIntVolatile(HEADER + 4 * i);
            if (slot == 0) {
                return null;
            }
            String value = valueIfKey(slot - 1, k);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    /**
     * Readies this mapping for gets, once, while the rank waits for its first fence: maps the header, the index and
     * the first data pages into this process (so the first gets take no page faults) and runs one lookup (so they
     * do not link the interpreter's call sites). Returns whether it did: false when warmed before or closed.
     */
    public boolean warm() {
        if (warmed || closed) {
            return false;
        }
        warmed = true;
        int end = (int) Math.min(buffer.capacity(), (long) dataOffset + WARM_DATA_BYTES);
        for (int at = 0; at < end; at += PAGE) {
            buffer.getByte(at);
        }
        get(WARM_KEY);
        return true;
    }

    /** The value of the entry at data offset {@code offset} when its key is {@code key}, else null. */
    private String valueIfKey(int offset, byte[] key) {
        // a direct read has no bounds check of its own: a corrupt entry must fail here, not outside the mapping
        if (offset < 0 || offset > capacity - ENTRY_HEADER) {
            throw corruptEntry(offset);
        }
        int at = dataOffset + offset;
        if (buffer.getInt(at) != key.length) {
            return null;
        }
        int valueLength = buffer.getInt(at + 4);
        if (valueLength < 0 || (long) offset + ENTRY_HEADER + key.length + valueLength > capacity) {
            throw corruptEntry(offset);
        }
        byte[] entry = new byte[key.length + valueLength];
        buffer.getBytes(at + ENTRY_HEADER, entry); // key and value in one copy
        for (int i = 0; i < key.length; i++) { // no call: cheaper interpreted than Arrays.equals
            if (entry[i] != key[i]) {
                return null;
            }
        }
        return new String(entry, key.length, entry.length - key.length, StandardCharsets.ISO_8859_1);
    }

    private static PmiException corruptEntry(int offset) {
        return new PmiException("a corrupt entry at offset " + offset + " of the shared PMI key-value table");
    }

    private static int align4(int n) {
        return (n + 3) & ~3;
    }

    /**
     * The key's {@link String#hashCode}, spread so that linear probing sees the high bits too: one call to code the
     * JDK has compiled, where a loop of our own over the key's bytes would run interpreted in a rank's few gets.
     */
    private static int hash(String key) {
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    /**
     * Ends this mapping's use: gets return null from now on. The memory is unmapped when the buffer is collected
     * (Java 17 has no public unmap that mpjrun's JVM may call); the file stays until its owner removes it.
     */
    @Override
    public void close() {
        closed = true;
    }

    /**
     * The int and byte accesses the table makes, over the mapped buffer in native order (ints 4-aligned, so each is
     * one load or store). A reader in a JVM that exports {@code jdk.internal.misc} (the ranks') loads ints straight
     * from the mapping's address through Agrona's {@link UnsafeApi}, one static call to a native method, where the
     * buffer's own accessor is a chain of a dozen calls that a rank's few gets run interpreted and cache-cold. That
     * class's initialisation only fetches the JDK's {@code Unsafe}: no Agrona buffer is made, so nothing else of
     * Agrona's starts before the rank's first fence. The writer, in mpjrun's JVM without that export, uses the
     * buffer's accessors with {@link VarHandle} fences; both see native-order ints.
     */
    private static final class IntView {
        /** Kept while the table is used: the mapping lives as long as this buffer. */
        private final MappedByteBuffer b;
        /** Where a byte array's elements begin, for {@link UnsafeApi#copyMemory}: a field, not a linked call site. */
        private static final long BYTE_ARRAY_BASE = UNSAFE_EXPORTED ? sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET : 0;
        /** The mapping's address for {@link UnsafeApi}'s loads, or 0 to use the buffer's accessors. */
        private final long address;

        IntView(MappedByteBuffer b, boolean direct) {
            this.b = b;
            b.order(ByteOrder.nativeOrder());
            this.address = direct && UNSAFE_EXPORTED
                    ? UnsafeApi.getLong(b, UnsafeApi.objectFieldOffset(Buffer.class, "address")) : 0;
        }

        int capacity() {
            return b.capacity();
        }

        int getInt(int at) {
            return address != 0 ? UnsafeApi.getInt(null, address + at) : b.getInt(at);
        }

        /** An acquiring load: what follows it sees what the writer wrote before the matching release. */
        int getIntVolatile(int at) {
            if (address != 0) {
                return UnsafeApi.getIntAcquire(null, address + at);
            }
            int v = b.getInt(at);
            VarHandle.acquireFence();
            return v;
        }

        void putInt(int at, int v) {
            b.putInt(at, v);
        }

        /** A releasing store: a reader that sees it sees everything written before. */
        void putIntOrdered(int at, int v) {
            VarHandle.releaseFence();
            b.putInt(at, v);
        }

        void putIntVolatile(int at, int v) {
            VarHandle.releaseFence();
            b.putInt(at, v);
            VarHandle.fullFence();
        }

        byte getByte(int at) {
            return b.get(at);
        }

        void getBytes(int at, byte[] into) {
            if (address != 0) {
                UnsafeApi.copyMemory(null, address + at, into, BYTE_ARRAY_BASE, into.length);
            } else {
                b.get(at, into);
            }
        }

        void putBytes(int at, byte[] bytes) {
            b.put(at, bytes);
        }
    }
}

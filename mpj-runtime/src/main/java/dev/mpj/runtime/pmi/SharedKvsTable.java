package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;
import org.agrona.BitUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A node's PMI key-value store in shared memory, as paper [2] of REFERENCES publishes it after a fence: an
 * insert/lookup-only hash table that one writer (the node's PMI agent) fills and the node's ranks read directly,
 * with no round trip. One file mapped by all, in two regions after a header:
 * <pre>
 *   header  magic, bucket count (a power of two), data capacity, data used
 *   index   one int per bucket: 0 when empty, else 1 + the offset of the bucket's newest entry in the data region
 *   data    entries appended one after another: key length, value length, key bytes, value bytes (4-aligned)
 * </pre>
 * Keys hash (FNV-1a) to a bucket and probe linearly. The writer appends the entry, then publishes it by an ordered
 * write of the bucket, so a reader that sees the bucket sees the whole entry; putting a key again appends a new
 * entry and points the bucket at it. Nothing is ever removed, so readers need no lock. Keys and values are PMI's
 * printable ASCII.
 */
public final class SharedKvsTable implements AutoCloseable {
    private static final int MAGIC = 0x4d504a4b; // "MPJK"
    private static final int MAGIC_OFFSET = 0;
    private static final int BUCKETS_OFFSET = 4;
    private static final int CAPACITY_OFFSET = 8;
    private static final int USED_OFFSET = 12;
    private static final int HEADER = 64;
    private static final int ENTRY_HEADER = 8;

    private final MappedByteBuffer mapped;
    private final UnsafeBuffer buffer;
    private final int buckets;
    private final int dataOffset;
    private final int capacity;
    private final boolean writer;

    private SharedKvsTable(MappedByteBuffer mapped, boolean writer) {
        this.mapped = mapped;
        this.buffer = new UnsafeBuffer(mapped);
        this.writer = writer;
        if (buffer.capacity() < HEADER || buffer.getIntVolatile(MAGIC_OFFSET) != MAGIC) {
            throw new PmiException("not a shared PMI key-value table (bad magic)");
        }
        this.buckets = buffer.getInt(BUCKETS_OFFSET);
        this.capacity = buffer.getInt(CAPACITY_OFFSET);
        this.dataOffset = HEADER + 4 * buckets;
        if (!BitUtil.isPowerOfTwo(buckets) || (long) dataOffset + capacity > buffer.capacity()) {
            throw new PmiException("a shared PMI key-value table with a corrupt header");
        }
    }

    /**
     * Creates the table's file (it must not exist) for at least {@code keys} keys and {@code dataBytes} bytes of
     * keys and values, and maps it for writing.
     */
    public static SharedKvsTable create(Path file, int keys, int dataBytes) {
        int buckets = BitUtil.findNextPositivePowerOfTwo(Math.max(16, 2 * keys));
        int capacity = BitUtil.align(dataBytes + keys * (ENTRY_HEADER + 3), 4);
        long length = (long) HEADER + 4L * buckets + capacity;
        if (length > Integer.MAX_VALUE) {
            throw new PmiException("a shared PMI key-value table of " + length + " bytes is too large");
        }
        MappedByteBuffer mapped = map(file, length, true);
        UnsafeBuffer b = new UnsafeBuffer(mapped);
        b.putInt(BUCKETS_OFFSET, buckets);
        b.putInt(CAPACITY_OFFSET, capacity);
        b.putInt(USED_OFFSET, 0);
        b.putIntOrdered(MAGIC_OFFSET, MAGIC); // last: a reader that sees the magic sees the header
        return new SharedKvsTable(mapped, true);
    }

    /** Maps an existing table for reading. */
    public static SharedKvsTable open(Path file) {
        return new SharedKvsTable(map(file, -1, false), false);
    }

    private static MappedByteBuffer map(Path file, long length, boolean create) {
        try (FileChannel channel = create
                ? FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = create ? length : channel.size();
            if (create) {
                channel.truncate(size);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        } catch (IOException e) {
            throw new PmiException("cannot map the shared PMI key-value table " + file + ": " + e.getMessage(), e);
        }
    }

    /** Inserts {@code key} (or replaces its value); visible to every reader when this returns. Writer only. */
    public void put(String key, String value) {
        if (!writer) {
            throw new IllegalStateException("a reader of the shared PMI key-value table cannot put");
        }
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        byte[] v = value.getBytes(StandardCharsets.US_ASCII);
        int used = buffer.getInt(USED_OFFSET);
        int length = BitUtil.align(ENTRY_HEADER + k.length + v.length, 4);
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
        for (int probe = 0, i = hash(k) & mask; probe < buckets; probe++, i = (i + 1) & mask) {
            int slot = buffer.getInt(HEADER + 4 * i);
            if (slot == 0 || keyEquals(slot - 1, k)) {
                buffer.putIntOrdered(HEADER + 4 * i, used + 1); // publishes the entry written above
                return;
            }
        }
        throw new PmiException("the shared PMI key-value table has no free bucket for '" + key + "'");
    }

    /** The value of {@code key}, or null when none was put. Any thread, any process that mapped the table. */
    public String get(String key) {
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        int mask = buckets - 1;
        for (int probe = 0, i = hash(k) & mask; probe < buckets; probe++, i = (i + 1) & mask) {
            int slot = buffer.getIntVolatile(HEADER + 4 * i);
            if (slot == 0) {
                return null;
            }
            if (keyEquals(slot - 1, k)) {
                int at = dataOffset + slot - 1;
                return buffer.getStringWithoutLengthAscii(at + ENTRY_HEADER + k.length, buffer.getInt(at + 4));
            }
        }
        return null;
    }

    private boolean keyEquals(int offset, byte[] key) {
        int at = dataOffset + offset;
        if (buffer.getInt(at) != key.length) {
            return false;
        }
        for (int j = 0; j < key.length; j++) {
            if (buffer.getByte(at + ENTRY_HEADER + j) != key[j]) {
                return false;
            }
        }
        return true;
    }

    /** FNV-1a, spread so that linear probing sees the high bits too. */
    private static int hash(byte[] key) {
        int h = 0x811c9dc5;
        for (byte b : key) {
            h = (h ^ (b & 0xff)) * 0x01000193;
        }
        return h ^ (h >>> 16);
    }

    /** Unmaps the table; the file stays until its owner removes it. */
    @Override
    public void close() {
        IoUtil.unmap(mapped);
    }
}

package dev.mpj.runtime.engine;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.List;

/**
 * FIFO bins of entries keyed by (context, source, tag), where source and tag may be the wildcards as keys; one
 * map of bins per communicator context. A bin is a doubly linked list of {@link MatchLink}s in insertion order,
 * so its head is its earliest entry, appending and taking the head are O(1), and so is unlinking any entry. An
 * empty bin leaves its map once {@value #LINGERING} other bins have emptied after it, so bins never outnumber live
 * entries by more than that, while traffic that empties and refills the same few bins (a stream of receives for
 * one envelope) finds them in place instead of making and dropping one per message. Not thread-safe: the owner
 * serialises access.
 */
final class MatchBins<T> {
    /** Empty bins kept in their maps at most: the four an unexpected message is linked into. */
    static final int LINGERING = 4;
    private final Int2ObjectHashMap<Long2ObjectHashMap<Bin<T>>> contexts = new Int2ObjectHashMap<>();
    /** The bins that emptied last, oldest replaced first; each may have been refilled since. */
    @SuppressWarnings("unchecked")
    private final Bin<T>[] emptied = new Bin[LINGERING];
    private int nextEmptied;
    /** The context looked up last (traffic tends to stay on one communicator); context maps are never dropped. */
    private int lastContext;
    private Long2ObjectHashMap<Bin<T>> lastBins;

    /** One key's entries, oldest first. */
    static final class Bin<T> {
        private final Long2ObjectHashMap<Bin<T>> owner;
        private final long key;
        MatchLink<T> head;
        MatchLink<T> tail;
        /** Whether it is among the {@code emptied} bins. */
        boolean lingering;

        Bin(Long2ObjectHashMap<Bin<T>> owner, long key) {
            this.owner = owner;
            this.key = key;
        }
    }

    private static long key(int source, int tag) {
        return (long) source << 32 | (tag & 0xFFFF_FFFFL);
    }

    /** Appends {@code item} to the bin of (context, source, tag), creating the bin if needed. */
    MatchLink<T> append(int context, int source, int tag, T item, long seq) {
        return append(context, source, tag, new MatchLink<>(item), seq);
    }

    /** Appends {@code link}, which is in no bin, to the bin of (context, source, tag), creating the bin if needed. */
    MatchLink<T> append(int context, int source, int tag, MatchLink<T> link, long seq) {
        Long2ObjectHashMap<Bin<T>> bins = bins(context);
        if (bins == null) {
            bins = new Long2ObjectHashMap<>();
            contexts.put(context, bins);
        }
        long k = key(source, tag);
        Bin<T> bin = bins.get(k);
        if (bin == null) {
            bin = new Bin<>(bins, k);
            bins.put(k, bin);
        }
        link.seq = seq;
        link.bin = bin;
        link.prev = bin.tail;
        if (bin.tail == null) {
            bin.head = link;
        } else {
            bin.tail.next = link;
        }
        bin.tail = link;
        return link;
    }

    /** The earliest entry of the bin of (context, source, tag), or null when it is empty. */
    MatchLink<T> head(int context, int source, int tag) {
        Long2ObjectHashMap<Bin<T>> bins = bins(context);
        if (bins == null) {
            return null;
        }
        Bin<T> bin = bins.get(key(source, tag));
        return bin == null ? null : bin.head;
    }

    private Long2ObjectHashMap<Bin<T>> bins(int context) {
        if (lastBins != null && lastContext == context) {
            return lastBins;
        }
        Long2ObjectHashMap<Bin<T>> bins = contexts.get(context);
        if (bins != null) {
            lastContext = context;
            lastBins = bins;
        }
        return bins;
    }

    /** Adds every entry of {@code context}'s bins to {@code out}, each bin oldest first. */
    void collect(int context, List<T> out) {
        Long2ObjectHashMap<Bin<T>> bins = contexts.get(context);
        if (bins == null) {
            return;
        }
        for (Bin<T> bin : bins.values()) {
            for (MatchLink<T> l = bin.head; l != null; l = l.next) {
                out.add(l.item);
            }
        }
    }

    /** Unlinks an entry from its bin; must be called once per link appended. */
    void remove(MatchLink<T> link) {
        Bin<T> bin = link.bin;
        if (link.prev == null) {
            bin.head = link.next;
        } else {
            link.prev.next = link.next;
        }
        if (link.next == null) {
            bin.tail = link.prev;
        } else {
            link.next.prev = link.prev;
        }
        link.prev = null;
        link.next = null;
        if (bin.head == null && !bin.lingering) {
            linger(bin);
        }
    }

    /** Keeps an emptied bin in its map for now, dropping the bin that emptied {@value #LINGERING} bins ago if still empty. */
    private void linger(Bin<T> bin) {
        Bin<T> old = emptied[nextEmptied];
        if (old != null) {
            old.lingering = false;
            if (old.head == null) {
                old.owner.remove(old.key);
            }
        }
        bin.lingering = true;
        emptied[nextEmptied] = bin;
        nextEmptied = (nextEmptied + 1) % LINGERING;
    }
}

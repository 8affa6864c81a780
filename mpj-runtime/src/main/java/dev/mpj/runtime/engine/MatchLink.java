package dev.mpj.runtime.engine;

/**
 * One entry's place in one {@link MatchBins} bin: a node of an intrusive doubly linked list, so an entry leaves
 * its bin in O(1) wherever it stands (cancel, probe then receive of a later message).
 */
final class MatchLink<T> {
    final T item;
    /**
     * Post or arrival order within one queue: the earliest of several candidate bins' heads matches. Set with
     * {@code bin} each time the link is appended: a posted receive keeps one link for all its reuses.
     */
    long seq;
    MatchBins.Bin<T> bin;
    MatchLink<T> prev;
    MatchLink<T> next;

    MatchLink(T item) {
        this.item = item;
    }
}

package dev.mpj.runtime.pmi;

/**
 * What {@link PmiClient#ring} tells a rank: its position in the ring of {@code size} ranks, and the values its
 * left (position − 1) and right (position + 1) neighbours gave, wrapping around.
 */
public record RingNeighbours(int position, int size, String left, String right) {
}

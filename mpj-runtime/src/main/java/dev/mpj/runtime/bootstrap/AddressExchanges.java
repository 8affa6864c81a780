package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;

/**
 * Chooses the {@link AddressExchange} for a job from {@code mpj.addressExchange}. {@code auto} picks by the
 * job's shape, a rule set from the startup benchmark (docs/PERFORMANCE.md):
 * <ul>
 *   <li>one node: {@code roots} (one put and one get in the whole job, no transport needed);</li>
 *   <li>fewer than {@value #ROOTS_FROM_RANKS} ranks on several nodes: {@code shm} (fewer gets than
 *       {@code simple}, and on 4–16 ranks faster than {@code roots}, whose node barriers and ring steps cost more
 *       than the gets they save);</li>
 *   <li>otherwise {@code roots}: from 32 ranks its N puts and N(N−1) gets (against N·P) win; at np = 32 on 2, 4 and
 *       8 fake nodes it took 0.91, 1.18 and 0.76 × {@code shm}'s exchange time, at np = 64 on 8 nodes 0.60 ×.</li>
 * </ul>
 * {@code ring} ({@link RingExchange}) is never chosen by {@code auto}: it needs a PMI-2 process manager that
 * serves PMIX_Ring. Every rank computes the same choice from the same node map, so the job agrees without a
 * message.
 */
public final class AddressExchanges {
    /** From this many ranks on several nodes, {@code auto} picks {@code roots}. */
    public static final int ROOTS_FROM_RANKS = 32;

    private AddressExchanges() {
    }

    /** The exchange {@code mode} names, {@code auto} decided for a job of {@code size} ranks on {@code nodes}. */
    public static AddressExchange choose(AddressExchangeMode mode, int size, int nodes) {
        return switch (mode) {
            case SIMPLE -> new SimpleExchange();
            case SHM -> new ShmExchange();
            case ROOTS -> new RootsAllgatherExchange();
            case RING -> new RingExchange();
            case AUTO -> nodes == 1 || size >= ROOTS_FROM_RANKS ? new RootsAllgatherExchange() : new ShmExchange();
        };
    }
}

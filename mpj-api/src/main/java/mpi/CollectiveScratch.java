package mpi;

import dev.mpj.api.ScratchBuffer;

/**
 * The calling thread's scratch for its blocking collectives: where arrays other than {@code byte[]} are packed
 * for sending, and the rooms results land in before they are unpacked into the user's array. Reused by the
 * thread's next blocking collective rather than allocated by each (a long reduction would otherwise allocate
 * two vectors a call); the non-blocking collectives, whose buffers outlive the call, allocate their own.
 */
final class CollectiveScratch {
    // a subclass, not withInitial(...::new): linking that method reference is a bootstrap call in the
    // first collective of every rank
    private static final ThreadLocal<CollectiveScratch> OF_THREAD = new ThreadLocal<>() {
        @Override
        protected CollectiveScratch initialValue() {
            return new CollectiveScratch();
        }
    };

    /** Packed send data. */
    final ScratchBuffer packed = new ScratchBuffer();
    /** Rooms for results. */
    final ScratchBuffer results = new ScratchBuffer();
    /** The operands of a reduction the runtime combines in the user's arrays. */
    final ArrayOperands operands = new ArrayOperands(this);

    private CollectiveScratch() {
    }

    static CollectiveScratch ofThread() {
        return OF_THREAD.get();
    }

    static ScratchBuffer packed(CollectiveScratch scratch) {
        return scratch == null ? null : scratch.packed;
    }

    static ScratchBuffer results(CollectiveScratch scratch) {
        return scratch == null ? null : scratch.results;
    }
}

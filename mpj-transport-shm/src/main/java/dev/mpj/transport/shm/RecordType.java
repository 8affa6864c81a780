package dev.mpj.transport.shm;

import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * The ring record's type word says who sent it and which piece of a frame it holds, so a record needs no header
 * of its own: {@code 1 + (sender << 3 | piece)} (Agrona reserves types below 1).
 */
final class RecordType {
    /** A whole frame. */
    static final int WHOLE = 0;
    /** The first piece of a frame longer than a record: its total length (int), then its first bytes. */
    static final int FIRST = 1;
    static final int MIDDLE = 2;
    static final int LAST = 3;
    /**
     * A notice of a frame written into the receiver's bulk channel ({@link BulkChannel}): its position (long) and
     * length (int) there.
     */
    static final int BULK = 4;

    private static final int PIECE_BITS = 3;

    /** World ranks up to this fit in a type word. */
    static final int MAX_RANK = (Integer.MAX_VALUE >>> PIECE_BITS) - 1;

    private RecordType() {
    }

    static int of(int senderRank, int piece) {
        return 1 + (senderRank << PIECE_BITS | piece);
    }

    static int sender(int type) {
        return (type - 1) >>> PIECE_BITS;
    }

    static int piece(int type) {
        return (type - 1) & ((1 << PIECE_BITS) - 1);
    }

    static boolean isValid(int type) {
        return type > 0 && type != RingBuffer.PADDING_MSG_TYPE_ID;
    }
}

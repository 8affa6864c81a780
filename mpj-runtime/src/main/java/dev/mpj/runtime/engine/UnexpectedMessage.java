package dev.mpj.runtime.engine;

import java.nio.ByteBuffer;

/**
 * A message that arrived before a matching receive was posted. Eager data is held as a private copy, in a buffer
 * of the engine's {@link UnexpectedPayloads} that goes back there once a receive has copied it out;
 * a rendezvous request holds no data (the sender keeps it until cleared), so a large unexpected
 * message costs only this envelope.
 */
final class UnexpectedMessage {
    final byte kind;
    final int context;
    final int source;
    final int tag;
    final long length;
    /** The sender's request id (synchronous eager and rendezvous). */
    final long cookie;
    /**
     * Eager payload copy, limit its length; for an {@code RTS_SHARED}, the data's place in the sender's region (a
     * long); else null.
     */
    final ByteBuffer data;
    /** For a message this rank sent to itself above the eager threshold or synchronously: the send. */
    final SendOperation selfSend;
    /** Its places in the {@link UnexpectedMessages} bins, one per kind of receive that may ask for it. */
    MatchLink<UnexpectedMessage> specific;
    MatchLink<UnexpectedMessage> anyTag;
    MatchLink<UnexpectedMessage> anySource;
    MatchLink<UnexpectedMessage> anySourceAnyTag;

    UnexpectedMessage(byte kind, int context, int source, int tag, long length, long cookie, ByteBuffer data,
                      SendOperation selfSend) {
        this.kind = kind;
        this.context = context;
        this.source = source;
        this.tag = tag;
        this.length = length;
        this.cookie = cookie;
        this.data = data;
        this.selfSend = selfSend;
    }
}

package dev.mpj.runtime.spi;

/**
 * A blocking receive that may take a polled transport's next frame in place ({@link DirectSource#takeDirect}):
 * what it asks for (context, source or {@code ANY_SOURCE}, tag or {@code ANY_TAG}, room), then the envelope of
 * the message it took. The engine asks only when nothing could take that frame before it (no other receive
 * posted, nothing queued from an earlier pass), so the next frame is the one MPI's order gives this receive if it
 * matches at all; a frame it does not accept stays where it is for the engine's general path. One is made per
 * engine and asked again for every receive.
 */
public final class DirectReceive {
    private int context;
    private int wantSource;
    private int wantTag;
    private int roomSize;
    private int source;
    private int tag;
    private int length;

    /** Asks for the next message of {@code context} from {@code source} with {@code tag}, of at most {@code roomSize} bytes. */
    public void ask(int context, int source, int tag, int roomSize) {
        this.context = context;
        this.wantSource = source;
        this.wantTag = tag;
        this.roomSize = roomSize;
    }

    /**
     * Whether a frame from {@code sender} whose header begins with {@code leadingWord} and {@code envelopeWord}
     * ({@link FrameHeader#leadingWord}, {@link FrameHeader#envelopeWord}) and whose payload is {@code payloadLength}
     * bytes is a plain eager message this receive matches, whose payload fits the room; keeps its envelope and
     * length if so. Anything else (a synchronous send, which owes an acknowledgement, a truncation, which the
     * general path reports, another kind of frame) is left alone. Takes the header's words rather than the frame,
     * so the source reads them from its memory without moving a buffer over the frame.
     */
    public boolean accepts(int sender, long leadingWord, long envelopeWord, int payloadLength) {
        int t = FrameHeader.tagOf(envelopeWord);
        if (FrameHeader.kindOf(leadingWord) != FrameHeader.EAGER
                || !Envelopes.matches(context, wantSource, wantTag, FrameHeader.contextOf(leadingWord), sender, t)
                || payloadLength > roomSize) {
            return false;
        }
        source = sender;
        tag = t;
        length = payloadLength;
        return true;
    }

    /** The world rank the accepted message came from. */
    public int source() {
        return source;
    }

    public int tag() {
        return tag;
    }

    /** The accepted message's payload length in bytes. */
    public int length() {
        return length;
    }
}

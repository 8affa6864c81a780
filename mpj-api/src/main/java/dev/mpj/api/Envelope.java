package dev.mpj.api;

/** What a probe sees of a message not yet received: sender (world rank), tag and size in bytes. */
public record Envelope(int source, int tag, int byteCount) {
}

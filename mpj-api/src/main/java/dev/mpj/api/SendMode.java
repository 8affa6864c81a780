package dev.mpj.api;

/** MPI send modes as the runtime sees them (buffered sends are made standard by the API after a copy). */
public enum SendMode {
    /** Complete when the data is copied out or delivered: eager below the threshold, rendezvous above. */
    STANDARD,
    /** Complete only after the receiver has matched the message. */
    SYNCHRONOUS,
    /** The receive is known to be posted; treated as standard. */
    READY
}

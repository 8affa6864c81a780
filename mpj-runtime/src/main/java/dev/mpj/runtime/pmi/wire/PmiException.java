package dev.mpj.runtime.pmi.wire;

/** A PMI failure: a malformed line, an error reply, a lost process manager. */
public class PmiException extends RuntimeException {
    public PmiException(String message) {
        super(message);
    }

    public PmiException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.mpj.runtime.node;

/** The node segment cannot be created, found, trusted or waited on. */
public final class NodeSegmentException extends RuntimeException {
    public NodeSegmentException(String message) {
        super(message);
    }

    public NodeSegmentException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.mpj.runtime.spi;

/** The address exchange of {@code MPI.Init} failed: a card is missing, malformed, or does not fit the table. */
public final class ExchangeException extends RuntimeException {
    public ExchangeException(String message) {
        super(message);
    }

    public ExchangeException(String message, Throwable cause) {
        super(message, cause);
    }
}

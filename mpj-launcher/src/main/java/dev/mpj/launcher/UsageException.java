package dev.mpj.launcher;

/** The command line of {@code mpjrun} is wrong, or asks for help; {@code mpjrun} then exits 2 (0 for help). */
public final class UsageException extends Exception {
    private final boolean helpRequested;

    public UsageException(String message) {
        this(message, false);
    }

    private UsageException(String message, boolean helpRequested) {
        super(message, null, false, false);
        this.helpRequested = helpRequested;
    }

    /** {@code -h} or {@code --help} was given: not an error, the usage goes to stdout. */
    static UsageException help() {
        return new UsageException("help requested", true);
    }

    public boolean helpRequested() {
        return helpRequested;
    }
}

package dev.mpj.launcher;

/**
 * The command line of {@code mpjrun} is wrong, or asks for help or the version; {@code mpjrun} then exits 2 (0 for
 * help and the version).
 */
public final class UsageException extends Exception {
    private final boolean helpRequested;
    private final boolean versionRequested;

    public UsageException(String message) {
        this(message, false, false);
    }

    private UsageException(String message, boolean helpRequested, boolean versionRequested) {
        super(message, null, false, false);
        this.helpRequested = helpRequested;
        this.versionRequested = versionRequested;
    }

    /** {@code -h} or {@code --help} was given: not an error, the usage goes to stdout. */
    static UsageException help() {
        return new UsageException("help requested", true, false);
    }

    /** {@code --version} was given: not an error, the version goes to stdout. */
    static UsageException version() {
        return new UsageException("version requested", false, true);
    }

    public boolean helpRequested() {
        return helpRequested;
    }

    public boolean versionRequested() {
        return versionRequested;
    }
}

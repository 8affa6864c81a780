package dev.mpj.runtime.pmi.wire;

/**
 * The key and value rules every client enforces before anything is sent, so that a program that runs under
 * the singleton client also runs under a real process manager (PMI.md §0.4): keys of at most
 * {@value #MAX_KEY_LENGTH} characters (Hydra silently truncates longer ones), values within the client's
 * {@code PmiClient.maxValueLength()}, both printable ASCII without spaces or ';', and no put of a key that starts
 * with {@value #RESERVED_PREFIX} (newer Hydra rejects those; the process manager serves them).
 */
public final class PmiLimits {
    /** The limits a server announces in {@code get_maxes}, counting the terminating NUL as Hydra and Slurm do. */
    public static final int KVSNAME_MAX = 256;
    public static final int KEYLEN_MAX = 64;
    public static final int VALLEN_MAX = 1024;

    /** Hydra and Slurm report keylen_max=64, which counts the terminating NUL. */
    public static final int MAX_KEY_LENGTH = KEYLEN_MAX - 1;

    /** MPICH's usable PMI-1 value length: min(1024 - 1, 1024 - 256 - 64 - 30) for the usual maxima. */
    public static final int DEFAULT_MAX_VALUE_LENGTH = 674;

    /** Keys the process manager answers itself, such as {@code PMI_process_mapping}. */
    public static final String RESERVED_PREFIX = "PMI_";

    private PmiLimits() {
    }

    /** Everything a put must satisfy before it is sent. */
    public static void checkPut(String key, String value, int maxKeyLength, int maxValueLength) {
        checkKey(key, maxKeyLength);
        if (key.startsWith(RESERVED_PREFIX)) {
            throw new PmiException("PMI key '" + key + "' starts with " + RESERVED_PREFIX
                    + ", which is reserved for the process manager");
        }
        checkValue(key, value, maxValueLength);
    }

    public static void checkKey(String key, int maxKeyLength) {
        if (key == null || key.isEmpty()) {
            throw new PmiException("PMI key must not be empty");
        }
        if (key.length() > maxKeyLength) {
            throw new PmiException("PMI key '" + key + "' has " + key.length() + " characters; the limit is "
                    + maxKeyLength);
        }
        checkCharacters(key, true, key);
    }

    /** A value for {@code key} (or for what {@code key} names, such as a ring): length and characters. */
    public static void checkValue(String key, String value, int maxValueLength) {
        if (value == null) {
            throw new PmiException("PMI value for key '" + key + "' must not be null");
        }
        if (value.length() > maxValueLength) {
            throw new PmiException("PMI value for key '" + key + "' has " + value.length()
                    + " characters; the limit is " + maxValueLength + " (use PmiKvs to publish larger values)");
        }
        checkCharacters(value, false, key);
    }

    /**
     * Space ends a PMI-1 token, ';' a PMI-2 pair (no server un-escapes ';;'), '=' ends a key; control and
     * non-ASCII characters are never allowed.
     */
    private static void checkCharacters(String s, boolean isKey, String key) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c > 0x7e || c == ';' || (isKey && c == '=')) {
                throw new PmiException("PMI " + (isKey ? "key" : "value for key") + " '" + key
                        + "' has a character a PMI line cannot carry (code " + (int) c + ") at index " + i);
            }
        }
    }
}

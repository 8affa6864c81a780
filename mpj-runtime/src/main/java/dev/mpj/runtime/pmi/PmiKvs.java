package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.PmiException;

/**
 * Publishes bytes through any {@link PmiClient}: hex-encoded (PMI values cannot carry spaces, newlines or,
 * for PMI-2, ';'), and split over several keys when longer than the client's
 * {@link PmiClient#maxValueLength()}, as MPICH does. Layout of a long value under {@code key}:
 * <pre>
 *   key         = seg:&lt;n&gt;
 *   key-seg-0   … key-seg-(n-1) = consecutive chunks of the hex text
 * </pre>
 * A short value is stored under {@code key} directly; hex never contains ':', so the two cannot be confused.
 * The chunk keys are 5 + digits characters longer than {@code key}, which must leave room for them.
 */
public final class PmiKvs {
    private static final String SEGMENTED = "seg:";
    private static final char[] HEX_DIGITS = "0123456789abcdef".toCharArray();

    private PmiKvs() {
    }

    /** Puts {@code value} under {@code key} (one put, or n+1 puts when segmented). Visible after the next barrier. */
    public static void putBytes(PmiClient client, String key, byte[] value) {
        String hex = hex(value);
        int max = client.maxValueLength();
        if (hex.length() <= max) {
            client.put(key, hex);
            return;
        }
        int segments = (hex.length() + max - 1) / max;
        client.put(key, SEGMENTED + segments);
        for (int i = 0; i < segments; i++) {
            client.put(segmentKey(key, i), hex.substring(i * max, Math.min(hex.length(), (i + 1) * max)));
        }
    }

    /**
     * The bytes published under {@code key}, or null when the key is missing.
     *
     * @throws PmiException when the value is not hex or a segment is missing
     */
    public static byte[] getBytes(PmiClient client, String key) {
        String value = client.get(key);
        if (value == null) {
            return null;
        }
        if (!value.startsWith(SEGMENTED)) {
            return unhex(value);
        }
        int segments;
        try {
            segments = Integer.parseInt(value.substring(SEGMENTED.length()));
        } catch (NumberFormatException e) {
            segments = -1;
        }
        if (segments < 1) {
            throw new PmiException("PMI key '" + key + "' has a malformed segment count: '" + value + "'");
        }
        StringBuilder hex = new StringBuilder(segments * client.maxValueLength());
        for (int i = 0; i < segments; i++) {
            String segment = client.get(segmentKey(key, i));
            if (segment == null) {
                throw new PmiException("segment " + i + " of " + segments + " of PMI key '" + key + "' is missing");
            }
            hex.append(segment);
        }
        return unhex(hex);
    }

    /** The key of chunk {@code i} of a segmented value. */
    public static String segmentKey(String key, int i) {
        return key + "-seg-" + i;
    }

    /** Lowercase hex, two digits per byte. */
    public static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX_DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX_DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    /**
     * The bytes of a hex text (either case).
     *
     * @throws PmiException on an odd length or a character that is not a hex digit
     */
    public static byte[] unhex(CharSequence hex) {
        if (hex.length() % 2 != 0) {
            throw new PmiException("hex text of odd length " + hex.length() + " in a PMI value");
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) ((nibble(hex, 2 * i) << 4) | nibble(hex, 2 * i + 1));
        }
        return out;
    }

    private static int nibble(CharSequence hex, int index) {
        char c = hex.charAt(index);
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        throw new PmiException("character '" + c + "' at index " + index + " of a PMI value is not a hex digit");
    }
}

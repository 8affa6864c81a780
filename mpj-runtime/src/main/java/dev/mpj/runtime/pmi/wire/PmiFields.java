package dev.mpj.runtime.pmi.wire;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fields of one PMI message, in order, as both dialects carry them: {@code key=value} pairs led by the
 * command, matched by key (Hydra and Slurm order them differently), a value running to the next separator and
 * free to contain '='. {@link Pmi1Message} and {@link Pmi2Message} add their own framing around it.
 */
final class PmiFields {
    /** "PMI-1 line" or "PMI-2 message": names the dialect and unit in every error. */
    private final String what;
    private final Map<String, String> map;

    private PmiFields(String what, Map<String, String> map) {
        this.what = what;
        this.map = map;
    }

    /** {@code cmd=command} then keyValues, alternating key and value. */
    static PmiFields of(String what, String command, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must pair up");
        }
        Map<String, String> map = new LinkedHashMap<>();
        map.put("cmd", command);
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return new PmiFields(what, map);
    }

    /**
     * Parses {@code text}, pairs separated by {@code separator} (empty pieces skipped), whose first key must be
     * one of {@code leadKeys}. Rejects non-printable characters, a piece without '=', a repeated key, and an
     * empty text.
     */
    static PmiFields parse(String what, String text, char separator, String... leadKeys) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new PmiException(what + " has a non-printable or non-ASCII character at " + i + ": "
                        + quote(text));
            }
        }
        Map<String, String> map = new LinkedHashMap<>();
        int start = 0;
        while (start <= text.length()) {
            int end = text.indexOf(separator, start);
            if (end < 0) {
                end = text.length();
            }
            if (end > start) {
                String pair = text.substring(start, end);
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new PmiException(what + ": '" + pair + "' is not key=value in " + quote(text));
                }
                String key = pair.substring(0, eq);
                if (map.isEmpty() && !isOneOf(key, leadKeys)) {
                    throw new PmiException(what + " does not start with " + leadKeys[0] + "=: " + quote(text));
                }
                if (map.put(key, pair.substring(eq + 1)) != null) {
                    throw new PmiException(what + " repeats key '" + key + "': " + quote(text));
                }
            }
            start = end + 1;
        }
        if (map.isEmpty()) {
            throw new PmiException("empty " + what);
        }
        return new PmiFields(what, map);
    }

    String get(String key) {
        return map.get(key);
    }

    String require(String key) {
        String v = map.get(key);
        if (v == null) {
            throw new PmiException(what + " '" + map.get("cmd") + "' lacks field '" + key + "': " + map);
        }
        return v;
    }

    int requireInt(String key) {
        return integer(key, require(key));
    }

    /** The return code; a missing {@code rc} means success (Hydra 4.0.2 often omits it). */
    int rc() {
        String v = map.get("rc");
        return v == null ? 0 : integer("rc", v);
    }

    Map<String, String> asMap() {
        return Collections.unmodifiableMap(map);
    }

    private int integer(String key, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new PmiException(what + " field '" + key + "' is not an integer: " + map);
        }
    }

    private static boolean isOneOf(String key, String[] keys) {
        for (String k : keys) {
            if (k.equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** The text in quotes, anything unprintable shown as \xNN. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            sb.append(c >= 0x20 && c <= 0x7e ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return sb.append('"').toString();
    }
}

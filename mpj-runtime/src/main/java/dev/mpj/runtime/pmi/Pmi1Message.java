package dev.mpj.runtime.pmi;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One PMI-1 line: {@code cmd=<name>} then space-separated {@code key=value} tokens (PMI.md §2.1).
 * Fields are matched by key, never by position (Hydra and Slurm order them differently). A value runs to
 * the next space and may contain '='. Lines are at most {@link #MAX_LINE} bytes including the newline,
 * printable ASCII only; anything else is rejected with {@link PmiException}.
 */
public final class Pmi1Message {
    /** Longest line either side may send, counting the terminating '\n' (Slurm reads with one 1024-byte read). */
    public static final int MAX_LINE = 1024;

    private final Map<String, String> fields;

    private Pmi1Message(Map<String, String> fields) {
        this.fields = fields;
    }

    /** A message {@code cmd=command k1=v1 k2=v2 …}; keyValues alternate key and value. */
    public static Pmi1Message of(String command, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must pair up");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("cmd", command);
        for (int i = 0; i < keyValues.length; i += 2) {
            fields.put(keyValues[i], keyValues[i + 1]);
        }
        return new Pmi1Message(fields);
    }

    /** Parses one line, without its '\n'. */
    public static Pmi1Message parse(String line) {
        if (line.length() >= MAX_LINE) {
            throw new PmiException("PMI-1 line longer than " + (MAX_LINE - 1) + " characters");
        }
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new PmiException("PMI-1 line has a non-printable or non-ASCII character at " + i + ": "
                        + quote(line));
            }
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String token : line.split(" ")) {
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            if (eq <= 0) {
                throw new PmiException("PMI-1 token is not key=value: '" + token + "' in " + quote(line));
            }
            String key = token.substring(0, eq);
            if (fields.isEmpty() && !key.equals("cmd") && !key.equals("mcmd")) {
                throw new PmiException("PMI-1 line does not start with cmd=: " + quote(line));
            }
            if (fields.put(key, token.substring(eq + 1)) != null) {
                throw new PmiException("PMI-1 line repeats key '" + key + "': " + quote(line));
            }
        }
        if (fields.isEmpty()) {
            throw new PmiException("empty PMI-1 line");
        }
        return new Pmi1Message(fields);
    }

    /** The command name ({@code cmd} or {@code mcmd} value). */
    public String command() {
        String cmd = fields.get("cmd");
        return cmd != null ? cmd : fields.get("mcmd");
    }

    /** A field's value, or null when absent. */
    public String get(String key) {
        return fields.get(key);
    }

    /** A field that must be present. */
    public String require(String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new PmiException("PMI-1 message '" + command() + "' lacks field '" + key + "': " + this);
        }
        return v;
    }

    /** An integer field that must be present. */
    public int requireInt(String key) {
        String v = require(key);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new PmiException("PMI-1 field '" + key + "' is not an integer: " + this);
        }
    }

    /** The return code; a missing {@code rc} means success (Hydra 4.0.2 often omits it). */
    public int rc() {
        String v = fields.get("rc");
        if (v == null) {
            return 0;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new PmiException("PMI-1 rc is not an integer: " + this);
        }
    }

    public Map<String, String> fields() {
        return Collections.unmodifiableMap(fields);
    }

    /** The line as sent, with its '\n'; rejects keys or values that would break the framing. */
    public byte[] encode() {
        String line = toString() + "\n";
        byte[] bytes = line.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > MAX_LINE) {
            throw new PmiException("PMI-1 line of " + bytes.length + " bytes exceeds " + MAX_LINE + ": "
                    + quote(line.substring(0, 80)) + "…");
        }
        return bytes;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : fields.entrySet()) {
            check(e.getKey(), true);
            check(e.getValue(), false);
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }

    private static void check(String s, boolean key) {
        if (key && (s.isEmpty() || s.indexOf('=') >= 0)) {
            throw new PmiException("invalid PMI-1 key '" + s + "'");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= 0x20 || c > 0x7e) {
                throw new PmiException("PMI-1 " + (key ? "key" : "value") + " has a space, control or non-ASCII"
                        + " character: " + quote(s));
            }
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\n", "\\n") + "\"";
    }
}

package dev.mpj.runtime.pmi.wire;

import java.nio.charset.StandardCharsets;
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

    private static final String WHAT = "PMI-1 line";

    private final PmiFields fields;

    private Pmi1Message(PmiFields fields) {
        this.fields = fields;
    }

    /** A message {@code cmd=command k1=v1 k2=v2 …}; keyValues alternate key and value. */
    public static Pmi1Message of(String command, String... keyValues) {
        return new Pmi1Message(PmiFields.of(WHAT, command, keyValues));
    }

    /** Parses one line, without its '\n'. */
    public static Pmi1Message parse(String line) {
        if (line.length() >= MAX_LINE) {
            throw new PmiException("PMI-1 line longer than " + (MAX_LINE - 1) + " characters");
        }
        return new Pmi1Message(PmiFields.parse(WHAT, line, ' ', "cmd", "mcmd"));
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
        return fields.require(key);
    }

    /** An integer field that must be present. */
    public int requireInt(String key) {
        return fields.requireInt(key);
    }

    /** The return code; a missing {@code rc} means success (Hydra 4.0.2 often omits it). */
    public int rc() {
        return fields.rc();
    }

    public Map<String, String> fields() {
        return fields.asMap();
    }

    /** The line as sent, with its '\n'; rejects keys or values that would break the framing. */
    public byte[] encode() {
        String line = toString() + "\n";
        byte[] bytes = line.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > MAX_LINE) {
            throw new PmiException("PMI-1 line of " + bytes.length + " bytes exceeds " + MAX_LINE + ": "
                    + PmiFields.quote(line.substring(0, 80)) + "…");
        }
        return bytes;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : fields.asMap().entrySet()) {
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
                        + " character: " + PmiFields.quote(s));
            }
        }
    }

}

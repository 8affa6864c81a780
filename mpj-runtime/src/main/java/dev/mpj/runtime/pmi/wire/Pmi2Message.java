package dev.mpj.runtime.pmi.wire;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One PMI-2 message (PMI.md §3.1): a body {@code cmd=<name>;key=value;…;} with ';' ending every pair, framed by
 * a 6-character decimal length. Senders pad the length differently (MPICH's client and Slurm left-align,
 * Hydra right-aligns), so {@link #parseLength} trims both sides. Fields are matched by key and unknown ones
 * are kept but ignored by readers. Neither Hydra 4.0.2 nor Slurm un-escapes {@code ;;}, so keys and values
 * containing ';' are rejected rather than escaped; bodies are printable ASCII (spaces allowed, for messages)
 * and at most {@link #MAX_BODY} bytes.
 */
public final class Pmi2Message {
    /** Width of the length field. */
    public static final int LENGTH_FIELD = 6;

    /** Longest body either side may send: a 1024-character value plus its key and the command around it. */
    public static final int MAX_BODY = 1024 + 64 + 64;

    private static final String WHAT = "PMI-2 message";

    private final PmiFields fields;

    private Pmi2Message(PmiFields fields) {
        this.fields = fields;
    }

    /** A message {@code cmd=command;k1=v1;k2=v2;…}; keyValues alternate key and value. */
    public static Pmi2Message of(String command, String... keyValues) {
        return new Pmi2Message(PmiFields.of(WHAT, command, keyValues));
    }

    /**
     * The body length a 6-character length field announces: digits, space-padded on either side.
     *
     * @throws PmiException when the field is not a number in 0..{@link #MAX_BODY}
     */
    public static int parseLength(String field) {
        String digits = field.strip();
        int length = -1;
        if (!digits.isEmpty() && digits.length() <= LENGTH_FIELD && digits.chars().allMatch(Character::isDigit)) {
            length = Integer.parseInt(digits);
        }
        if (length < 0) {
            throw new PmiException("PMI-2 length field is not a number: " + PmiFields.quote(field));
        }
        if (length > MAX_BODY) {
            throw new PmiException("PMI-2 length field announces " + length + " bytes; the limit is " + MAX_BODY);
        }
        return length;
    }

    /** Parses a body (without its length field). Empty segments between ';' are skipped. */
    public static Pmi2Message parse(String body) {
        if (body.length() > MAX_BODY) {
            throw new PmiException("PMI-2 body longer than " + MAX_BODY + " bytes");
        }
        return new Pmi2Message(PmiFields.parse(WHAT, body, ';', "cmd"));
    }

    public String command() {
        return fields.get("cmd");
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

    /** The return code; a missing {@code rc} means success. */
    public int rc() {
        return fields.rc();
    }

    /**
     * The value of a lookup reply ({@code kvs-get}, {@code info-get*attr}), or null when not found: Hydra 4.0.2
     * and Slurm say {@code found=FALSE} with rc=0, newer Hydra says rc=1 without {@code found} (PMI.md §3.2).
     */
    public String foundValue() {
        if (rc() != 0 || !"TRUE".equalsIgnoreCase(fields.get("found"))) {
            return null;
        }
        return require("value");
    }

    public Map<String, String> fields() {
        return fields.asMap();
    }

    /** The frame as sent: the length left-aligned in 6 characters (as MPICH's client), then the body. */
    public byte[] encode() {
        String body = toString();
        if (body.length() > MAX_BODY) {
            throw new PmiException("PMI-2 message of " + body.length() + " bytes exceeds " + MAX_BODY + ": \""
                    + body.substring(0, 80) + "…\"");
        }
        String frame = String.format("%-" + LENGTH_FIELD + "d", body.length()) + body;
        return frame.getBytes(StandardCharsets.US_ASCII);
    }

    /** The body: {@code cmd=…;k=v;…;}. Rejects keys or values that would break the framing. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : fields.asMap().entrySet()) {
            check(e.getKey(), true);
            check(e.getValue(), false);
            sb.append(e.getKey()).append('=').append(e.getValue()).append(';');
        }
        return sb.toString();
    }

    private static void check(String s, boolean key) {
        if (key && (s.isEmpty() || s.indexOf('=') >= 0 || s.indexOf(' ') >= 0)) {
            throw new PmiException("invalid PMI-2 key '" + s + "'");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == ';') {
                throw new PmiException("PMI-2 " + (key ? "key" : "value") + " has a ';', control or non-ASCII"
                        + " character (code " + (int) c + ") at index " + i + ": " + PmiFields.quote(s));
            }
        }
    }
}

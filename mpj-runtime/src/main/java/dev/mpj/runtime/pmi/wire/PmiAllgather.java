package dev.mpj.runtime.pmi.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * mpjrun's allgather (PMI.md §3.7), an extension neither Hydra nor Slurm serves: every rank sends one value and
 * receives every rank's value in rank order, in one request instead of a put, a fence and one get per rank.
 * <pre>
 *   PMI-1: cmd=mpj_allgather value=V               PMI-2: cmd=mpj-allgather;value=V;
 *   reply: cmd=mpj_allgather_result rc=0 count=P         cmd=mpj-allgather-response;rc=0;count=P;
 *          cmd=mpj_allgather_values values=V0,V1,…        cmd=mpj-allgather-values;values=V0,V1,…;
 *          … until P values have come                     …
 * </pre>
 * The server announces it in PMI-1's {@code maxes} reply ({@code mpj_allgather=1}) and in PMI-2's
 * {@code fullinit-response} ({@code mpj-allgather=TRUE}). Values are non-empty and carry no ',' on top of the
 * rules of {@link PmiLimits}; the value lines are the same for every rank, so the server encodes them once.
 */
public final class PmiAllgather {
    public static final String PMI1_REQUEST = "mpj_allgather";
    public static final String PMI1_RESULT = "mpj_allgather_result";
    public static final String PMI1_VALUES = "mpj_allgather_values";
    public static final String PMI1_OFFER = "mpj_allgather";
    public static final String PMI2_REQUEST = "mpj-allgather";
    public static final String PMI2_RESULT = "mpj-allgather-response";
    public static final String PMI2_VALUES = "mpj-allgather-values";
    public static final String PMI2_OFFER = "mpj-allgather";
    public static final String VALUE = "value";
    public static final String VALUES = "values";
    public static final String COUNT = "count";
    private static final char SEPARATOR = ',';
    /** Room left in a line or frame for the command and the field name around the values. */
    private static final int ENVELOPE = 64;

    private PmiAllgather() {
    }

    /** Why {@code value} cannot enter an allgather, or null when it can. */
    public static String problem(String value) {
        if (value == null || value.isEmpty()) {
            return "an empty allgather value";
        }
        if (value.indexOf(SEPARATOR) >= 0) {
            return "an allgather value with a ','";
        }
        if (value.length() > PmiLimits.DEFAULT_MAX_VALUE_LENGTH) {
            return "an allgather value of " + value.length() + " characters (at most "
                    + PmiLimits.DEFAULT_MAX_VALUE_LENGTH + ")";
        }
        return null;
    }

    /** The {@code values} fields that carry {@code values} in order, each short enough for one line or frame. */
    public static List<String> chunks(List<String> values, boolean pmi2) {
        int room = (pmi2 ? Pmi2Message.MAX_BODY : Pmi1Message.MAX_LINE) - ENVELOPE;
        List<String> chunks = new ArrayList<>();
        StringBuilder chunk = new StringBuilder(room);
        for (String v : values) {
            if (chunk.length() > 0 && chunk.length() + 1 + v.length() > room) {
                chunks.add(chunk.toString());
                chunk.setLength(0);
            }
            if (chunk.length() > 0) {
                chunk.append(SEPARATOR);
            }
            chunk.append(v);
        }
        if (chunk.length() > 0) {
            chunks.add(chunk.toString());
        }
        return chunks;
    }

    /** Adds the values of one {@code values} field to {@code into}; fails when they would pass {@code count}. */
    public static void collect(String field, int count, List<String> into) {
        int from = 0;
        while (from <= field.length()) {
            int comma = field.indexOf(SEPARATOR, from);
            int to = comma < 0 ? field.length() : comma;
            if (into.size() == count) {
                throw new PmiException("the process manager sent more than the " + count + " allgather values it"
                        + " announced");
            }
            into.add(field.substring(from, to));
            from = to + 1;
        }
    }
}

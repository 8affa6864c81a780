package dev.mpj.samples.bench.pmiscale;

import dev.mpj.runtime.pmi.SharedKvsTable;
import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;

import java.util.List;
import java.util.Map;

/**
 * One request of a simulated rank, as the real clients encode it, and the check of its reply, which comes as
 * PMI-1 lines or, once the rank speaks PMI-2, as frames. A wrong reply throws: the simulation then fails.
 */
abstract class Step {
    /** What the step counts as, for the job's totals. */
    enum Op { START, PUT, FENCE, GET, RING, ALLGATHER, FINALIZE }

    final Op op;
    private final byte[] request;
    /** Whether the reply comes as PMI-2 frames (else PMI-1 lines). */
    final boolean framed;

    Step(Op op, byte[] request, boolean framed) {
        this.op = op;
        this.request = request;
        this.framed = framed;
    }

    /** The bytes sent to the server. */
    byte[] request() {
        return request;
    }

    /** Consumes one line or frame body of the reply; returns whether the reply is complete. */
    abstract boolean reply(String unit);

    /**
     * Answers the step from the node's shared KVS table as the real clients do, without a request; false when
     * the step is no get or the table lacks the key.
     */
    boolean answerFrom(SharedKvsTable table) {
        return false;
    }

    /** The path of the shared KVS table the server announced in this step's replies, or null. */
    String offeredTable() {
        return null;
    }

    /**
     * A PMI-1 get of {@code key} in {@code kvs}, whose value must be {@code expected}: from the node's shared
     * table when it holds the key, else from the server. The request is encoded only when it is sent.
     */
    static Step get(String kvs, String key, String expected) {
        return new Step(Op.GET, null, false) {
            @Override
            byte[] request() {
                return Pmi1Message.of("get", "kvsname", kvs, "key", key).encode();
            }

            @Override
            boolean reply(String unit) {
                Pmi1Message m = Pmi1Message.parse(unit);
                expect("get_result".equals(m.command()) && m.rc() == 0 && expected.equals(m.get("value")), key,
                        unit);
                return true;
            }

            @Override
            boolean answerFrom(SharedKvsTable table) {
                String value = table.get(key);
                if (value == null) {
                    return false;
                }
                if (!value.equals(expected)) {
                    throw new IllegalStateException("the shared table gave " + value + " for " + key);
                }
                return true;
            }
        };
    }

    static Step line(Op op, Pmi1Message request, String replyCommand, String expectedValue) {
        return new Step(op, request.encode(), false) {
            @Override
            boolean reply(String unit) {
                Pmi1Message m = Pmi1Message.parse(unit);
                expect(replyCommand.equals(m.command()) && m.rc() == 0, request, unit);
                expect(expectedValue == null || expectedValue.equals(m.get("value")), request, unit);
                return true;
            }
        };
    }

    /**
     * Several requests sent at once, answered by {@code lines} lines (the pipelined start of a PMI-1 client), one
     * of which may be the {@code maxes} reply that announces the shared KVS table.
     */
    static Step lines(Op op, byte[] requests, int lines) {
        return new Step(op, requests, false) {
            private int seen;
            private String table;

            @Override
            boolean reply(String unit) {
                Pmi1Message m = Pmi1Message.parse(unit);
                expect(m.rc() == 0, null, unit);
                if (m.get(SharedKvsTable.PMI1_OFFER) != null) {
                    table = m.get(SharedKvsTable.PMI1_OFFER);
                }
                return ++seen == lines;
            }

            @Override
            String offeredTable() {
                return table;
            }
        };
    }

    static Step frame(Op op, Pmi2Message request, String replyCommand, Map<String, String> expected) {
        return new Step(op, request.encode(), true) {
            @Override
            boolean reply(String unit) {
                Pmi2Message m = Pmi2Message.parse(unit);
                expect(replyCommand.equals(m.command()) && m.rc() == 0, request, unit);
                for (Map.Entry<String, String> e : expected.entrySet()) {
                    expect(e.getValue().equals(m.get(e.getKey())), request, unit);
                }
                return true;
            }
        };
    }

    /** mpjrun's allgather over PMI-1: the result line, then the value lines, which must be {@code chunks}. */
    static Step allgather(String value, List<String> chunks, int size) {
        Pmi1Message request = Pmi1Message.of(PmiAllgather.PMI1_REQUEST, PmiAllgather.VALUE, value);
        return new Step(Op.ALLGATHER, request.encode(), false) {
            private int next = -1;

            @Override
            boolean reply(String unit) {
                Pmi1Message m = Pmi1Message.parse(unit);
                if (next < 0) {
                    expect(PmiAllgather.PMI1_RESULT.equals(m.command()) && m.rc() == 0
                            && m.requireInt(PmiAllgather.COUNT) == size, request, unit);
                } else {
                    expect(PmiAllgather.PMI1_VALUES.equals(m.command())
                            && chunks.get(next).equals(m.get(PmiAllgather.VALUES)), request, unit);
                }
                return ++next == chunks.size();
            }
        };
    }

    private static void expect(boolean ok, Object request, String reply) {
        if (!ok) {
            throw new IllegalStateException("unexpected reply " + reply + (request == null ? "" : " to " + request));
        }
    }
}

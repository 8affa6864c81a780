package dev.mpj.runtime.pmi;

import dev.mpj.runtime.pmi.wire.Pmi1Message;
import dev.mpj.runtime.pmi.wire.Pmi2Message;
import dev.mpj.runtime.pmi.wire.PmiAllgather;
import dev.mpj.runtime.pmi.wire.PmiException;

import java.util.ArrayList;
import java.util.List;

/**
 * The client's half of mpjrun's {@link PmiAllgather allgather}, in either dialect: one request, a result with the
 * count, then the value lines or frames. No lambdas: this runs inside {@code MPI.Init}.
 */
final class AllgatherCall {
    private AllgatherCall() {
    }

    /**
     * Enters the allgather with {@code value} and counts it; returns the {@code size} values of the job in rank
     * order. {@code served}: whether the server announced it.
     */
    static List<String> run(PmiConnection connection, boolean pmi2, boolean served, String value, int size) {
        if (!served) {
            throw new PmiException("this process manager offers no allgather (only mpjrun does)");
        }
        String problem = PmiAllgather.problem(value);
        if (problem != null) {
            throw new PmiException("cannot enter the PMI allgather with " + problem);
        }
        int rc;
        int count;
        String result;
        if (pmi2) {
            Pmi2Message m = connection.call(Pmi2Message.of(PmiAllgather.PMI2_REQUEST, PmiAllgather.VALUE, value),
                    PmiAllgather.PMI2_RESULT);
            rc = m.rc();
            count = m.requireInt(PmiAllgather.COUNT);
            result = m.toString();
        } else {
            Pmi1Message m = connection.call(Pmi1Message.of(PmiAllgather.PMI1_REQUEST, PmiAllgather.VALUE, value),
                    PmiAllgather.PMI1_RESULT);
            rc = m.rc();
            count = m.requireInt(PmiAllgather.COUNT);
            result = m.toString();
        }
        if (rc != 0) {
            throw new PmiException("the process manager refused the allgather: " + result);
        }
        if (count != size) {
            throw new PmiException("the process manager announced " + count + " allgather values in a job of "
                    + size + ": " + result);
        }
        List<String> values = new ArrayList<>(count);
        while (values.size() < count) {
            PmiAllgather.collect(pmi2 ? pmi2Field(connection) : pmi1Field(connection), count, values);
        }
        connection.counters().countAllgather();
        return values;
    }

    private static String pmi1Field(PmiConnection connection) {
        Pmi1Message m = connection.receive(PmiAllgather.PMI1_VALUES);
        expect(m.command(), PmiAllgather.PMI1_VALUES, m);
        return m.require(PmiAllgather.VALUES);
    }

    private static String pmi2Field(PmiConnection connection) {
        Pmi2Message m = connection.receiveFrame(PmiAllgather.PMI2_VALUES);
        expect(m.command(), PmiAllgather.PMI2_VALUES, m);
        return m.require(PmiAllgather.VALUES);
    }

    private static void expect(String command, String expected, Object message) {
        if (!expected.equals(command)) {
            throw new PmiException("expected cmd=" + expected + " in the allgather's reply but the process manager"
                    + " sent: " + message);
        }
    }
}

package dev.mpj.samples.bench.pmiscale;

import dev.mpj.runtime.bootstrap.ExchangeFormula;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The simulator against mpjrun's real PMI server in this JVM, flat and through one node agent per node, at a small
 * size: every simulated rank's replies are checked (each get returns the card its peer put, the allgather every
 * card in rank order, the ring the neighbour nodes' root cards), and the job's PMI operations equal the exchange's
 * formula. With the shared table every get is answered from it, as the real clients do after the fence; without
 * it every get is a request to the server.
 */
@Timeout(120)
class PmiScaleTest {
    static Stream<Arguments> jobs() {
        // 40 nodes: the agents' tree of width 16 has three levels
        return RankScript.EXCHANGES.stream().flatMap(x -> Stream.of(false, true).flatMap(agents -> Stream.of(
                Arguments.of(x, 24, 4, agents, true), Arguments.of(x, 24, 4, agents, false),
                Arguments.of(x, 7, 3, agents, true), Arguments.of(x, 5, 1, agents, true),
                Arguments.of(x, 80, 40, agents, true))));
    }

    @ParameterizedTest(name = "{0}: {1} ranks on {2} nodes, agents {3}, shared table {4}")
    @MethodSource("jobs")
    void theJobsOperationsEqualTheFormula(String exchange, int ranks, int nodes, boolean agents, boolean table)
            throws Exception {
        PmiScale.Row row = PmiScale.runJob(exchange, ranks, nodes, false, agents, 2, Duration.ofSeconds(60), table);
        ExchangeFormula f = PmiScale.formula(exchange, ranks, nodes);
        assertEquals("puts=" + f.puts() + " gets=" + f.gets() + " fences=" + f.fences() + " other=" + f.other()
                        + " from the table=" + (table ? f.gets() : 0),
                "puts=" + row.puts() + " gets=" + row.gets() + " fences=" + row.fences() + " other=" + row.other()
                        + " from the table=" + row.tableGets(), f.text());
    }
}

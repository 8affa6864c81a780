package dev.mpj.it;

import dev.mpj.runtime.bootstrap.ExchangeFormula;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The address exchanges through mpjrun's node agents (decision 0036): 7 ranks on 3 fake nodes whose agents form a
 * chain (tree width 1: node 0, its child 1, its grandchild 2), so every fence, allgather and ring goes up two
 * levels and back down. Every rank holds the table the cards define, the exchange's PMI operations follow the
 * strategy's formula as without agents, and nothing is left behind.
 */
@Timeout(180)
@Tag("multi-jvm")
class NodeAgentsIT {
    private static final int NP = 7;
    private static final int NODES = 3;

    @TempDir
    Path segments;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"simple", "shm", "roots", "ring"})
    void everyExchangeThroughTheAgentsBuildsTheTableWithItsFormulasCounts(String exchange) throws Exception {
        Job job = Job.np(NP).launcherOptions("--fake-nodes", Integer.toString(NODES))
                .env("MPJ_AGENTS", "true").env("MPJ_AGENT_TREE_WIDTH", "1")
                .env("MPJ_ADDRESS_EXCHANGE", exchange).env("MPJ_SEGMENT_DIR", segments.toString());
        if (exchange.equals("ring")) {
            job.env("MPJ_PMI", "pmi2"); // PMIX_Ring is PMI-2's
        }
        Job.Result r = job.run(CardTableProgram.class);
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(NP, r.linesContaining("cardtable OK rank"), r::toString);
        CardTables.Operations ops = CardTables.assertOneTable(r.out(), NP, exchange);
        if (exchange.equals("ring")) {
            assertEquals(new CardTables.Operations(0, 0, 0, NP, 0), ops, "one ring per rank and nothing else");
        } else {
            // mpjrun offers its allgather, so simple makes one per rank instead of a put, a fence and P gets
            ExchangeFormula formula = ExchangeFormula.of(exchange, NP, NODES, exchange.equals("simple"));
            assertEquals("puts=" + formula.puts() + " gets=" + formula.gets() + " barriers=" + formula.fences()
                    + " allgathers=" + formula.other(), "puts=" + ops.puts() + " gets=" + ops.gets() + " barriers="
                    + ops.barriers() + " allgathers=" + ops.allgathers(), formula.text());
        }
        assertTrue(r.leftovers().isEmpty(), "rank JVMs left behind");
        try (Stream<Path> files = Files.list(segments)) {
            List<Path> left = files.toList();
            assertTrue(left.isEmpty(), "segment files left behind: " + left);
        }
    }
}

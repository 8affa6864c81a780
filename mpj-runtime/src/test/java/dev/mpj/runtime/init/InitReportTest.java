package dev.mpj.runtime.init;

import dev.mpj.runtime.pmi.PmiCounters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InitReportTest {
    @Test
    void eachPhaseIsChargedWithThePmiOperationsMadeSinceThePreviousMark() {
        PmiCounters c = new PmiCounters();
        InitReport r = new InitReport();
        c.countGet(); // made while the client started: charged to the first phase
        r.countFrom(c);
        r.phase("pmi");
        c.countPut();
        c.countBarrier();
        c.countGet();
        c.countGet();
        r.phase("exchange");
        assertEquals(List.of("pmi", "exchange"), r.phases().stream().map(InitReport.Phase::name).toList());
        assertEquals(1, r.get("pmi").gets());
        InitReport.Phase exchange = r.get("exchange");
        assertEquals(1, exchange.puts());
        assertEquals(2, exchange.gets());
        assertEquals(1, exchange.barriers());
    }

    @Test
    void aPhaseInSeveralPiecesAccumulatesTimeAndOperationsInItsFirstPlace() throws InterruptedException {
        PmiCounters c = new PmiCounters();
        InitReport r = new InitReport();
        r.countFrom(c);
        c.countPut();
        r.phase("exchange");
        Thread.sleep(5);
        r.phase("segment");
        c.countGet();
        r.phase("exchange");
        assertEquals(List.of("exchange", "segment"), r.phases().stream().map(InitReport.Phase::name).toList());
        assertEquals(1, r.get("exchange").puts());
        assertEquals(1, r.get("exchange").gets());
        assertTrue(r.get("segment").nanos() >= 5_000_000);
        assertEquals(r.totalNanos(), r.get("exchange").nanos() + r.get("segment").nanos());
    }

    @Test
    void aPhaseThatDidNotRunIsEmpty() {
        InitReport.Phase p = new InitReport().get("cardlength");
        assertEquals(0, p.nanos() + p.puts() + p.gets() + p.barriers());
    }

    @Test
    void theFenceOverlapIsTheLocalWorkBetweenEnteringTheFenceAndWaitingForIt() {
        InitReport r = new InitReport();
        r.phase("card");
        r.phase("exchange");
        r.fenceStarted();
        r.phase("engine");
        r.phase("segment");
        r.phase("preload");
        r.phase("fence");
        r.phase("exchange");
        assertEquals(r.get("engine").nanos() + r.get("segment").nanos() + r.get("preload").nanos(),
                r.overlapNanos());
    }

    @Test
    void withoutAPendingFenceNothingOverlaps() {
        InitReport r = new InitReport();
        r.phase("segment");
        r.phase("fence");
        assertEquals(0, r.overlapNanos());
    }
}

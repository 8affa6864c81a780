package dev.mpj.samples.stencil;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class IterationTimesTest {
    @Test
    void eachRankWaitsWhatItsPhaseTookBeyondTheIterationsLeastRank() {
        // two ranks, two iterations, rank after rank: (halo, update, allreduce) per iteration, in seconds
        double[] gathered = {
                0.000100, 0.000500, 0.000020, 0.000300, 0.000500, 0.000010,
                0.000400, 0.000700, 0.000050, 0.000100, 0.000600, 0.000030};
        List<String> rows = IterationTimes.rows(gathered, 2, 2);
        assertEquals(List.of(IterationTimes.HEADER,
                "0,0,100.0,500.0,20.0,0.0,0.0",
                "0,1,400.0,700.0,50.0,300.0,30.0",
                "1,0,300.0,500.0,10.0,200.0,0.0",
                "1,1,100.0,600.0,30.0,0.0,20.0"), rows);
    }

    @Test
    void recordedTimesComeBackInTheirIterationsRow() {
        IterationTimes times = new IterationTimes(2);
        times.record(1, 0.000002, 0.000003, 0.000004);
        times.record(0, 0.000001, 0.000001, 0.000001);
        assertEquals("1,0,2.0,3.0,4.0,0.0,0.0", IterationTimes.rows(times.seconds(), 1, 2).get(2));
    }
}

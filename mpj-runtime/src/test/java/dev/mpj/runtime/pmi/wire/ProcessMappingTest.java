package dev.mpj.runtime.pmi.wire;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ProcessMappingTest {

    @ParameterizedTest(name = "{0} ranks on {1} nodes -> {2}")
    @CsvSource(delimiter = ';', value = {
            // ranks; nodes asked; PMI_process_mapping; local rank/local size of each rank
            "1; 1; (vector,(0,1,1)); 0/1",
            "4; 1; (vector,(0,1,4)); 0/4 1/4 2/4 3/4",
            "4; 2; (vector,(0,2,2)); 0/2 1/2 0/2 1/2",
            "5; 2; (vector,(0,2,3)); 0/3 1/3 2/3 0/2 1/2",
            "4; 4; (vector,(0,4,1)); 0/1 0/1 0/1 0/1",
            "5; 4; (vector,(0,3,2)); 0/2 1/2 0/2 1/2 0/1",
            "7; 3; (vector,(0,3,3)); 0/3 1/3 2/3 0/3 1/3 2/3 0/1",
    })
    void blocksOfConsecutiveRanksPerNode(int ranks, int nodes, String value, String locals) {
        ProcessMapping m = ProcessMapping.blocks(ranks, nodes);
        assertEquals(value, m.pmiValue());
        List<String> actual = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            actual.add(m.localRank(r) + "/" + m.localSize(r));
        }
        assertEquals(List.of(locals.split(" ")), actual);
    }

    @Test
    void singleNodeHoldsEveryRank() {
        assertEquals("(vector,(0,1,6))", ProcessMapping.singleNode(6).pmiValue());
    }

    @Test
    void nodeCountMustBeBetweenOneAndTheRankCount() {
        assertThrows(IllegalArgumentException.class, () -> ProcessMapping.blocks(4, 0));
        assertThrows(IllegalArgumentException.class, () -> ProcessMapping.blocks(4, 5));
        assertThrows(IllegalArgumentException.class, () -> ProcessMapping.singleNode(0));
    }
}

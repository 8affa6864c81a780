package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.config.AddressExchangeMode;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiCounters;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * While an exchange's fence is pending, a rank asks its PMI client to ready the get path only when more than one get
 * follows the fence: a {@code roots} job whose nodes' ranks share one other root's card (or none, on one node) and
 * an {@code shm} job of one card per local rank leave it cold.
 */
class ExchangeFenceGetsTest {

    static Stream<Arguments> exchanges() {
        return Stream.of(
                Arguments.of(AddressExchangeMode.ROOTS, NodeMap.blocks(4, 1), 0),
                Arguments.of(AddressExchangeMode.ROOTS, NodeMap.blocks(8, 2), 0),
                Arguments.of(AddressExchangeMode.ROOTS, NodeMap.blocks(16, 8), 16),
                Arguments.of(AddressExchangeMode.ROOTS, NodeMap.blocks(4, 4), 4),
                Arguments.of(AddressExchangeMode.SHM, NodeMap.blocks(4, 1), 0),
                Arguments.of(AddressExchangeMode.SHM, NodeMap.blocks(8, 2), 8),
                Arguments.of(AddressExchangeMode.SIMPLE, NodeMap.blocks(4, 1), 4));
    }

    @ParameterizedTest(name = "{0}, {1}: {2} ranks ready their gets")
    @MethodSource("exchanges")
    void getPathIsReadiedOnlyWhereMoreThanOneGetFollowsTheFence(AddressExchangeMode mode, NodeMap map, int readied) {
        int ranksThatReadied = 0;
        for (int rank = 0; rank < map.size(); rank++) {
            CountingPmi pmi = new CountingPmi(rank, map.size());
            ExchangeContext c = new ExchangeContext(pmi, map, new byte[] {1, 2, 3}, null, null, null, phase -> { });
            AddressExchanges.choose(mode, map.size(), map.nodeCount()).start(c);
            assertEquals(1, pmi.barriersBegun, "the fence is entered");
            ranksThatReadied += pmi.prepared;
        }
        assertEquals(readied, ranksThatReadied);
    }

    /** Counts what the exchange's start asks of PMI; answers nothing else. */
    private static final class CountingPmi implements PmiClient {
        private final int rank;
        private final int size;
        int barriersBegun;
        int prepared;

        CountingPmi(int rank, int size) {
            this.rank = rank;
            this.size = size;
        }

        @Override
        public void barrierBegin() {
            barriersBegun++;
        }

        @Override
        public void prepareGets() {
            prepared++;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public String jobId() {
            return "job";
        }

        @Override
        public String processMapping() {
            return null;
        }

        @Override
        public int maxValueLength() {
            return 1024;
        }

        @Override
        public void put(String key, String value) {
        }

        @Override
        public String get(String key) {
            throw new AssertionError("no get before the fence ends");
        }

        @Override
        public void barrier() {
            throw new AssertionError("the fence is split");
        }

        @Override
        public void finish() {
        }

        @Override
        public void abort(int exitCode, String message) {
        }

        @Override
        public PmiCounters counters() {
            return new PmiCounters();
        }

        @Override
        public String dialect() {
            return "test";
        }

        @Override
        public void close() {
        }
    }
}

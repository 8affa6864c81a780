package dev.mpj.runtime.pmi.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes {@code PMI_process_mapping}, {@code (vector,(s,n,p),(s,n,p),…)}: each triple places ranks on
 * {@code n} consecutive nodes starting at node id {@code s}, {@code p} consecutive ranks per node. When the
 * list runs out before every rank is placed it starts again, from the first triple whose start id is 0 if one
 * was seen (as MPICH does; Hydra's {@code (vector,(0,1,1))} for 4 ranks on one host relies on it), and so on
 * until all ranks are placed; capacity beyond the job size is ignored. Spaces between tokens are allowed.
 */
public final class ProcessMappingParser {
    private record Block(int startNode, int nodeCount, int ranksPerNode) {
        long capacity() {
            return (long) nodeCount * ranksPerNode;
        }
    }

    private final String text;
    private int pos;

    private ProcessMappingParser(String text) {
        this.text = text;
    }

    /**
     * The process manager's node id of every rank.
     *
     * @throws IllegalArgumentException when the mapping does not follow the grammar or places no rank
     */
    public static int[] nodeIds(String mapping, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("a job has at least one rank, not " + size);
        }
        List<Block> blocks = new ProcessMappingParser(mapping).parse();
        int wrapFrom = 0;
        while (wrapFrom < blocks.size() && blocks.get(wrapFrom).startNode() != 0) {
            wrapFrom++;
        }
        if (wrapFrom == blocks.size()) {
            wrapFrom = 0; // no block starts at node 0: repeat the whole list
        }
        long firstPass = capacity(blocks, 0);
        long repeated = capacity(blocks, wrapFrom);
        if (firstPass < size && repeated == 0) {
            throw new IllegalArgumentException("PMI_process_mapping '" + mapping + "' places only " + firstPass
                    + " of " + size + " ranks and cannot be repeated (its blocks hold no rank)");
        }
        int[] nodeIds = new int[size];
        int rank = 0;
        for (int first = 0; ; first = wrapFrom) {
            for (int b = first; b < blocks.size(); b++) {
                Block block = blocks.get(b);
                for (int n = 0; n < block.nodeCount(); n++) {
                    for (int p = 0; p < block.ranksPerNode(); p++) {
                        nodeIds[rank++] = block.startNode() + n;
                        if (rank == size) {
                            return nodeIds;
                        }
                    }
                }
            }
        }
    }

    /** Ranks the blocks from {@code from} on hold in one pass (no lambdas: this runs in a cold JVM's init). */
    private static long capacity(List<Block> blocks, int from) {
        long sum = 0;
        for (int b = from; b < blocks.size(); b++) {
            sum += blocks.get(b).capacity();
        }
        return sum;
    }

    private List<Block> parse() {
        skipSpaces();
        expect('(');
        skipSpaces();
        if (!text.startsWith("vector", pos)) {
            throw malformed("expected 'vector'");
        }
        pos += "vector".length();
        List<Block> blocks = new ArrayList<>();
        skipSpaces();
        while (peek() == ',') {
            pos++;
            skipSpaces();
            expect('(');
            int start = number();
            expect(',');
            int count = number();
            expect(',');
            int perNode = number();
            expect(')');
            if ((long) start + count > Integer.MAX_VALUE) {
                throw malformed("node ids beyond " + Integer.MAX_VALUE);
            }
            blocks.add(new Block(start, count, perNode));
            skipSpaces();
        }
        expect(')');
        skipSpaces();
        if (pos != text.length()) {
            throw malformed("unexpected text after the closing ')'");
        }
        if (blocks.isEmpty()) {
            throw malformed("no (start,nodes,ranks) block");
        }
        return blocks;
    }

    private int number() {
        skipSpaces();
        int begin = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == begin) {
            throw malformed("expected a non-negative number");
        }
        long value = Long.parseLong(text.substring(begin, Math.min(pos, begin + 11)));
        if (pos - begin > 10 || value > Integer.MAX_VALUE) {
            throw malformed("number too large");
        }
        skipSpaces();
        return (int) value;
    }

    private void expect(char c) {
        skipSpaces();
        if (peek() != c) {
            throw malformed("expected '" + c + "'");
        }
        pos++;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpaces() {
        while (pos < text.length() && text.charAt(pos) == ' ') {
            pos++;
        }
    }

    private IllegalArgumentException malformed(String problem) {
        String at = pos < text.length() ? "at index " + pos : "at the end";
        return new IllegalArgumentException("malformed PMI_process_mapping '" + text + "': " + problem + " " + at);
    }
}

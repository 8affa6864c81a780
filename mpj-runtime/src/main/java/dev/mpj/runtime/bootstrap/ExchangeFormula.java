package dev.mpj.runtime.bootstrap;

/**
 * The PMI operations an address exchange makes in a job of P ranks on N nodes, summed over the ranks: puts, gets
 * and fence entries (each rank's {@code barrier_in} or {@code kvs-fence}), with the formula as printed. The
 * benchmarks print it next to what they counted, and the tests hold the counts to it.
 *
 * @param text  the formula and its values, e.g. {@code N puts, N(N−1) gets: puts=4 gets=12}
 * @param other the collective requests that replace put, fence and get: PMIX_Rings or allgathers, one per rank
 */
public record ExchangeFormula(String text, long puts, long gets, long fences, long other) {

    /**
     * The formula of {@code exchange} ({@code simple}, {@code shm}, {@code roots}, {@code ring}; anything else
     * is a job of one rank, which exchanges nothing). {@code allgather}: {@code simple} ran over the process
     * manager's allgather, one request per rank instead of a put, a fence and P gets.
     */
    public static ExchangeFormula of(String exchange, long p, long n, boolean allgather) {
        return switch (exchange) {
            case "simple" -> allgather
                    ? new ExchangeFormula("P allgathers, no puts, gets or fence: puts=0 gets=0 allgathers=" + p,
                            0, 0, 0, p)
                    : new ExchangeFormula("P puts, P² gets: puts=" + p + " gets=" + p * p, p, p * p, p, 0);
            case "shm" -> new ExchangeFormula("P puts, N·P gets: puts=" + p + " gets=" + n * p, p, n * p, p, 0);
            case "roots" -> new ExchangeFormula("N puts, N(N−1) gets: puts=" + n + " gets=" + n * (n - 1), n,
                    n * (n - 1), p, 0);
            case "ring" -> new ExchangeFormula("P rings, no puts, gets or fence: puts=0 gets=0", 0, 0, 0,
                    n == 1 ? 0 : p);
            default -> new ExchangeFormula("no exchange in a job of one rank: puts=0 gets=0", 0, 0, 0, 0);
        };
    }
}

package mpi;

import java.util.Arrays;

/**
 * The flattened layout of one item of a datatype: the runs of contiguous buffer elements it covers,
 * in the order their values travel, with offsets relative to the item's origin, and the item's
 * bounds. Everything is counted in buffer elements. Runs that continue each other are merged while
 * the map is built, so packing walks a few long runs with bulk copies rather than single elements:
 * a face of a 3D array costs one run per row, or one run in all when the face is contiguous.
 *
 * <p>Bounds follow MPI: the lower bound is the lowest {@link MPI#LB} marker if there is one, else
 * the lowest data offset; the upper bound likewise with {@link MPI#UB} and the end of the data.
 * Markers are sticky: a type built from a type with markers inherits them.
 */
final class Typemap {
    /** Most runs a map may hold: beyond this a type is better described with fewer, longer runs. */
    static final int MAX_RUNS = 1 << 24;

    private final int[] offsets;
    private final int[] lengths;
    private final int runs;
    /** Elements of data in one item. */
    final int size;
    final int lb;
    final int ub;
    /** Whether the bound comes from an {@link MPI#LB} / {@link MPI#UB} marker. */
    final boolean explicitLb;
    final boolean explicitUb;
    /** The lowest data offset and the end of the highest run; both 0 without data. */
    final int dataLo;
    final int dataHi;

    private Typemap(int[] offsets, int[] lengths, int runs, int size, int lb, int ub,
                    boolean explicitLb, boolean explicitUb) {
        this.offsets = offsets;
        this.lengths = lengths;
        this.runs = runs;
        this.size = size;
        this.lb = lb;
        this.ub = ub;
        this.explicitLb = explicitLb;
        this.explicitUb = explicitUb;
        int lo = 0;
        int hi = 0;
        for (int r = 0; r < runs; r++) {
            lo = r == 0 ? offsets[r] : Math.min(lo, offsets[r]);
            hi = r == 0 ? offsets[r] + lengths[r] : Math.max(hi, offsets[r] + lengths[r]);
        }
        this.dataLo = lo;
        this.dataHi = hi;
    }

    /** The map of a predefined type: {@code n} contiguous elements from offset 0 ({@code n} may be 0). */
    static Typemap contiguous(int n) {
        return n == 0
                ? new Typemap(new int[0], new int[0], 0, 0, 0, 0, false, false)
                : new Typemap(new int[] {0}, new int[] {n}, 1, n, 0, n, false, false);
    }

    int extent() {
        return ub - lb;
    }

    int runCount() {
        return runs;
    }

    /** Offset and length of run {@code r}, as {offset, length}; for tests and diagnostics. */
    int[] run(int r) {
        return new int[] {offsets[r], lengths[r]};
    }

    /** Whether one item's data is a single run exactly as long as the extent, so consecutive items touch. */
    boolean isDense() {
        return runs == 1 && lengths[0] == extent();
    }

    /**
     * Whether {@code count} items starting anywhere are one run of buffer elements (or none), so they
     * can be shared or received in place; the run starts at {@link #firstOffset()} from the origin.
     */
    boolean isContiguousFor(int count) {
        return runs == 0 || count <= 1 && runs == 1 || isDense();
    }

    int firstOffset() {
        return runs == 0 ? 0 : offsets[0];
    }

    /**
     * The runs of {@code count} items whose first item has its origin at buffer index {@code origin},
     * item {@code i} at {@code origin + i * extent}, in the order their values travel, ending after
     * {@code elements} elements (a partly received message fills a prefix).
     */
    Cursor cursor(int origin, int count, long elements) {
        return new Cursor(this, origin, count, elements);
    }

    /**
     * Walks runs without a callback per run ({@code while (c.next()) copy(c.index, c.length)}), so that
     * copy loops stay monomorphic and cheap even when every run is a single element.
     */
    static final class Cursor {
        private final int[] offsets;
        private final int[] lengths;
        private final int runs;
        private final int extent;
        /** Elements still to visit. */
        private int left;
        /** The origin of the current item, and the next run of it. */
        private int base;
        private int run;
        /** The current run: its first buffer index and its length in elements. */
        int index;
        int length;

        private Cursor(Typemap map, int origin, int count, long elements) {
            // callers have checked that count items fit a buffer, so their elements fit an int
            this.left = (int) Math.max(0, Math.min(elements, (long) count * map.size));
            this.base = origin;
            this.extent = map.extent();
            if (map.runs > 0 && map.isContiguousFor(count)) {
                this.offsets = new int[] {map.offsets[0]};
                this.lengths = new int[] {count * map.size};
                this.runs = 1;
            } else {
                this.offsets = map.offsets;
                this.lengths = map.lengths;
                this.runs = map.runs;
            }
        }

        /** Moves to the next run; false when there is none. */
        boolean next() {
            if (left == 0) {
                return false;
            }
            index = base + offsets[run];
            length = Math.min(lengths[run], left);
            left -= length;
            if (++run == runs) {
                run = 0;
                base += extent;
            }
            return true;
        }
    }

    /** The ordered runs as "(offset,length)" pairs, for error messages and tests. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Typemap[lb=").append(lb).append(", ub=").append(ub)
                .append(", size=").append(size).append(", runs=");
        for (int r = 0; r < Math.min(runs, 16); r++) {
            s.append('(').append(offsets[r]).append(',').append(lengths[r]).append(')');
        }
        return s.append(runs > 16 ? "...]" : "]").toString();
    }

    /**
     * Builds a map by appending copies of other maps at displacements (in buffer elements) and
     * bound markers, in type-map order. Positions are computed in {@code long} and checked, so an
     * absurd type is an error, not an overflow.
     */
    static final class Builder {
        private final String what;
        private int[] offsets = new int[8];
        private int[] lengths = new int[8];
        private int runs;
        private long size;
        private long lowest = Long.MAX_VALUE;
        private long highest = Long.MIN_VALUE;
        private long markedLb = Long.MAX_VALUE;
        private long markedUb = Long.MIN_VALUE;

        /** {@code what} names the type being built, for error messages. */
        Builder(String what) {
            this.what = what;
        }

        /** Appends {@code copies} consecutive copies of {@code old}, the first with its origin at {@code displacement}. */
        Builder add(Typemap old, long displacement, int copies) {
            if (copies == 0) {
                return this;
            }
            long extent = old.extent();
            long last = displacement + (copies - 1) * extent;
            if (old.explicitLb) {
                markedLb = Math.min(markedLb, displacement + old.lb);
            } else if (old.size > 0) {
                lowest = Math.min(lowest, displacement + old.lb);
            }
            if (old.explicitUb) {
                markedUb = Math.max(markedUb, last + old.ub);
            } else if (old.size > 0) {
                highest = Math.max(highest, last + old.ub);
            }
            if (old.isDense()) {
                append(displacement + old.offsets[0], (long) copies * old.lengths[0]);
                return this;
            }
            if ((long) runs + (long) copies * old.runs > MAX_RUNS) {
                throw tooLarge("more than " + MAX_RUNS + " separate runs of elements");
            }
            for (int c = 0; c < copies; c++) {
                long base = displacement + c * extent;
                for (int r = 0; r < old.runs; r++) {
                    append(base + old.offsets[r], old.lengths[r]);
                }
            }
            return this;
        }

        /** An {@link MPI#LB} marker at {@code displacement}. */
        Builder markLb(long displacement) {
            markedLb = Math.min(markedLb, displacement);
            return this;
        }

        /** An {@link MPI#UB} marker at {@code displacement}. */
        Builder markUb(long displacement) {
            markedUb = Math.max(markedUb, displacement);
            return this;
        }

        Typemap build() {
            boolean explicitLb = markedLb != Long.MAX_VALUE;
            boolean explicitUb = markedUb != Long.MIN_VALUE;
            long lb = explicitLb ? markedLb : lowest != Long.MAX_VALUE ? lowest : 0;
            long ub = explicitUb ? markedUb : highest != Long.MIN_VALUE ? highest : 0;
            if (ub < lb) {
                throw new MPIException(MPI.ERR_TYPE, what + ": upper bound " + ub + " lies below lower bound " + lb);
            }
            return new Typemap(Arrays.copyOf(offsets, runs), Arrays.copyOf(lengths, runs), runs, (int) size,
                    checkedInt(lb, "lower bound"), checkedInt(ub, "upper bound"), explicitLb, explicitUb);
        }

        private void append(long offset, long length) {
            if (length == 0) {
                return;
            }
            size += length;
            if (size > Integer.MAX_VALUE) {
                throw tooLarge("more than " + Integer.MAX_VALUE + " elements");
            }
            checkedInt(offset + length, "end of data");
            int last = runs - 1;
            if (last >= 0 && (long) offsets[last] + lengths[last] == offset) {
                lengths[last] += (int) length;
                return;
            }
            if (runs == MAX_RUNS) {
                throw tooLarge("more than " + MAX_RUNS + " separate runs of elements");
            }
            if (runs == offsets.length) {
                offsets = Arrays.copyOf(offsets, runs * 2);
                lengths = Arrays.copyOf(lengths, runs * 2);
            }
            offsets[runs] = checkedInt(offset, "displacement");
            lengths[runs++] = (int) length;
        }

        private int checkedInt(long value, String name) {
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                throw tooLarge(name + " " + value + " outside the int range of buffer indices");
            }
            return (int) value;
        }

        private MPIException tooLarge(String why) {
            return new MPIException(MPI.ERR_ARG, what + ": the type is too large: " + why);
        }
    }
}

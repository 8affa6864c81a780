package dev.mpj.runtime.bootstrap;

import dev.mpj.runtime.spi.InitMessenger;
import dev.mpj.runtime.spi.ExchangeException;
import dev.mpj.runtime.node.NodeMap;
import dev.mpj.runtime.node.NodeSegment;
import dev.mpj.runtime.node.NodeSegmentDescriptor;
import dev.mpj.runtime.pmi.PmiClient;
import dev.mpj.runtime.pmi.PmiKvs;
import dev.mpj.runtime.pmi.RingNeighbours;

import java.util.List;

/**
 * What an {@link AddressExchange} works with on one rank: the PMI client, the node map, this rank's encoded
 * card, the node segment (attached during the first PMI fence, so the mapping overlaps the wait), the messenger
 * for the node roots' allgather, and where peers become reachable. Also the card-table operations every strategy
 * shares: publishing a card, fetching one, and storing one in the table. One per rank; not thread-safe.
 */
public final class ExchangeContext {
    /** The PMI key of a rank's card: this prefix, then the rank. */
    public static final String CARD_KEY = "mpj-card-";

    /** Maps this rank's node segment (the node root creates it) with slots of the given capacity. */
    public interface SegmentSource {
        NodeSegment attach(int cardCapacity);
    }

    private final PmiClient pmi;
    private final NodeMap map;
    private final int rank;
    private final byte[] card;
    private final SegmentSource segments;
    private final InitMessenger messenger;
    private final PeerDirectory peers;
    private final PhaseClock report;
    private NodeSegment segment;
    private boolean fenceStarted;
    private boolean regularCards = true;
    private int slotBytesUsed;
    private int longestCard;

    /**
     * @param report where the exchange's time goes: phase "exchange", except the segment mapping the fence
     *               overlaps ("segment") and the wait for the slowest rank at the fence ("fence")
     */
    public ExchangeContext(PmiClient pmi, NodeMap map, byte[] card, SegmentSource segments,
                           InitMessenger messenger, PeerDirectory peers, PhaseClock report) {
        this.pmi = pmi;
        this.map = map;
        this.rank = pmi.rank();
        this.card = card.clone();
        this.segments = segments;
        this.messenger = messenger;
        this.peers = peers;
        this.report = report;
    }

    public PmiClient pmi() {
        return pmi;
    }

    public NodeMap nodeMap() {
        return map;
    }

    public int rank() {
        return rank;
    }

    /** This rank's encoded card (a copy). */
    public byte[] card() {
        return card.clone();
    }

    public InitMessenger messenger() {
        return messenger;
    }

    public PeerDirectory peers() {
        return peers;
    }

    /** The node segment; attached by the first {@link #fence()} at the latest. */
    public NodeSegment segment() {
        if (segment == null) {
            throw new IllegalStateException("the node segment is attached by the exchange's fence");
        }
        return segment;
    }

    /**
     * Maps the node segment now, with slots that hold any card (for the card-length agreement, which needs the
     * segment before the exchange), and stores this rank's card. Cards may then differ in length.
     */
    public NodeSegment attachForIrregularCards() {
        regularCards = false;
        attach(BusinessCard.MAX_ENCODED_LENGTH);
        return segment;
    }

    /**
     * After the card-length agreement: the longest card of the job, so the roots' allgather moves only the used
     * part of each slot (its length field and that many bytes).
     */
    public void agreedCardLength(int longest) {
        if (longest < card.length || longest > segment().cardCapacity()) {
            throw new ExchangeException("agreed card length " + longest + " is not between this rank's card ("
                    + card.length + ") and the slot capacity (" + segment().cardCapacity() + ")");
        }
        slotBytesUsed = NodeSegmentDescriptor.CARD_DATA_OFFSET + longest;
        longestCard = longest;
    }

    /** Whether every card of the job has the same length (no agreement ran), so slots of one size fit all. */
    public boolean regularCards() {
        return regularCards;
    }

    /** Bytes of each slot the roots' allgather must move: the whole slot, or its used part after agreement. */
    public int slotBytesUsed() {
        return slotBytesUsed > 0 ? slotBytesUsed : segment().cardSlotLength();
    }

    /**
     * Enters the exchange's PMI barrier without waiting for it ({@link PmiClient#barrierBegin()}): the first half
     * of a non-blocking fence. Until {@link #fence()} ends it, the caller does local work only, no PMI request.
     */
    public void startFence() {
        startFence(0);
    }

    /**
     * {@link #startFence()} for a rank that will make {@code getsAfter} gets once the fence ends: with more than
     * one, the client readies its get path while the fence is pending ({@link PmiClient#prepareGets()}), which
     * costs more CPU than a single cold get; a rank with one or none (every rank of a one-node {@code roots}
     * exchange has none) leaves it cold.
     */
    public void startFence(int getsAfter) {
        pmi.barrierBegin();
        if (getsAfter > 1) {
            pmi.prepareGets();
        }
        fenceStarted = true;
        report.phase("exchange");
        report.fenceStarted();
    }

    /** Whether {@link #startFence()} entered the barrier and {@link #fence()} has not yet ended it. */
    public boolean fencePending() {
        return fenceStarted;
    }

    /**
     * Ends the fence {@link #startFence()} began (or runs a whole one when none was begun), after the local work
     * that overlaps the wait: maps the node segment if it is not yet mapped (the root creates it; slot capacity =
     * this rank's card length) and writes this rank's card into its slot, then waits for the barrier to end. The
     * wait is reported apart ("fence"): it is the launch skew of the job more than the cost of the strategy.
     */
    public void fence() {
        if (!fenceStarted) {
            startFence();
        }
        attachSegment();
        fenceStarted = false;
        pmi.barrierEnd();
        report.phase("fence");
    }

    /**
     * Maps the node segment, if not yet mapped, without any PMI barrier (the node's other ranks wait for the
     * root's file to appear), and writes this rank's card into its slot; the mapping is reported as "segment".
     */
    public NodeSegment attachSegment() {
        report.phase("exchange");
        if (segment == null) {
            attach(card.length);
            report.phase("segment");
        }
        return segment;
    }

    private void attach(int capacity) {
        segment = segments.attach(capacity);
        store(rank, card);
    }

    /**
     * PMIX_Ring with {@code value} ({@link PmiClient#ring}). Like the fence, it waits for the slowest rank, so that
     * wait is reported apart as "fence": exchanges compare by their own work.
     */
    public RingNeighbours ring(String value) {
        report.phase("exchange");
        RingNeighbours neighbours = pmi.ring(value);
        report.phase("fence");
        return neighbours;
    }

    /**
     * Whether the process manager's allgather can carry every card of the job: it offers one and the longest card
     * (this rank's, when cards are regular, else the agreed length) fits one value. The same answer on every rank.
     */
    public boolean cardsFitAllgather() {
        int longest = regularCards ? card.length : longestCard;
        return pmi.hasAllgather() && longest > 0 && 2 * longest <= pmi.maxValueLength();
    }

    /**
     * Every rank's card, in rank order, through the process manager's allgather ({@link PmiClient#allgather}):
     * maps the node segment first (writing this rank's card), then waits in the allgather, whose wait for the
     * slowest rank is reported as "fence" like the barrier's.
     */
    public byte[][] allgatherCards() {
        attachSegment();
        List<String> values = pmi.allgather(PmiKvs.hex(card));
        report.phase("fence");
        byte[][] cards = new byte[values.size()][];
        for (int r = 0; r < cards.length; r++) {
            cards[r] = PmiKvs.unhex(values.get(r));
        }
        return cards;
    }

    /** Puts this rank's card under {@link #CARD_KEY}{@code rank}; visible after the next barrier. */
    public void publishCard() {
        PmiKvs.putBytes(pmi, CARD_KEY + rank, card);
    }

    /**
     * The card {@code peer} published.
     *
     * @throws ExchangeException when it published none
     */
    public byte[] fetchCard(int peer) {
        byte[] c = PmiKvs.getBytes(pmi, CARD_KEY + peer);
        if (c == null) {
            throw new ExchangeException("rank " + peer + " published no business card (key " + CARD_KEY + peer
                    + ")");
        }
        return c;
    }

    /**
     * Writes the card of {@code peerRoot}, another node's root, into its slot. The roots' allgather moves whole
     * slots, so unless the job agreed on a card length it must fill this node's slots exactly.
     *
     * @throws ExchangeException when it does not
     */
    public void storeNodeRootCard(int peerRoot, byte[] peerCard) {
        if (regularCards && peerCard.length != segment().cardCapacity()) {
            throw new ExchangeException("the business card of rank " + peerRoot + " has " + peerCard.length
                    + " bytes, this node's slots " + segment().cardCapacity() + ": cards differ in length"
                    + " (addresses of different forms?); set mpj.irregularCards=true");
        }
        store(peerRoot, peerCard);
    }

    /**
     * Writes {@code peer}'s card into its slot of the node table.
     *
     * @throws ExchangeException when it does not fit the slot (cards of different lengths without agreement)
     */
    public void store(int peer, byte[] peerCard) {
        NodeSegment s = segment();
        if (peerCard.length > s.cardCapacity()) {
            throw new ExchangeException("the business card of rank " + peer + " has " + peerCard.length
                    + " bytes, more than the " + s.cardCapacity() + " of this node's card slots: cards differ in"
                    + " length (addresses of different forms?); set mpj.irregularCards=true");
        }
        s.putCard(peer, peerCard);
    }

    /**
     * This node root's part of the roots' in-place allgather of the node tables ({@link CardTableAllgather}); the
     * next root must be reachable ({@link #peers()}).
     */
    public void allgatherNodeTables() {
        NodeSegment s = segment();
        new CardTableAllgather(s.cardTable(), s.cardSlotLength(), slotBytesUsed(), map).ring(rank, messenger);
    }

    /** First item of share {@code part} when {@code count} items are split into {@code parts} shares. */
    public static int shareStart(int part, int parts, int count) {
        return part * (count / parts);
    }

    /** How many of {@code count} items are this rank's share among its node's ranks ({@link #shareStart}). */
    public int localShare(int count) {
        int part = map.localRank(rank);
        int parts = map.localSize(map.nodeOf(rank));
        return shareEnd(part, parts, count) - shareStart(part, parts, count);
    }

    /** Exclusive end of share {@code part}: equal shares, the last one takes the remainder (as MPICH splits). */
    public static int shareEnd(int part, int parts, int count) {
        return part == parts - 1 ? count : (part + 1) * (count / parts);
    }
}

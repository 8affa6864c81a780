package dev.mpj.runtime.node;

import dev.mpj.runtime.config.Settings;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Where node segments live and what they are called: {@code mpj-<job id>-n<node>} in the segment directory,
 * the job id sanitised for a file name. Every rank of a node derives the same name from what it already knows,
 * so finding the segment costs no PMI round trip; {@code mpjrun} derives it too, to remove what a job leaves.
 */
public final class NodeSegmentFiles {
    public static final String PREFIX = "mpj-";
    private static final String PART = ".part-";
    /** Between a segment's name and the owner rank and id of a region of shared memory ({@link #regionPath}). */
    private static final String REGION = ".mem-";
    /** Job ids are at most 255 characters (PMI-1's kvsname_max); file names too, so long ids are shortened. */
    private static final int MAX_ID_LENGTH = 96;

    private NodeSegmentFiles() {
    }

    /**
     * The directory of node segments: {@code mpj.segmentDir}, {@link dev.mpj.runtime.config.SegmentDirectory#resolve()
     * resolved} on this system.
     *
     * @throws IllegalArgumentException when a directory was set explicitly and does not exist
     */
    public static Path directory(Settings settings) {
        return settings.segmentDirectory().resolve();
    }

    /** The job id with every character other than letters, digits, '_', '.' and '-' replaced by '_'. */
    public static String sanitise(String jobId) {
        if (jobId.isEmpty()) {
            throw new IllegalArgumentException("a job id is not empty");
        }
        // a loop, not a regular expression: no regex machinery on the MPI.Init path
        char[] chars = jobId.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            boolean safeChar = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
                    || c == '.' || c == '-';
            chars[i] = safeChar ? c : '_';
        }
        String safe = new String(chars);
        if (safe.length() > MAX_ID_LENGTH) {
            // keep it unique to the job: a prefix plus a hash of the whole id
            safe = safe.substring(0, MAX_ID_LENGTH - 9) + "_" + String.format("%08x", jobId.hashCode());
        }
        return safe;
    }

    /** The segment of {@code node} of the job {@code jobId}. */
    public static Path path(Path directory, String jobId, int node) {
        if (node < 0) {
            throw new IllegalArgumentException("node " + node);
        }
        return directory.resolve(PREFIX + sanitise(jobId) + "-n" + node);
    }

    /**
     * The name the creator of {@code segment} fills it under before publishing it: the segment's name, then
     * {@value #PART} and the creator's pid, so a file a killed creator leaves half-made is known as stale.
     */
    public static Path partPath(Path segment, long creatorPid) {
        return segment.resolveSibling(segment.getFileName() + PART + creatorPid);
    }

    /**
     * The file of region {@code id} that rank {@code rank} allocated ({@code MPI.Alloc_mem}) beside {@code segment}:
     * the segment's name, then {@value #REGION}, the rank, '-' and the id, so the job's sweeps remove it with the
     * segment.
     */
    public static Path regionPath(Path segment, int rank, int id) {
        return segment.resolveSibling(segment.getFileName() + REGION + rank + "-" + id);
    }

    /**
     * Removes every segment of the job from {@code directory} (files named {@code mpj-<job id>-n<digits>}, those
     * being filled and the regions beside them as well, and nothing else); returns how many it removed. Failures are
     * ignored: this runs while a job is torn down.
     */
    public static int removeAll(Path directory, String jobId) {
        String ours = PREFIX + sanitise(jobId) + "-n";
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                if (isSegmentOf(file.getFileName().toString(), ours) && Files.deleteIfExists(file)) {
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing to remove, or nothing we may remove
        }
        return removed;
    }

    /**
     * Whether {@code name} is {@code jobPrefix} then a node number, then optionally {@value #PART} and a number, or
     * {@value #REGION} and a region's two numbers.
     * Read by hand rather than by a regular expression or a glob, whose character classes link lambdas in the
     * launcher's last steps.
     */
    static boolean isSegmentOf(String name, String jobPrefix) {
        if (!name.startsWith(jobPrefix)) {
            return false;
        }
        int node = digitsFrom(name, jobPrefix.length());
        if (node == jobPrefix.length()) {
            return false;
        }
        if (node == name.length()) {
            return true;
        }
        int part = node + PART.length();
        return name.startsWith(PART, node) && part < name.length() && digitsFrom(name, part) == name.length()
                || isRegionSuffix(name, node);
    }

    /** Whether {@code name} from {@code at} is {@value #REGION}, digits, '-', digits, and nothing more. */
    private static boolean isRegionSuffix(String name, int at) {
        if (!name.startsWith(REGION, at)) {
            return false;
        }
        int owner = at + REGION.length();
        int dash = digitsFrom(name, owner);
        return dash > owner && dash + 1 < name.length() && name.charAt(dash) == '-'
                && digitsFrom(name, dash + 1) == name.length();
    }

    /** {@code mpj-<something>-n<digits>.mem-<digits>-<digits>}: a region's file. */
    static boolean isRegionName(String name) {
        int region = name.lastIndexOf(REGION);
        return region > 0 && isSegmentName(name.substring(0, region)) && isRegionSuffix(name, region);
    }

    /** The index of the first character at or after {@code from} that is not an ASCII digit. */
    private static int digitsFrom(String s, int from) {
        int i = from;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    /**
     * Removes the segments in {@code directory} whose creator is gone: files named like a segment
     * ({@code mpj-<id>-n<digits>}) whose header carries the {@link NodeSegmentDescriptor#MAGIC magic} and a
     * creator pid that no longer runs on this machine, and files being filled ({@link #partPath}) whose pid no
     * longer runs, and regions of shared memory ({@link #regionPath}) whose header says the same of their creator. A
     * job whose last rank on a node was killed leaves its segment; the next job on that node removes it. A file this
     * user may not read or remove (another user's), and one whose creator's pid has been reused, are left alone.
     * Returns how many it removed; failures are ignored. The directory must be node-local, as the default is.
     */
    public static int removeStale(Path directory) {
        int removed = 0;
        // no glob filter: a glob compiles to a regular expression (this runs in MPI.Init)
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (!name.startsWith(PREFIX)) {
                    continue;
                }
                long partCreator = partCreator(name);
                boolean stale = partCreator > 0 ? !isRunning(partCreator)
                        : (isSegmentName(name) || isRegionName(name)) && isStale(file);
                if (stale && deleteQuietly(file)) {
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing to scan: the job's own segment does not depend on it
        }
        return removed;
    }

    /**
     * What keeps {@code segment} from being read as a node segment, naming the file and the cause (a path that
     * cannot be read, a directory, a file shorter than a segment's header), or null when nothing does: the file
     * is a segment, or does not exist yet. {@code Files.readAttributes} rather than {@code File.length}, which
     * answers 0 for every error as for a missing file.
     */
    public static String whyUnusable(Path segment) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(segment, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            String reason = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.toString();
            return "cannot read the node segment " + segment + ": " + reason;
        }
        if (attributes.isDirectory()) {
            return "the node segment " + segment + " is a directory, not a file: remove it or set another "
                    + "mpj.segmentDir";
        }
        if (!attributes.isRegularFile()) {
            return "the node segment " + segment + " is not a regular file: remove it or set another mpj.segmentDir";
        }
        if (attributes.size() < NodeSegmentDescriptor.CARD_TABLE_START) {
            return "the node segment " + segment + " holds " + attributes.size() + " bytes, fewer than a segment's "
                    + NodeSegmentDescriptor.CARD_TABLE_START + " of header: not a node segment";
        }
        return null;
    }

    /** {@code mpj-<something>-n<digits>}, checked without a regular expression (this runs in MPI.Init). */
    static boolean isSegmentName(String name) {
        int n = name.lastIndexOf("-n");
        if (!name.startsWith(PREFIX) || n <= PREFIX.length() || n + 2 == name.length()) {
            return false;
        }
        for (int i = n + 2; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** The pid in the name of a segment being filled ({@link #partPath}), or -1 for any other name. */
    static long partCreator(String name) {
        int part = name.lastIndexOf(PART);
        if (part < 0 || !isSegmentName(name.substring(0, part))) {
            return -1;
        }
        long pid = 0;
        int digits = part + PART.length();
        if (digits == name.length() || name.length() - digits > 18) {
            return -1;
        }
        for (int i = digits; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            pid = pid * 10 + (c - '0');
        }
        return pid;
    }

    private static boolean isStale(Path file) {
        ByteBuffer header = ByteBuffer.allocate(NodeSegmentDescriptor.ATTACHED_OFFSET).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file)) {
            while (header.hasRemaining() && channel.read(header) >= 0) {
                // a short file stops at its end
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (header.hasRemaining() || header.getInt(NodeSegmentDescriptor.MAGIC_OFFSET) != NodeSegmentDescriptor.MAGIC) {
            return false;
        }
        long creator = header.getLong(NodeSegmentDescriptor.CREATOR_PID_OFFSET);
        return creator > 0 && !isRunning(creator);
    }

    /** Through {@code /proc} where there is one: {@code ProcessHandle} costs a cold JVM some milliseconds. */
    private static boolean isRunning(long pid) {
        Path proc = Path.of("/proc");
        if (Files.isDirectory(proc.resolve("self"))) {
            return Files.exists(proc.resolve(Long.toString(pid)));
        }
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Removes {@code file}, if it exists; false when it did not or could not be removed. */
    static boolean deleteQuietly(Path file) {
        try {
            return Files.deleteIfExists(file);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}

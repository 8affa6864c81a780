package dev.mpj.launcher;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The descendants of some of this JVM's children, from one scan of the process table. {@link Process#descendants()}
 * scans the whole table on every call: one call per rank of a large job, each starved of CPU by the ranks it is
 * about to stop, kept the launcher from stopping them for minutes.
 */
final class ProcessTree {
    private ProcessTree() {
    }

    /** Every live descendant of the processes {@code roots} (which must be this JVM's descendants), roots excluded. */
    static List<ProcessHandle> descendantsOf(Set<Long> roots) {
        List<ProcessHandle> all = ProcessHandle.current().descendants().toList();
        Map<Long, Long> parents = new HashMap<>();
        for (ProcessHandle h : all) {
            h.parent().ifPresent(p -> parents.put(h.pid(), p.pid()));
        }
        List<ProcessHandle> found = new ArrayList<>();
        for (ProcessHandle h : all) {
            if (roots.contains(h.pid())) {
                continue;
            }
            for (Long p = parents.get(h.pid()); p != null; p = parents.get(p)) {
                if (roots.contains(p)) {
                    found.add(h);
                    break;
                }
            }
        }
        return found;
    }
}

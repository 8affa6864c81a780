package dev.mpj.runtime.init;

import dev.mpj.runtime.config.Setting;

import dev.mpj.runtime.config.Setting;

import java.io.IOException;

/**
 * Ends this process the way a crash does: SIGKILL, so no shutdown hook runs and nothing is cleaned up by the
 * process itself (what {@link Setting#TEST_KILL_AFTER_PHASE} asks for, to test that {@code mpjrun} cleans up).
 */
final class SelfKill {
    private SelfKill() {
    }

    static void now(String why) {
        System.err.println("mpj: rank process " + ProcessHandle.current().pid() + " kills itself (SIGKILL): " + why
                + " (" + Setting.TEST_KILL_AFTER_PHASE.property() + ")");
        System.err.flush();
        try {
            new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            Thread.sleep(10_000);
        } catch (IOException e) {
            // no kill command: halting skips the shutdown hooks too
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(137);
    }
}

package dev.mpj.runtime.config;

/**
 * The {@code mpj.test.killAfterPhase} setting, {@code PHASE@RANK}: rank {@code rank} kills itself when the
 * {@code MPI.Init} phase {@code phase} ends.
 */
public record KillAfterPhase(String phase, int rank) {
    /** The setting's text parsed: null when empty. */
    static KillAfterPhase parse(Setting setting, String text) {
        if (text.isEmpty()) {
            return null;
        }
        int at = text.indexOf('@');
        if (at > 0 && text.substring(0, at).matches("[a-z]+") && text.substring(at + 1).matches("[0-9]+")) {
            try {
                return new KillAfterPhase(text.substring(0, at), Integer.parseInt(text.substring(at + 1)));
            } catch (NumberFormatException e) {
                // a rank beyond int: as malformed
            }
        }
        throw new IllegalArgumentException(setting.property() + " must be PHASE@RANK, e.g. segment@0, not '"
                + text + "'");
    }

    /** {@link #parse} as the setting's parser (a class: no lambda linkage while settings are read). */
    static final class Parser implements SettingParser<KillAfterPhase> {
        @Override
        public KillAfterPhase parse(Setting setting, String text) {
            return KillAfterPhase.parse(setting, text);
        }
    }
}

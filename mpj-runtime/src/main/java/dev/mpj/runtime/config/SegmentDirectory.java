package dev.mpj.runtime.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The {@code mpj.segmentDir} setting: where node segments live. Whether it exists is asked only when a segment
 * is made or removed, not when the settings are read.
 *
 * @param path      the directory asked for
 * @param isDefault whether it is the default, which falls back to {@code java.io.tmpdir} where it is absent
 */
public record SegmentDirectory(Path path, boolean isDefault) {
    static SegmentDirectory parse(Setting setting, String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException(setting.property() + " must name a directory");
        }
        try {
            return new SegmentDirectory(Path.of(text), text.equals(setting.defaultValue()));
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(setting.property() + " must name a directory, not '" + text + "'");
        }
    }

    /**
     * The directory to use: {@link #path()}; when that is the default and this system has none,
     * {@code java.io.tmpdir}.
     *
     * @throws IllegalArgumentException when a directory was set explicitly and does not exist
     */
    public Path resolve() {
        if (Files.isDirectory(path)) {
            return path;
        }
        if (isDefault) {
            return Path.of(System.getProperty("java.io.tmpdir"));
        }
        throw new IllegalArgumentException(Setting.SEGMENT_DIR.property() + " '" + path + "' is not a directory");
    }

    /** {@link #parse} as the setting's parser (a class: no lambda linkage while settings are read). */
    static final class Parser implements SettingParser<SegmentDirectory> {
        @Override
        public SegmentDirectory parse(Setting setting, String text) {
            return SegmentDirectory.parse(setting, text);
        }
    }
}

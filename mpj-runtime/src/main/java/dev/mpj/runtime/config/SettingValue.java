package dev.mpj.runtime.config;

import java.util.Locale;

/**
 * A value a setting may take, as an enum constant: the setting spells it as the constant's name in lower case
 * with '-' for '_' ({@code SCATTER_RING} is {@code scatter-ring}).
 */
public interface SettingValue {
    String name();

    /** This value as the setting spells it. */
    default String settingValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

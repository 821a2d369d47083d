//! Durations as the windows read and show them.

use crate::settings::MINUTES_RANGE;

/// Preset buttons of the grant duration, in minutes.
pub const PRESET_MINUTES: [u64; 5] = [5, 10, 15, 20, 30];

/// Whole minutes from 1 to 1440, as typed in a duration field.
pub fn parse_minutes(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|minutes| MINUTES_RANGE.contains(minutes))
        .ok_or_else(|| crate::tr!("duration-invalid"))
}

/// `m:ss`, the remaining-time button.
pub fn clock(secs: u64) -> String {
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// `2 min`, or `m:ss` when the seconds are not whole minutes (only the end-with duration).
pub fn short(secs: u64) -> String {
    if secs.is_multiple_of(60) {
        minutes(secs / 60)
    } else {
        clock(secs)
    }
}

/// `5 min`: a preset button, a lease.
pub fn minutes(minutes: u64) -> String {
    crate::tr!("duration-minutes", minutes = minutes)
}

/// `1 min 23 s`, spelled out for the bottom bar.
pub fn spelled(secs: u64) -> String {
    match (secs / 60, secs % 60) {
        (0, seconds) => crate::tr!("duration-seconds", seconds = seconds),
        (m, 0) => minutes(m),
        (minutes, seconds) => crate::tr!(
            "duration-minutes-seconds",
            minutes = minutes,
            seconds = seconds
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minutes_and_clock_formats() {
        assert_eq!(parse_minutes(" 15 "), Ok(15));
        assert_eq!(parse_minutes("1440"), Ok(1440));
        for bad in ["0", "1441", "-1", "1.5", "", "2m"] {
            assert!(parse_minutes(bad).is_err(), "{bad:?}");
        }
        assert_eq!(clock(83), "1:23");
        assert_eq!(clock(5), "0:05");
        assert_eq!(short(120), "2 min");
        assert_eq!(short(83), "1:23");
        assert_eq!(spelled(83), "1 min 23 s");
        assert_eq!(spelled(120), "2 min");
        assert_eq!(spelled(9), "9 s");
    }
}

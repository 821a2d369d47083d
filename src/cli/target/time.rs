//! Lease times as humans read them: UTC calendar time and a rough remaining duration.

/// `2026-07-14 03:33:20 UTC` for epoch seconds.
pub fn utc(epoch: u64) -> String {
    let (days, seconds) = (epoch / 86_400, epoch % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        seconds / 3600,
        seconds % 3600 / 60,
        seconds % 60
    )
}

/// `1h 05m`, `29m`, `40s`.
pub fn remaining(seconds: u64) -> String {
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m", seconds / 60),
        _ => format!("{}h {:02}m", seconds / 3600, seconds % 3600 / 60),
    }
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (H. Hinnant's `civil_from_days`, for non-negative days).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_utc_calendar_time() {
        let cases = [
            (0, "1970-01-01 00:00:00 UTC"),
            (951_782_400, "2000-02-29 00:00:00 UTC"),
            (1_784_000_000, "2026-07-14 03:33:20 UTC"),
            (4_102_444_799, "2099-12-31 23:59:59 UTC"),
            (253_402_300_800, "10000-01-01 00:00:00 UTC"),
        ];
        for (epoch, text) in cases {
            assert_eq!(utc(epoch), text);
        }
        // Never panics, whatever a state file says.
        assert!(!utc(u64::MAX).is_empty());
    }

    #[test]
    fn formats_remaining_time() {
        assert_eq!(remaining(0), "0s");
        assert_eq!(remaining(59), "59s");
        assert_eq!(remaining(60), "1m");
        assert_eq!(remaining(1799), "29m");
        assert_eq!(remaining(3600 + 5 * 60), "1h 05m");
        assert_eq!(remaining(86_400), "24h 00m");
    }
}

//! The duration of a lease: 1 to 1440 minutes, checked once, where it enters Torii.

use std::str::FromStr;

use super::LeaseError;
use crate::settings::MINUTES_RANGE;

/// A lease duration that is known to be within 1..=1440 minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseMinutes(u64);

impl LeaseMinutes {
    /// The longest lease: 1,440 minutes.
    pub const LONGEST: LeaseMinutes = LeaseMinutes(*MINUTES_RANGE.end());

    /// Refuses 0 and anything above 1440.
    pub fn new(minutes: u64) -> Result<Self, LeaseError> {
        if MINUTES_RANGE.contains(&minutes) {
            Ok(Self(minutes))
        } else {
            Err(LeaseError::Minutes(minutes))
        }
    }

    pub fn get(self) -> u64 {
        self.0
    }

    pub fn seconds(self) -> u64 {
        self.0 * 60
    }
}

/// For command-line parsing: a decimal number of minutes within the range.
impl FromStr for LeaseMinutes {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let minutes: u64 = text
            .parse()
            .map_err(|_| format!("{text:?} is not a whole number of minutes (1 to 1440)"))?;
        Self::new(minutes).map_err(|error| error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_1_to_1440_minutes_are_accepted() {
        for ok in [1, 15, 1440] {
            assert_eq!(LeaseMinutes::new(ok).unwrap().get(), ok);
        }
        for bad in [0, 1441, u64::MAX] {
            let error = LeaseMinutes::new(bad).unwrap_err().to_string();
            assert!(error.contains("between 1 and 1440 minutes"), "{error}");
        }
        assert_eq!(LeaseMinutes::new(2).unwrap().seconds(), 120);
    }

    #[test]
    fn parses_from_the_command_line() {
        assert_eq!("30".parse::<LeaseMinutes>().unwrap().get(), 30);
        for bad in ["0", "1441", "-1", "1.5", "", "30m"] {
            assert!(bad.parse::<LeaseMinutes>().is_err(), "{bad:?}");
        }
    }
}

//! Hold-to-confirm: an action that completes only after a continuous press of a fixed length.
//!
//! Pure and driven by the caller's clock (egui's input time: real in a window, simulated in
//! tests). The press that focuses an unfocused window counts like any other: the state only
//! sees "pressed now or not".

/// How long Add to the set must be held when it leaves more than one alias active.
pub const HOLD_SECS: f64 = 1.0;

/// Where a hold stands after one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Hold {
    /// Not pressed.
    Idle,
    /// Pressed for `fraction` (0 to 1, exclusive) of the required time.
    Holding { fraction: f32 },
    /// Held long enough: the action completes (once; the hold starts over).
    Confirmed,
}

/// The press being timed, if any.
#[derive(Debug, Clone, Default)]
pub struct HoldToConfirm {
    since: Option<f64>,
}

impl HoldToConfirm {
    /// Updates the hold with whether the button is pressed at `now` (seconds). Releasing
    /// before [`HOLD_SECS`] resets the count.
    pub fn update(&mut self, pressed: bool, now: f64) -> Hold {
        if !pressed {
            self.since = None;
            return Hold::Idle;
        }
        let since = *self.since.get_or_insert(now);
        let held = now - since;
        if held >= HOLD_SECS {
            self.since = None;
            Hold::Confirmed
        } else {
            Hold::Holding {
                fraction: (held / HOLD_SECS).clamp(0.0, 1.0) as f32,
            }
        }
    }

    /// How far the current press has come (0 when not pressed).
    pub fn fraction(&self, now: f64) -> f32 {
        self.since.map_or(0.0, |since| {
            ((now - since) / HOLD_SECS).clamp(0.0, 1.0) as f32
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completes_after_one_continuous_second() {
        let mut hold = HoldToConfirm::default();
        assert_eq!(hold.update(true, 10.0), Hold::Holding { fraction: 0.0 });
        assert_eq!(hold.update(true, 10.5), Hold::Holding { fraction: 0.5 });
        assert_eq!(hold.fraction(10.5), 0.5);
        assert_eq!(hold.update(true, 11.0), Hold::Confirmed);
        // A confirmed hold starts over.
        assert_eq!(hold.fraction(11.0), 0.0);
    }

    #[test]
    fn releasing_early_resets() {
        let mut hold = HoldToConfirm::default();
        hold.update(true, 0.0);
        hold.update(true, 0.9);
        assert_eq!(hold.update(false, 0.95), Hold::Idle);
        // A new press counts from its own start: 0.9 s later it is still not enough.
        assert_eq!(hold.update(true, 1.0), Hold::Holding { fraction: 0.0 });
        assert!(matches!(hold.update(true, 1.9), Hold::Holding { .. }));
        assert_eq!(hold.update(true, 2.0), Hold::Confirmed);
    }
}

//! Variety for the processes that race on one file: a small generator and its seed, shared by
//! the probe and the tests that start it.

/// A small deterministic generator; the tests only need variety, not quality.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }

    pub fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

/// A new seed per process, printed so a failing run can be replayed with `TORII_TEST_SEED`.
pub fn seed() -> u64 {
    if let Ok(seed) = std::env::var("TORII_TEST_SEED") {
        return seed.parse().expect("TORII_TEST_SEED is a number");
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let seed = u64::from(nanos) ^ u64::from(std::process::id()) << 32;
    eprintln!("seed: {seed} (TORII_TEST_SEED={seed} replays it)");
    seed
}

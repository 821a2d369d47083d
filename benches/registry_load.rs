//! Placeholder replaced by the registry load benchmark.
fn main() {}

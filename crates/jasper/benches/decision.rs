//! Placeholder replaced by the Jasper decision benchmark.
fn main() {}

//! What the server benchmarks share: the binary they measure and a provider on disk.

use std::path::Path;

/// The binary measured: `TORII_BENCH_EXE` when set, else the one `cargo bench` built. The
/// latter is built with the dev-dependencies' crate features turned on (jsonschema's, for
/// one), so it is not byte for byte what `cargo build --release` gives users; the published
/// figures use a copy of the release binary (see docs/src/performance.md).
pub fn torii_exe() -> std::ffi::OsString {
    std::env::var_os("TORII_BENCH_EXE").unwrap_or_else(|| env!("CARGO_BIN_EXE_torii").into())
}

/// A provider `dir` whose tool is `dir`, running `command`, with `rules`.
pub fn provider(root: &Path, dir: &str, command: &str, rules: &str) {
    let base = root.join("providers").join(dir);
    std::fs::create_dir_all(&base).unwrap();
    std::fs::write(
        base.join("provider.yaml"),
        format!(
            "version: \"1\"\nname: {dir}\ntool: {dir}\ndescription: bench\ncommand: {command}\n"
        ),
    )
    .unwrap();
    std::fs::write(base.join("rules.yaml"), rules).unwrap();
}

//! The `torii` executable: everything lives in the library; see `torii::app`.

fn main() -> std::process::ExitCode {
    torii::app::main()
}

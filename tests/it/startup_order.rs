//! The generated link order (link/startup-order.txt, see build.rs and docs/src/performance.md).
//!
//! The list is data produced by profiling the server, so these tests check that it is a usable
//! ordering file and that what it records agrees with the architecture: the MCP server runs
//! its own protocol and dispatch code, and never the windows, the package downloader or the
//! control-plane grammar.

use std::path::Path;

fn order() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("link/startup-order.txt");
    let text = std::fs::read_to_string(&path).expect("link/startup-order.txt is readable");
    text.lines().map(str::to_owned).collect()
}

fn names_a_function_of(symbols: &[String], crate_or_module: &str) -> bool {
    // Both Rust manglings spell a path segment as its length followed by its name.
    let segment = format!("{}{crate_or_module}", crate_or_module.len());
    symbols.iter().any(|symbol| symbol.contains(&segment))
}

#[test]
fn startup_order_is_one_sorted_mangled_symbol_per_line() {
    let symbols = order();
    assert!(symbols.len() > 100, "only {} symbols", symbols.len());
    for symbol in &symbols {
        assert!(
            !symbol.is_empty() && !symbol.contains(char::is_whitespace),
            "not a symbol name: {symbol:?}"
        );
    }
    let mut sorted = symbols.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted, symbols,
        "regenerate it with scripts/startup-order.py"
    );
}

#[test]
fn startup_order_records_the_server_path() {
    let symbols = order();
    for module in [
        "torii", "mcp", "dispatch", "registry", "jasper", "rmcp", "tokio",
    ] {
        assert!(
            names_a_function_of(&symbols, module),
            "no function of `{module}` in the startup order"
        );
    }
}

#[test]
fn startup_order_shows_no_window_downloader_or_cli_code_in_the_server() {
    let symbols = order();
    for foreign in ["egui", "eframe", "winit", "reqwest", "rustls", "clap"] {
        assert!(
            !names_a_function_of(&symbols, foreign),
            "the MCP server ran `{foreign}` code"
        );
    }
}

//! The book's layering, held by a test: the server's path (MCP adapter, dispatcher, Jasper's
//! rules, the lease and session lifecycles, the runner, the audit) contains no window code, no
//! downloader and no control-plane CLI. Windows run in a subprocess (`torii __prompt`), packages
//! are fetched by the human's `torii provider` commands only, and the CLI calls the server's
//! modules, never the other way round. Read from the source, so that a `use` added anywhere in
//! those modules fails here by name.

use std::path::{Path, PathBuf};

/// The modules a tool call goes through, as source paths under `src/`.
const SERVER_PATH: [&str; 12] = [
    "mcp",
    "dispatch",
    "rules",
    "leases",
    "auth",
    "runner",
    "confine",
    "prompt",
    "registry",
    "grants.rs",
    "audit.rs",
    "settings.rs",
];

/// What none of them may use: Torii's windows, terminal console, downloader and CLI modules,
/// and the crates that draw, download, unpack or parse a command line.
const FORBIDDEN: [&str; 17] = [
    "crate::gui",
    "crate::dialog",
    "crate::window_process",
    "crate::terminal",
    "crate::cli",
    "crate::packages",
    "crate::release",
    "crate::doctor",
    "eframe::",
    "egui::",
    "arboard::",
    "ratatui::",
    "crossterm::",
    "reqwest::",
    "zip::",
    "tar::",
    "clap::",
];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            rust_files(&entry.path(), out);
        }
    } else if path.extension().is_some_and(|extension| extension == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn the_server_path_has_no_window_downloader_or_cli_code() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for module in SERVER_PATH {
        let path = src.join(module);
        assert!(
            path.exists(),
            "{} no longer exists: update SERVER_PATH",
            path.display()
        );
        rust_files(&path, &mut files);
    }
    assert!(files.len() > 40, "only {} files read", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            // Grouped imports (`use crate::{a, b}`) name each module after the brace.
            let grouped: Vec<String> = code
                .split("crate::{")
                .skip(1)
                .flat_map(|group| {
                    group
                        .split(['}', ','])
                        .map(|name| format!("crate::{}", name.trim()))
                        .collect::<Vec<_>>()
                })
                .collect();
            for forbidden in FORBIDDEN {
                let named = code.contains(forbidden)
                    || grouped.iter().any(|name| name.starts_with(forbidden));
                if named {
                    found.push(format!("{}:{}: {forbidden}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "the server path uses {found:#?}");
}

//! The book's layering, held by a test: the server's path (MCP adapter, dispatcher, Jasper's
//! rules, the lease and session lifecycles, the runner, the audit) contains no window code, no
//! downloader and no control-plane CLI. Windows run in a subprocess (`torii __prompt`), packages
//! are fetched by the human's `torii provider` commands only, and the CLI calls the server's
//! modules, never the other way round. Read from the source, so that a `use` added anywhere in
//! those modules fails here by name.

use std::path::{Path, PathBuf};

/// The modules a tool call goes through, as source paths under `src/`.
const SERVER_PATH: [&str; 13] = [
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
    "audit",
    "admin.rs",
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

/// The one file on the server path allowed one of them: the OTLP exporter posts audit records
/// to the collector the human configured, with reqwest, and downloads nothing.
const ALLOWED: [(&str, &str); 1] = [("audit/export/otlp.rs", "reqwest::")];

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
        // The code without comments, its whitespace runs made single spaces and none next to
        // `{`, `}`, `,` or `::`, so that a `use` wrapped over several lines reads as one:
        // `crate::{errors,gui::x as y}`.
        let spaced = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(" ");
        let mut code = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
        for tight in ["{", "}", ",", "::"] {
            code = code
                .replace(&format!(" {tight}"), tight)
                .replace(&format!("{tight} "), tight);
        }
        for forbidden in FORBIDDEN {
            let named = match forbidden.strip_prefix("crate::") {
                // A module: by its path, from the crate or from a parent, or inside a group.
                Some(module) => {
                    names(&code, "crate::", module)
                        || names(&code, "super::", module)
                        || grouped(&code).any(|name| name == module)
                }
                None => code.contains(forbidden),
            };
            let allowed = ALLOWED
                .iter()
                .any(|(path, name)| file.ends_with(path) && *name == forbidden);
            if named && !allowed {
                found.push(format!("{}: {forbidden}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "the server path uses {found:#?}");
}

/// The first path segment of every top-level member of every `crate::{…}` group in `code`.
fn grouped(code: &str) -> impl Iterator<Item = &str> {
    code.match_indices("crate::{").flat_map(move |(start, _)| {
        let body = &code[start + "crate::{".len()..];
        let mut depth = 1;
        let end = body
            .char_indices()
            .find_map(|(at, c)| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(at)
            })
            .unwrap_or(body.len());
        // Top-level members only: a nested group's members belong to its module.
        let mut members = Vec::new();
        let (mut level, mut member_start) = (0, 0);
        for (at, c) in body[..end].char_indices() {
            match c {
                '{' => level += 1,
                '}' => level -= 1,
                ',' if level == 0 => {
                    members.push(&body[member_start..at]);
                    member_start = at + 1;
                }
                _ => {}
            }
        }
        members.push(&body[member_start..end]);
        members.into_iter().map(|member| {
            let path = member.split(' ').next().unwrap_or(member);
            path.split("::").next().unwrap_or(path)
        })
    })
}

/// Whether `code` names `module` right after `prefix` (`crate::gui`, `super::super::gui`), as a
/// whole path segment.
fn names(code: &str, prefix: &str, module: &str) -> bool {
    let path = format!("{prefix}{module}");
    code.match_indices(&path).any(|(at, _)| {
        !code[at + path.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

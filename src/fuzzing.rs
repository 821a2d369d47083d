//! The properties the fuzz targets check, one function per target: `fuzz/fuzz_targets/<name>.rs`
//! calls [`run`] with its name, and the unit test below replays every seed and regression
//! input of `fuzz/` through the same code on the stable toolchain, so that the suite holds
//! what fuzzing found. Each function panics only when a property fails; any other panic in the
//! code under test is the finding.
//!
//! Built for tests and with the `fuzzing` feature (which only the `fuzz/` crate turns on).

// A failed property is a panic: that is how libFuzzer and the replay test see it.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A target: checks its properties on one input, panicking when one fails.
pub type Target = fn(&[u8]);

/// Every target, by the name of its file in `fuzz/fuzz_targets/` and its corpus directory.
pub const TARGETS: &[(&str, Target)] = &[
    ("shell_guard", shell_guard),
    ("hook_input", hook_input),
    ("provider_yaml", provider_yaml),
    ("rules_yaml", rules_yaml),
    ("settings_yaml", settings_yaml),
    ("lease_file", lease_file),
    ("jsonrpc_line", jsonrpc_line),
    ("archive", archive),
    ("dotenv", dotenv),
    ("clipboard", clipboard),
];

/// Runs target `name` on `data`.
pub fn run(name: &str, data: &[u8]) {
    let (_, target) = TARGETS
        .iter()
        .find(|(known, _)| *known == name)
        .unwrap_or_else(|| panic!("no fuzz target {name:?}"));
    target(data);
}

/// The programs the guard protects in [`shell_guard`], as a hook would for installed providers.
const PROTECTED: [&str; 3] = ["torii", "aws", "kubectl"];

/// `Guard::check_as` on any command line, in the shell the first byte picks: an answer (a hit
/// among the protected programs, none, or an error the hook turns into a deny), never a panic.
pub fn shell_guard(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(script) = std::str::from_utf8(rest) else {
        return;
    };
    let shell = match selector % 3 {
        0 => shell_guard::Shell::Posix,
        1 => shell_guard::Shell::PowerShell,
        _ => shell_guard::Shell::Cmd,
    };
    let guard = shell_guard::Guard::new(PROTECTED);
    if let Ok(Some(hit)) = guard.check_as(shell, script) {
        assert!(
            PROTECTED.contains(&hit.program.as_str()),
            "a hit names a program that is not protected: {:?}",
            hit.program
        );
    }
}

/// A config root with one provider, for the hook.
fn hook_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("torii-fuzz-hook-{}", std::process::id()));
        let provider = root.join("providers/kubectl");
        std::fs::create_dir_all(&provider).expect("a scratch config root");
        std::fs::write(
            provider.join("provider.yaml"),
            include_str!("../examples/providers/kubectl/provider.yaml"),
        )
        .expect("a scratch provider");
        root
    })
}

/// The hook's decision on any input of any client (the first byte picks which): invalid input
/// is denied, and nothing panics.
pub fn hook_input(data: &[u8]) {
    use crate::agents::clients::Agent;
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let agent = Agent::ALL[usize::from(selector) % Agent::ALL.len()];
    let context = crate::agents::hook::Context::new(hook_root().to_path_buf());
    let answer = crate::agents::hook::decide(agent, input, &context);
    if serde_json::from_slice::<serde_json::Value>(input).is_err() {
        assert!(
            answer.deny.is_some(),
            "input that is not JSON was let through"
        );
    }
}

/// A decoding error names the file it was given, whatever the input.
fn names_the_file(message: &str, file: &str) {
    assert!(
        message.contains(file),
        "the error does not name {file}: {message}"
    );
}

/// `provider.yaml`: accepted or refused with the file named, never a panic.
pub fn provider_yaml(data: &[u8]) {
    let path = Path::new("/fuzz/providers/p/provider.yaml");
    if let Err(error) = crate::registry::parse_provider(path, data) {
        names_the_file(
            &crate::errors::chain(&error),
            "/fuzz/providers/p/provider.yaml",
        );
    }
}

/// `rules.yaml`, parsed and compiled: accepted or refused with the file named.
pub fn rules_yaml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/fuzz/rules.yaml");
    if let Err(error) = crate::rules::compile(path, text, &jasper::PolicySettings::default()) {
        names_the_file(&crate::errors::chain(&error), "/fuzz/rules.yaml");
    }
}

/// `settings.yaml`: the defaults' round trip aside, anything is accepted or refused with the
/// file named.
pub fn settings_yaml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/fuzz/settings.yaml");
    if let Err(error) = crate::settings::Settings::parse(path, text) {
        names_the_file(&crate::errors::chain(&error), "/fuzz/settings.yaml");
    }
}

/// The lease state file: decoded or refused whole; what decodes is written back to the same.
pub fn lease_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok((revision, entries)) = crate::leases::fuzz_decode(text) {
        let written = crate::leases::fuzz_encode(revision, &entries);
        let again = crate::leases::fuzz_decode(&written).expect("what was written decodes");
        assert_eq!(again.0, revision, "the revision survives a round trip");
        assert_eq!(
            again.1.len(),
            entries.len(),
            "every entry survives a round trip"
        );
    }
}

/// Lines of a client, up to the dispatcher's envelope check: every line is a message, nothing,
/// or one error answer on one line with the code JSON-RPC names; a `tools/call`'s arguments are
/// then checked as the dispatcher checks them, without a panic.
pub fn jsonrpc_line(data: &[u8]) {
    for line in data.split(|byte| *byte == b'\n') {
        match crate::mcp::fuzz_decode(line) {
            crate::mcp::FuzzRead::Answer(answer) => {
                let code = answer["error"]["code"].as_i64();
                assert!(
                    matches!(code, Some(-32700 | -32600 | -32602)),
                    "an answer with code {code:?}: {answer}"
                );
                let written = answer.to_string();
                assert!(!written.contains('\n'), "an answer spans lines");
                assert!(written.len() < 4096, "an answer echoes too much");
            }
            crate::mcp::FuzzRead::Call(arguments) => {
                use crate::dispatch::envelope::{Shape, parse};
                let _ = parse(arguments.as_ref(), &Shape::Simple);
                let _ = parse(
                    arguments.as_ref(),
                    &Shape::TargetAware {
                        aliases: vec!["prod".into(), "lab".into()],
                    },
                );
            }
            crate::mcp::FuzzRead::Other => {}
        }
    }
}

/// An archive unpacked into a scratch directory: whatever it holds, nothing is written outside
/// it, only plain files and directories are made, and the limits hold.
pub fn archive(data: &[u8]) {
    use crate::packages::limits::{MAX_ENTRIES, MAX_TOTAL_BYTES};
    let parent = tempfile::tempdir().expect("a scratch directory");
    let scratch = parent.path().join("unpacked");
    std::fs::create_dir(&scratch).expect("a scratch directory");
    let _ = crate::packages::fuzz_extract(data, &scratch);
    let beside: Vec<_> = std::fs::read_dir(parent.path())
        .expect("the scratch's parent")
        .map(|entry| entry.expect("an entry").file_name())
        .collect();
    assert_eq!(
        beside,
        ["unpacked"],
        "something was written beside the scratch"
    );
    let (mut entries, mut bytes) = (0u64, 0u64);
    let mut pending = vec![scratch];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("a directory it made") {
            let entry = entry.expect("an entry");
            let kind = entry.file_type().expect("a file type");
            entries += 1;
            if kind.is_dir() {
                pending.push(entry.path());
            } else {
                assert!(kind.is_file(), "not a plain file: {:?}", entry.path());
                bytes += entry.metadata().expect("metadata").len();
            }
        }
    }
    assert!(entries <= MAX_ENTRIES as u64, "{entries} entries");
    assert!(bytes <= MAX_TOTAL_BYTES, "{bytes} bytes unpacked");
}

/// `.env`: parsed into valid, distinct names, or refused naming a line of the input (its
/// messages are fixed texts: the type keeps the line's content, maybe a secret, out of them).
pub fn dotenv(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match crate::runner::dotenv::parse(text) {
        Ok(variables) => {
            for (index, (key, _)) in variables.iter().enumerate() {
                assert!(crate::text::is_env_name(key), "key {key:?}");
                assert!(
                    variables[..index].iter().all(|(other, _)| other != key),
                    "{key:?} twice"
                );
            }
        }
        Err(error) => {
            let lines = text
                .strip_prefix('\u{FEFF}')
                .unwrap_or(text)
                .lines()
                .count();
            assert!(
                (1..=lines).contains(&error.line),
                "line {} of {lines}",
                error.line
            );
        }
    }
}

/// The clipboard button's parser: only declared names come out, each value on one line.
pub fn clipboard(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let declared = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "TOKEN"];
    for (name, value) in crate::dialog::clipboard::parse(text, &declared) {
        assert!(declared.contains(&name.as_str()), "undeclared {name:?}");
        assert!(!value.contains('\n'), "a value spans lines");
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    /// Far above what any input takes in a debug build; a hang is what it catches.
    const PER_INPUT: Duration = Duration::from_secs(20);

    /// Every seed (`fuzz/corpus/<target>/`) and every input that once failed
    /// (`fuzz/regressions/<target>/`) through its target: the properties hold on each, and no
    /// input takes unbounded time.
    #[test]
    fn every_seed_and_regression_input_holds() {
        let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
        for (name, target) in TARGETS {
            let mut inputs = 0;
            for kind in ["corpus", "regressions"] {
                let dir = fuzz.join(kind).join(name);
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    assert_eq!(kind, "regressions", "no seed corpus for {name}: {dir:?}");
                    continue;
                };
                for entry in entries {
                    let path = entry.unwrap().path();
                    let data = std::fs::read(&path).unwrap();
                    let started = Instant::now();
                    let outcome = std::panic::catch_unwind(|| target(&data));
                    assert!(outcome.is_ok(), "{name}: {} fails", path.display());
                    assert!(
                        started.elapsed() < PER_INPUT,
                        "{name}: {} took {:?}",
                        path.display(),
                        started.elapsed()
                    );
                    inputs += 1;
                }
            }
            assert!(inputs > 0, "{name} has no inputs");
        }
    }

    /// Every target has its file in `fuzz/fuzz_targets/`, which runs it by name.
    #[test]
    fn every_target_has_its_fuzz_target_file() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
        for (name, _) in TARGETS {
            let text = std::fs::read_to_string(dir.join(format!("{name}.rs")))
                .unwrap_or_else(|_| panic!("fuzz/fuzz_targets/{name}.rs"));
            assert!(
                text.contains(&format!("torii::fuzzing::run(\"{name}\", data)")),
                "fuzz/fuzz_targets/{name}.rs runs another target"
            );
        }
    }
}

//! The runner against real processes: argv without a shell, bounded capture, exit codes, PATH
//! resolution, the child's environment, and the `.env` format.
//!
//! Some checks need a process of their own (its current directory, `PATH`, location or peak
//! memory); they run `torii-test-probe` (`tests/probe`) in a child process.

use std::collections::HashMap;
use std::error::Error;
use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use torii::runner::{
    self, DotenvError, Excluded, Execution, Launch, RunError, dotenv, read_env_file,
    resolve_executable,
};

use crate::common::Root;

// The child the probe starts too.
#[path = "../probe/child.rs"]
mod child;
use child::{MIB, launch, run};

// ---------------------------------------------------------------------------------------------
// helpers

/// Writes an executable `#!/bin/sh` script at `relative` under `root`.
fn script(root: &Root, relative: &str, body: &str) -> PathBuf {
    let path = root.write(relative, &format!("#!/bin/sh\n{body}\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Runs `sh -c code` (a shell in the test, never in the runner) with an output budget.
async fn sh(code: &str, max_output_bytes: usize) -> Execution {
    let launch = Launch {
        max_output_bytes,
        ..launch("/bin/sh", &["-c", code])
    };
    run(launch).await
}

/// The error and its causes, as a user would read them.
fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

/// Runs `torii-test-probe <args>` (or a copy of it at `exe`) in `cwd` with `env` added, and
/// returns what it printed.
fn probe(args: &[&str], exe: Option<&Path>, cwd: &Path, env: &[(&str, &OsStr)]) -> String {
    let exe = exe.map_or_else(crate::common::probe_exe, Path::to_path_buf);
    let output = std::process::Command::new(&exe)
        .args(args)
        .current_dir(cwd)
        .env("TORII_TEST_LAUNCHER", env!("CARGO_BIN_EXE_torii"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "probe {args:?} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout.trim().to_string()
}

// ---------------------------------------------------------------------------------------------
// argv: no shell

#[tokio::test]
async fn shell_metacharacters_reach_the_child_as_literal_argv_items() {
    let root = Root::new();
    let dir = root.path().canonicalize().unwrap();
    let marker = dir.join("argv");
    let cli = script(
        &root,
        "bin/fakecli",
        "for item in \"$@\"; do printf '%s\\0' \"$item\"; done > \"$ARGV_MARKER\"",
    );
    let touch_x = format!("$(touch {}/x)", dir.display());
    let touch_y = format!("`touch {}/y`", dir.display());
    let touch_z = format!("touch {}/z", dir.display());
    let redirected = format!("{}/redirected", dir.display());
    let items: Vec<&str> = vec![
        &touch_x,
        ";",
        &touch_z,
        "|",
        &touch_y,
        "&&",
        "a\nb",
        "*",
        ">",
        &redirected,
        "$HOME",
        "'single'",
        "\"double\"",
        "",
        " spaced ",
        "--flag=$(id)",
    ];
    let mut launch = launch(&cli, &items);
    launch.env_overlay = vec![("ARGV_MARKER".into(), marker.display().to_string().into())];

    let execution = run(launch).await;

    assert_eq!(execution.exit_code, 0, "{}", execution.stderr);
    let recorded = std::fs::read(&marker).unwrap();
    let received: Vec<&[u8]> = recorded.split(|byte| *byte == 0).collect();
    let expected: Vec<&[u8]> = items
        .iter()
        .map(|item| item.as_bytes())
        .chain([&b""[..]])
        .collect();
    assert_eq!(
        received, expected,
        "printf ends each item with NUL, so one empty tail"
    );
    for never in ["x", "y", "z", "redirected"] {
        assert!(!dir.join(never).exists(), "{never} must not exist");
    }
}

#[tokio::test]
async fn printf_prints_each_item_on_its_own_line() {
    let execution = run(launch(
        "/usr/bin/printf",
        &["%s\\n", "a b", "$(echo no)", "*"],
    ))
    .await;
    assert_eq!(execution.stdout, "a b\n$(echo no)\n*\n");
}

// ---------------------------------------------------------------------------------------------
// capture: one budget, UTF-8, memory

#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn two_gib_of_output_is_truncated_in_bounded_memory() {
    let max = 4 * MIB;
    let growth_kib: usize = probe(&["two-gib"], None, Path::new("/"), &[])
        .parse()
        .unwrap();
    println!(
        "peak RSS grew by {growth_kib} KiB while keeping {} KiB",
        max / 1024
    );
    assert!(
        growth_kib <= (max + 16 * MIB) / 1024,
        "peak RSS grew by {growth_kib} KiB"
    );
}

#[tokio::test]
async fn stdout_and_stderr_together_never_exceed_the_budget() {
    let execution = sh("printf 0123456789; printf abcdefghij >&2", 15).await;
    assert!(execution.truncated);
    assert_eq!(execution.stdout.len() + execution.stderr.len(), 15);
    assert!("0123456789".starts_with(&execution.stdout));
    assert!("abcdefghij".starts_with(&execution.stderr));
}

#[tokio::test]
async fn output_that_fits_the_budget_exactly_is_whole() {
    let execution = sh("printf 01234; printf abcde >&2", 10).await;
    assert_eq!(
        (execution.stdout.as_str(), execution.stderr.as_str()),
        ("01234", "abcde")
    );
    assert!(!execution.truncated);
}

#[tokio::test]
async fn a_zero_budget_keeps_nothing() {
    let execution = sh("printf out; printf err >&2", 0).await;
    assert_eq!(
        (execution.stdout.as_str(), execution.stderr.as_str()),
        ("", "")
    );
    assert!(execution.truncated);
    assert!(!sh("true", 0).await.truncated);
}

#[tokio::test]
async fn a_character_across_the_limit_is_dropped_whole() {
    // `ab€cd`: the euro sign is the three bytes E2 82 AC at offsets 2..5.
    let code = r"printf 'ab\342\202\254cd'";
    let cases = [
        (2, "ab", true),
        (3, "ab", true),
        (4, "ab", true),
        (5, "ab€", true),
        (7, "ab€cd", false),
    ];
    for (max, kept, truncated) in cases {
        let execution = sh(code, max).await;
        assert_eq!(
            (execution.stdout.as_str(), execution.truncated),
            (kept, truncated),
            "max {max}"
        );
    }
}

#[tokio::test]
async fn invalid_utf8_becomes_replacement_characters() {
    let execution = sh(r"printf 'ok\377\376end'", MIB).await;
    assert_eq!(execution.stdout, "ok\u{FFFD}\u{FFFD}end");
    assert!(!execution.truncated);
}

#[tokio::test]
async fn a_child_filling_stderr_first_does_not_deadlock() {
    // If stdout were read to its end first, the child would block on a full stderr pipe.
    let execution = sh(
        "head -c 3000000 /dev/zero | tr '\\0' e >&2; echo out",
        4 * MIB,
    )
    .await;
    assert_eq!(execution.stdout, "out\n");
    assert_eq!(execution.stderr.len(), 3_000_000);
    assert!(execution.stderr.bytes().all(|byte| byte == b'e'));
}

// ---------------------------------------------------------------------------------------------
// exit codes and launch errors

#[tokio::test]
async fn exit_code_and_both_streams_are_preserved() {
    for code in [0, 3, 255] {
        let execution = sh(&format!("echo out; echo err >&2; exit {code}"), MIB).await;
        let expected = Execution {
            exit_code: code,
            stdout: "out\n".into(),
            stderr: "err\n".into(),
            truncated: false,
            timed_out: false,
        };
        assert_eq!(execution, expected);
    }
}

#[tokio::test]
async fn a_child_killed_by_a_signal_reports_143() {
    for signal in ["TERM", "KILL", "SEGV"] {
        let execution = sh(&format!("echo before; kill -{signal} $$"), MIB).await;
        assert_eq!(
            execution.exit_code,
            runner::SIGNALLED_EXIT_CODE,
            "SIG{signal}"
        );
        assert_eq!(execution.stdout, "before\n");
    }
    assert_eq!(runner::SIGNALLED_EXIT_CODE, 143);
}

#[tokio::test]
async fn stdin_is_null() {
    let execution = sh("cat; echo \"rc=$?\"", MIB).await;
    assert_eq!(execution.stdout, "rc=0\n");
}

#[tokio::test]
async fn a_spawn_error_names_the_program_but_not_the_args() {
    let root = Root::new();
    let not_executable = root.write("bin/plain", "#!/bin/sh\n");
    for program in [PathBuf::from("/nonexistent/torii/cli"), not_executable] {
        let error = runner::run(launch(&program, &["secret-arg"]))
            .await
            .unwrap_err();
        assert!(matches!(error, RunError::Spawn { .. }), "{error:?}");
        let text = chain(&error);
        assert!(
            text.starts_with(&format!("could not start `{}`: ", program.display())),
            "{text}"
        );
        assert!(!text.contains("secret-arg"));
    }
}

#[tokio::test]
async fn a_relative_program_is_refused() {
    let error = runner::run(launch("sh", &["-c", "true"]))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "refusing to launch `sh`: the program path must be absolute"
    );
}

// ---------------------------------------------------------------------------------------------
// environment

/// The child's environment, as printed by `env -0`.
async fn child_env(overlay: &[(&str, &str)], remove: &[&str]) -> HashMap<String, String> {
    let mut launch = launch("/usr/bin/env", &["-0"]);
    launch.env_overlay = overlay
        .iter()
        .map(|(k, v)| (k.to_string(), torii::secret::Secret::from(*v)))
        .collect();
    launch.env_remove = remove.iter().map(|name| name.to_string()).collect();
    let execution = run(launch).await;
    assert_eq!(execution.exit_code, 0);
    execution
        .stdout
        .split('\0')
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            let (name, value) = entry.split_once('=').unwrap();
            (name.to_string(), value.to_string())
        })
        .collect()
}

#[tokio::test]
async fn the_child_inherits_the_environment_minus_removals_plus_the_overlay() {
    let inherited: HashMap<String, String> = std::env::vars().collect();
    assert!(inherited.contains_key("PATH"));
    let overlay = [
        ("TORII_RUNNER_TEST_OVERLAY", "first"),
        ("TORII_RUNNER_TEST_OVERLAY", "later wins $HOME"),
        ("TORII_RUNNER_TEST_REINJECTED", "injected"),
    ];
    let child = child_env(&overlay, &["PATH", "TORII_RUNNER_TEST_REINJECTED"]).await;

    assert_eq!(child["TORII_RUNNER_TEST_OVERLAY"], "later wins $HOME");
    assert_eq!(
        child["TORII_RUNNER_TEST_REINJECTED"], "injected",
        "the overlay wins over removal"
    );
    assert!(!child.contains_key("PATH"));
    let own = |name: &String| name.starts_with("TORII_");
    for (name, value) in inherited.iter().filter(|(name, _)| !own(name)) {
        if name != "PATH" {
            assert_eq!(
                child.get(name),
                Some(value),
                "{name} is inherited unchanged"
            );
        }
    }
    let torii_own = inherited.keys().filter(|name| own(name)).count();
    assert_eq!(child.len(), inherited.len() - torii_own - 1 + 2);
}

/// Issue 11, finding 10: children inherited `TORII_CONFIG_DIR`, which names the config root,
/// and the test hooks. None of Torii's own variables reach a provider child; an overlay the
/// operator wrote may still set one.
#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn torii_own_variables_never_reach_a_provider_child() {
    // The probe runs in a process whose environment holds Torii's variables.
    let env = [
        ("TORII_CONFIG_DIR", OsStr::new("/somewhere/secret-root")),
        ("TORII_TEST_RESPONDER", OsStr::new("/somewhere/script")),
        ("TORII_ANYTHING", OsStr::new("x")),
    ];
    let seen = probe(&["torii-env"], None, Path::new("/"), &env);
    assert_eq!(seen, "TORII_FROM_DOTENV");
}

#[tokio::test]
async fn an_env_name_that_would_change_meaning_is_refused_before_launch() {
    for name in ["", "A=B", "A\0B"] {
        let mut with_overlay = launch("/bin/true", &[]);
        with_overlay.env_overlay = vec![(name.to_string(), "v".into())];
        let mut with_removal = launch("/bin/true", &[]);
        with_removal.env_remove = vec![name.to_string()];
        for launch in [with_overlay, with_removal] {
            let error = runner::run(launch).await.unwrap_err();
            assert!(
                matches!(error, RunError::InvalidEnvName { .. }),
                "{name:?}: {error:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// executable resolution

const FAKE: &str = "toriifakecli";

/// A directory holding `FAKE`; running it prints `label` and, if given, creates `marker`.
fn fake_dir(root: &Root, dir: &str, label: &str, marker: Option<&Path>) -> PathBuf {
    let mark = marker
        .map(|marker| format!(": > '{}'", marker.display()))
        .unwrap_or_default();
    script(
        root,
        &format!("{dir}/{FAKE}"),
        &format!("echo {label}\n{mark}"),
    );
    root.path().join(dir).canonicalize().unwrap()
}

fn path_of(dirs: &[&Path]) -> std::ffi::OsString {
    std::env::join_paths(dirs).unwrap()
}

fn resolve(path: &std::ffi::OsString, excluded: &[PathBuf]) -> Result<PathBuf, String> {
    let excluded = Excluded::new(excluded.to_vec(), Vec::new());
    resolve_executable(FAKE, Some(path), &excluded).map_err(|error| error.to_string())
}

fn not_found() -> Result<PathBuf, String> {
    Err(format!("could not find the executable `{FAKE}` in PATH"))
}

#[test]
fn the_first_path_directory_holding_an_executable_wins() {
    let root = Root::new();
    let empty = root.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let first = fake_dir(&root, "first", "first", None);
    let second = fake_dir(&root, "second", "second", None);

    let found = resolve(&path_of(&[&empty, &first, &second]), &[]);
    assert_eq!(found, Ok(first.join(FAKE)));
    assert!(found.unwrap().is_absolute());
    assert_eq!(
        resolve(&path_of(&[&second, &first]), &[]),
        Ok(second.join(FAKE))
    );
}

#[test]
fn a_missing_executable_has_the_documented_message() {
    let root = Root::new();
    assert_eq!(resolve(&path_of(&[root.path()]), &[]), not_found());
    let error = resolve_executable("aws", Some(OsStr::new("")), &Excluded::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "could not find the executable `aws` in PATH"
    );
}

#[test]
fn non_executable_files_and_directories_are_skipped() {
    let root = Root::new();
    let plain = root.write(&format!("plain/{FAKE}"), "#!/bin/sh\necho plain\n");
    std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::create_dir_all(root.path().join(format!("dir/{FAKE}"))).unwrap();
    let good = fake_dir(&root, "good", "good", None);
    let plain_dir = plain.parent().unwrap();
    let dir_dir = root.path().join("dir");

    assert_eq!(resolve(&path_of(&[plain_dir, &dir_dir]), &[]), not_found());
    assert_eq!(
        resolve(&path_of(&[plain_dir, &dir_dir, &good]), &[]),
        Ok(good.join(FAKE))
    );
}

#[test]
fn an_executable_symlink_is_returned_as_found_in_path() {
    let root = Root::new();
    let target = fake_dir(&root, "real", "real", None);
    let links = root.path().join("links");
    std::fs::create_dir_all(&links).unwrap();
    std::os::unix::fs::symlink(target.join(FAKE), links.join(FAKE)).unwrap();
    assert_eq!(resolve(&path_of(&[&links]), &[]), Ok(links.join(FAKE)));
}

/// `target` as a path relative to the current directory (`../../tmp/...`).
fn relative_to_cwd(target: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap().canonicalize().unwrap();
    let mut relative: PathBuf = cwd.components().skip(1).map(|_| "..").collect();
    relative.push(target.strip_prefix("/").unwrap());
    relative
}

#[test]
fn relative_path_entries_are_skipped_even_when_they_hold_the_executable() {
    let root = Root::new();
    let shadow = fake_dir(&root, "shadow", "shadow", None);
    let good = fake_dir(&root, "good", "good", None);
    let relative = relative_to_cwd(&shadow);
    assert!(
        relative.is_relative() && relative.join(FAKE).is_file(),
        "{}",
        relative.display()
    );

    assert_eq!(resolve(&path_of(&[&relative]), &[]), not_found());
    assert_eq!(
        resolve(&path_of(&[&relative, &good]), &[]),
        Ok(good.join(FAKE))
    );
}

#[test]
fn an_excluded_directory_is_skipped_also_through_a_symlink_or_a_trailing_slash() {
    let root = Root::new();
    let excluded = fake_dir(&root, "excluded", "excluded", None);
    let good = fake_dir(&root, "good", "good", None);
    let link = root.path().join("link-to-excluded");
    std::os::unix::fs::symlink(&excluded, &link).unwrap();
    let slashed = PathBuf::from(format!("{}/", excluded.display()));
    let dotted = excluded.join("../excluded");
    let skip = vec![excluded.clone()];

    for entry in [&excluded, &link, &slashed, &dotted] {
        assert_eq!(
            resolve(&path_of(&[entry]), &skip),
            not_found(),
            "{}",
            entry.display()
        );
        assert_eq!(
            resolve(&path_of(&[entry, &good]), &skip),
            Ok(good.join(FAKE))
        );
    }
    // Named through the symlink in the exclusion list, the real directory is skipped too.
    assert_eq!(resolve(&path_of(&[&excluded]), &[link]), not_found());
}

#[test]
fn default_exclusions_are_the_current_directory_its_tree_and_the_executable_directory() {
    let excluded = runner::default_excluded().unwrap();
    let exe = std::env::current_exe().unwrap();
    let cwd = std::env::current_dir().unwrap();
    let exe_dir = exe.parent().unwrap().to_path_buf();
    assert_eq!(
        excluded.dirs(),
        [
            cwd.clone(),
            cwd.canonicalize().unwrap(),
            exe_dir.clone(),
            exe_dir.canonicalize().unwrap()
        ]
    );
    // The tests run in the package directory, which does not hold the home directory.
    let real = cwd.canonicalize().unwrap();
    assert_eq!(excluded.trees(), [real.clone(), real]);
}

/// Issue 11, finding 11: `<cwd>/.venv/bin` and `<cwd>/node_modules/.bin` were searched although
/// the current directory itself was skipped; a file an agent drops there would shadow the CLI.
#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn path_directories_under_the_current_directory_are_never_searched() {
    let root = Root::new();
    let project = root.outside().join("project");
    let marker = root.outside().join("shadow-ran");
    let venv = fake_dir_at(&project.join(".venv/bin"), "shadow", &marker);
    let node = fake_dir_at(&project.join("node_modules/.bin"), "shadow", &marker);
    let good = fake_dir_at(
        &root.outside().join("good"),
        "good",
        &root.outside().join("x"),
    );
    let path = format!("{}:{}:{}", venv.display(), node.display(), good.display());
    let output = probe(&["resolve", FAKE], None, &project, &[probe_env(&path)]);
    assert_eq!(output, "ran good");
    assert!(!marker.exists());

    // Started in `/`, a server still finds CLIs anywhere on PATH.
    let output = probe(
        &["resolve", FAKE],
        None,
        Path::new("/"),
        &[probe_env(&path)],
    );
    assert_eq!(output, "ran shadow");
}

/// A directory `dir` (created) holding `FAKE`, which prints `label` and creates `marker`.
fn fake_dir_at(dir: &Path, label: &str, marker: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(FAKE);
    std::fs::write(
        &path,
        format!("#!/bin/sh\necho {label}\n: > '{}'\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.canonicalize().unwrap()
}

#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn the_current_directory_is_never_searched_whatever_path_says() {
    let root = Root::new();
    let marker = root.path().join("shadow-ran");
    let cwd = fake_dir(&root, "cwd", "shadow", Some(&marker));
    let good = fake_dir(&root, "good", "good", None);
    let empty_dot_cwd = format!("::.:./:{}", cwd.display());

    let path = format!("{empty_dot_cwd}:{}", good.display());
    let output = probe(&["resolve", FAKE], None, &cwd, &[probe_env(&path)]);
    assert_eq!(output, "ran good");

    let output = probe(&["resolve", FAKE], None, &cwd, &[probe_env(&empty_dot_cwd)]);
    assert_eq!(
        output,
        format!("could not find the executable `{FAKE}` in PATH")
    );
    assert!(!marker.exists());
}

#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn the_directory_of_the_running_binary_is_never_searched() {
    // A hard link of the probe, next to a shadowing fake, stands in for `torii`.
    let root = Root::new();
    let marker = root.path().join("shadow-ran");
    let own_dir = fake_dir(&root, "bin", "shadow", Some(&marker));
    let good = fake_dir(&root, "good", "good", None);
    let exe = own_dir.join("torii-standin");
    std::fs::hard_link(crate::common::probe_exe(), &exe).unwrap();

    let path = format!("{}:{}", own_dir.display(), good.display());
    let output = probe(
        &["resolve", FAKE],
        Some(&exe),
        Path::new("/"),
        &[probe_env(&path)],
    );
    assert_eq!(output, "ran good");

    let path = own_dir.display().to_string();
    let output = probe(
        &["resolve", FAKE],
        Some(&exe),
        Path::new("/"),
        &[probe_env(&path)],
    );
    assert_eq!(
        output,
        format!("could not find the executable `{FAKE}` in PATH")
    );
    assert!(!marker.exists());
}

fn probe_env(path: &str) -> (&'static str, &OsStr) {
    ("PATH", OsStr::new(path))
}

// ---------------------------------------------------------------------------------------------
// .env

fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn dotenv_values_parse_as_the_book_writes_them() {
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("", &[]),
        ("\n   \n# comment\n  # indented comment\n", &[]),
        (
            "AWS_REGION=\"sa-east-1\"\nAWS_PAGER=\"\"",
            &[("AWS_REGION", "sa-east-1"), ("AWS_PAGER", "")],
        ),
        ("A=plain", &[("A", "plain")]),
        ("A=  padded value  ", &[("A", "padded value")]),
        ("  A  =  spaced key", &[("A", "spaced key")]),
        ("A=", &[("A", "")]),
        ("A=value # comment", &[("A", "value")]),
        ("A=value\t# comment", &[("A", "value")]),
        ("A=a#b", &[("A", "a#b")]),
        ("A=#not-a-comment", &[("A", "#not-a-comment")]),
        ("A= # only a comment", &[("A", "")]),
        ("A=x=y=z", &[("A", "x=y=z")]),
        ("export A=1", &[("A", "1")]),
        ("export\tA=1", &[("A", "1")]),
        ("export=1", &[("export", "1")]),
        ("exported=1", &[("exported", "1")]),
        (
            "A=\"a # not a comment\" # comment",
            &[("A", "a # not a comment")],
        ),
        (
            "A=\"line\\nnext\\ttab\\\"q\\\" back\\\\slash\"",
            &[("A", "line\nnext\ttab\"q\" back\\slash")],
        ),
        ("A=\"C:\\Users\\me\"", &[("A", "C:\\Users\\me")]),
        ("A='lit\\n $HOME \"x\"'", &[("A", "lit\\n $HOME \"x\"")]),
        ("A='x'#c", &[("A", "x")]),
        ("A=$HOME", &[("A", "$HOME")]),
        ("A=\"${HOME}/x\"", &[("A", "${HOME}/x")]),
        ("A=`id`", &[("A", "`id`")]),
        ("A=1\r\nB=2\r\n", &[("A", "1"), ("B", "2")]),
        ("\u{FEFF}A=1", &[("A", "1")]),
        ("_x9=1", &[("_x9", "1")]),
        ("A=1\nB=2\nA=3", &[("A", "3"), ("B", "2")]),
        ("A=héllo wörld", &[("A", "héllo wörld")]),
    ];
    for (text, expected) in cases {
        assert_eq!(dotenv::parse(text), Ok(vars(expected)), "{text:?}");
    }
}

#[test]
fn malformed_dotenv_lines_name_their_line_without_echoing_it() {
    let cases: &[(&str, usize, &str)] = &[
        ("A=1\nsecret-token", 2, "expected KEY=value"),
        ("A=1\n\n=value", 3, "missing variable name before `=`"),
        ("9A=1", 1, "invalid variable name"),
        ("A-B=1", 1, "invalid variable name"),
        ("A.B=1", 1, "invalid variable name"),
        ("export =1", 1, "missing variable name"),
        ("export A", 1, "expected KEY=value"),
        ("A B=1", 1, "invalid variable name"),
        ("A=\"open", 1, "unterminated double-quoted value"),
        ("A=\"multi\nline\"", 1, "unterminated double-quoted value"),
        (
            "A=\"ends with backslash\\\"",
            1,
            "unterminated double-quoted value",
        ),
        ("# c\nA='open", 2, "unterminated single-quoted value"),
        (
            "A=\"x\"trailing",
            1,
            "unexpected text after the closing quote",
        ),
        ("A='x' y", 1, "unexpected text after the closing quote"),
        ("A=\"nul\u{0}\"", 1, "NUL"),
    ];
    for (text, line, message) in cases {
        let error: DotenvError = dotenv::parse(text).unwrap_err();
        assert_eq!(error.line, *line, "{text:?}");
        assert!(
            error.message.contains(message),
            "{text:?}: {}",
            error.message
        );
        assert!(error.to_string().starts_with(&format!("line {line}: ")));
        assert!(!error.to_string().contains("secret"));
    }
}

#[test]
fn a_target_env_overrides_shared_keys_and_adds_its_own() {
    let shared = vars(&[("AWS_REGION", "sa-east-1"), ("AWS_PAGER", "")]);
    let target = vars(&[("AWS_REGION", "us-east-1"), ("KUBECONFIG", "/k")]);
    let merged = dotenv::overlay(shared, target);
    assert_eq!(
        merged,
        vars(&[
            ("AWS_REGION", "us-east-1"),
            ("AWS_PAGER", ""),
            ("KUBECONFIG", "/k")
        ])
    );
}

#[test]
fn env_files_missing_is_empty_and_errors_name_the_path() {
    let root = Root::new();
    assert_eq!(
        read_env_file(&root.path().join("absent/.env")).unwrap(),
        vec![]
    );

    let good = root.write("good/.env", "export A=1\nB='2'\n");
    let read: Vec<(String, String)> = read_env_file(&good)
        .unwrap()
        .into_iter()
        .map(|(name, value)| (name, value.expose().to_string()))
        .collect();
    assert_eq!(read, vars(&[("A", "1"), ("B", "2")]));

    let bad = root.write("bad/.env", "A=1\nnot a line\n");
    let error = read_env_file(&bad).unwrap_err();
    assert_eq!(
        chain(&error),
        format!("invalid env file {}:2: expected KEY=value", bad.display())
    );

    let directory = root.path().join("good");
    let error = read_env_file(&directory).unwrap_err();
    assert!(chain(&error).starts_with(&format!(
        "could not read env file `{}`: ",
        directory.display()
    )));
}

/// Issue 12, item 7: the time limit covers the whole run, not only reading: a child that
/// closes its output and goes on running is stopped too; one that exits on SIGTERM is not
/// waited for past it.
#[tokio::test]
async fn the_time_limit_stops_a_child_that_closed_its_output() {
    for code in [
        "echo before; exec >/dev/null 2>&1; sleep 600",
        "echo before; sleep 600 & wait",
    ] {
        let started = std::time::Instant::now();
        let execution = run(Launch {
            timeout: Some(Duration::from_millis(500)),
            ..launch("/bin/sh", &["-c", code])
        })
        .await;
        assert!(execution.timed_out, "{code}: {execution:?}");
        assert_eq!(execution.exit_code, 143, "{code}");
        assert_eq!(execution.stdout, "before\n", "{code}");
        // SIGTERM ends `sh` at once; only a child that ignores it waits for the grace period.
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{code}: {:?}",
            started.elapsed()
        );
    }
}

/// Fourth review: on a timeout the leader died on SIGTERM, and a grandchild that ignored it
/// (its output elsewhere) was left running. What is left of the group gets SIGKILL.
#[tokio::test]
async fn a_timeout_kills_what_is_left_of_the_group() {
    times_out_leaving_nothing(|pid_file| {
        format!(
            "(trap '' TERM; exec sleep 600 >/dev/null 2>&1 </dev/null) & echo $! > '{}'; sleep 600",
            pid_file.display()
        )
    })
    .await;
}

/// Runs the shell code `code(pid_file)` with a short time limit: the call times out, and the
/// process whose number the code wrote into `pid_file` ends.
async fn times_out_leaving_nothing(code: impl Fn(&Path) -> String) {
    let root = Root::new();
    let pid_file = root.outside().join("left-behind");
    let code = code(&pid_file);
    let execution = run(Launch {
        timeout: Some(Duration::from_millis(1500)),
        ..launch("/bin/sh", &["-c", &code])
    })
    .await;
    assert!(execution.timed_out, "{execution:?}");
    assert_ends(&wait_for(&pid_file), &format!("{code}: after the timeout"));
}

/// Waits until process `pid` is gone (or a zombie).
fn assert_ends(pid: &str, what: &str) {
    let stat = format!("/proc/{}/stat", pid.trim());
    crate::common::wait_until(&format!("{what}: process {} to end", pid.trim()), || {
        std::fs::read_to_string(&stat).map_or(true, |stat| {
            stat.rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z'))
        })
    });
}

/// A child that double-forks into a new session (`setsid`), leaving its process group.
fn escaping_code(pid_file: &Path) -> String {
    format!(
        "(setsid sh -c 'echo $$ > \"{}\"; exec sleep 600' </dev/null >/dev/null 2>&1 &); sleep 600",
        pid_file.display()
    )
}

fn wait_for(path: &Path) -> String {
    crate::common::wait_until(&format!("{} to be written", path.display()), || {
        std::fs::read_to_string(path).is_ok_and(|text| !text.trim().is_empty())
    });
    std::fs::read_to_string(path).unwrap()
}

/// Issue 33: a child that double-forked and called `setsid()` left the group and survived the
/// call's timeout (regression). It stays in the child's tree, where the timeout ends it.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_timeout_ends_a_descendant_that_left_the_group() {
    times_out_leaving_nothing(escaping_code).await;
}

/// The same for a cancelled call (its future dropped), as when the client cancels or the
/// server shuts down.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_cancellation_ends_a_descendant_that_left_the_group() {
    let root = Root::new();
    let pid_file = root.outside().join("escaped");
    let code = escaping_code(&pid_file);
    let call = tokio::spawn(runner::run(launch("/bin/sh", &["-c", &code])));
    let pid = tokio::task::spawn_blocking({
        let pid_file = pid_file.clone();
        move || wait_for(&pid_file)
    })
    .await
    .unwrap();
    call.abort();
    let _ = call.await;
    assert_ends(&pid, "after the cancellation");
}

/// A descendant that left the session and outlived the child, still holding its output: the
/// call waits for that output until its timeout, which then ends the descendant too.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_timeout_ends_a_descendant_that_outlived_the_child_and_holds_its_output() {
    times_out_leaving_nothing(|pid_file| {
        format!(
            "(setsid sh -c 'echo $$ > \"{}\"; exec sleep 600' &)",
            pid_file.display()
        )
    })
    .await;
}

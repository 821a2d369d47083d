//! Helpers shared by the integration tests.
#![allow(dead_code)]

#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// A fresh, empty Torii config root, removed on drop, with sibling directories: `outside` for
/// everything that is not Torii's (marker files, CLI configuration), `work`, the current
/// directory of every `torii` a test starts, and `bin` for fake CLIs.
///
/// They live in a temporary directory under Cargo's target directory rather than under `/tmp`:
/// provider children are confined out of the config root, which also keeps them from creating
/// entries directly in the directories that contain it, and `/tmp` must stay theirs. And a
/// server never searches `PATH` directories under its current directory, so it must not run in
/// the repository, where the fake CLIs and `.tools/bin` live.
pub struct Root {
    temp: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    work: PathBuf,
}

impl Root {
    pub fn new() -> Self {
        let temp = tempfile::Builder::new()
            .prefix("torii-test-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("temp dir");
        let root = temp.path().join("root");
        let outside = temp.path().join("outside");
        let work = temp.path().join("work");
        for dir in [&root, &outside, &work] {
            std::fs::create_dir(dir).expect("test directory");
        }
        Self {
            temp,
            root,
            outside,
            work,
        }
    }

    /// The config root (`TORII_CONFIG_DIR`).
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// A directory beside the config root, outside it, for what is not Torii's.
    pub fn outside(&self) -> &Path {
        &self.outside
    }

    /// The current directory of the servers and commands a test starts.
    pub fn work(&self) -> &Path {
        &self.work
    }

    /// The temporary directory holding all three.
    pub fn temp(&self) -> &Path {
        self.temp.path()
    }

    /// Writes `contents` at `relative` under the outside directory, creating parent directories:
    /// files that belong to the CLIs (kubeconfigs, AWS profiles), never to Torii.
    pub fn write_outside(&self, relative: &str, contents: &str) -> PathBuf {
        write_creating_parents(&self.outside.join(relative), contents)
    }

    /// Writes `contents` at `relative` under the root, creating parent directories.
    pub fn write(&self, relative: &str, contents: &str) -> PathBuf {
        write_creating_parents(&self.root.join(relative), contents)
    }

    /// The real `torii` binary with `TORII_CONFIG_DIR` pointing at this root and no GUI.
    /// `torii` as a person at a terminal runs it: for the commands only a human may run, which
    /// refuse a standard input that is not a terminal.
    #[cfg(unix)]
    pub fn torii_at_terminal(&self) -> assert_cmd::Command {
        let mut command = at_terminal(&assert_cmd::cargo::cargo_bin("torii"));
        command
            .env("TORII_CONFIG_DIR", &self.root)
            .env("TORII_NO_GUI", "1")
            .env("TORII_LANG", "en")
            .current_dir(&self.work);
        assert_cmd::Command::from_std(command)
    }

    pub fn torii(&self) -> assert_cmd::Command {
        let mut command = assert_cmd::Command::cargo_bin("torii").expect("torii binary");
        command
            .env("TORII_CONFIG_DIR", &self.root)
            .env("TORII_NO_GUI", "1")
            // The human messages the tests read are English, whatever this machine's locale.
            .env("TORII_LANG", "en")
            .current_dir(&self.work);
        command
    }
}

fn write_creating_parents(path: &Path, contents: &str) -> PathBuf {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create parent");
    }
    std::fs::write(path, contents).expect("write file");
    path.to_path_buf()
}

/// A provider directory with `provider.yaml` and `rules.yaml`.
pub fn install_provider(root: &Root, dir: &str, provider_yaml: &str, rules_yaml: &str) {
    root.write(&format!("providers/{dir}/provider.yaml"), provider_yaml);
    root.write(&format!("providers/{dir}/rules.yaml"), rules_yaml);
}

/// A simple provider whose command is the fake CLI `name`.
pub fn simple_provider(name: &str, policy: &str) -> String {
    format!(
        "version: \"1\"\nname: {name}\ntool: {name}\ndescription: fake {name} CLI\ncommand: {name}\n{policy}"
    )
}

/// A fake CLI on a private `PATH` directory outside the config root: it records each launch (one
/// line with the args joined by `\u{1f}`) in `calls/<name>.calls`, then runs `body` (shell) for
/// its output. The marker file is how a test proves that nothing ran. (It is not beside the
/// CLI: children may run programs from `PATH` directories but not change them.)
pub struct FakeCli {
    pub bin_dir: PathBuf,
    pub calls: PathBuf,
}

impl FakeCli {
    pub fn new(root: &Root, name: &str, body: &str) -> Self {
        // Beside `root` and `outside`, not inside `outside`: children cannot create entries
        // directly in the directories holding a `PATH` directory, and `outside` must stay
        // theirs.
        let bin_dir = root.temp().join("bin");
        std::fs::create_dir_all(&bin_dir).unwrap();
        let calls_dir = root.outside().join("calls");
        std::fs::create_dir_all(&calls_dir).unwrap();
        let calls = calls_dir.join(format!("{name}.calls"));
        let script = format!(
            "#!/bin/sh\n( sep=''; for a in \"$@\"; do printf '%s%s' \"$sep\" \"$a\"; sep=$(printf '\\037'); done; echo ) >> '{}'\n{body}\n",
            calls.display()
        );
        let path = bin_dir.join(name);
        std::fs::write(&path, script).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Self { bin_dir, calls }
    }

    /// Each recorded launch, as its argument vector.
    pub fn launches(&self) -> Vec<Vec<String>> {
        match std::fs::read_to_string(&self.calls) {
            Ok(text) => text
                .lines()
                .map(|line| line.split('\u{1f}').map(str::to_string).collect())
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// `PATH` with the fake bin directory first.
    pub fn path_env(&self) -> std::ffi::OsString {
        let mut paths = vec![self.bin_dir.clone()];
        paths.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        std::env::join_paths(paths).unwrap()
    }
}

/// The audit log lines of a root (empty when the log does not exist), each without the
/// chain value that ends it (` | chain=<hex>`; the audit tests check it).
pub fn audit_lines(root: &Root) -> Vec<String> {
    std::fs::read_to_string(root.path().join("torii.log"))
        .map(|text| {
            text.lines()
                .map(|line| unchained(line).to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// An audit line without its chain value.
pub fn unchained(line: &str) -> &str {
    match line.rsplit_once(" | chain=") {
        Some((text, value)) if value.len() == 64 => text,
        _ => panic!("audit line without a chain value: {line:?}"),
    }
}

/// The event column of each audit line.
pub fn audit_events(root: &Root) -> Vec<String> {
    audit_lines(root)
        .iter()
        .filter_map(|line| line.split(" | ").nth(2).map(str::to_string))
        .collect()
}

/// A scripted answer (see `TORII_TEST_RESPONDER`): the human enters this candidate session.
pub fn auth_candidate(values: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"authenticate": {"validated": {"values": values}}})
}

/// A scripted answer: the human cancels the authentication window.
pub fn auth_cancel() -> serde_json::Value {
    serde_json::json!({"authenticate": {"cancelled": {}}})
}

/// Fails a test that needs `what`, something outside Rust that is not there.
///
/// Such a test is `#[ignore]`d with the reason, so a plain `cargo test` reports it as ignored
/// instead of passing without checking anything; scripts/test.sh installs what they need and
/// runs them too (nextest's `--run-ignored all`). Once one runs, a missing part is a failure.
pub fn missing_tool(what: &str) -> ! {
    panic!("{what} is missing (./scripts/test.sh installs the tools the ignored tests need)");
}

/// The `initialize` request (id 1) of a client that writes JSON-RPC lines by hand.
pub fn initialize_request() -> serde_json::Value {
    serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}})
}

/// How long a test waits for what another process does before it fails.
pub const PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// Polls `ready` until it holds; fails the test, naming `what`, after [`PATIENCE`].
pub fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let started = std::time::Instant::now();
    while !ready() {
        assert!(
            started.elapsed() < PATIENCE,
            "{what}: not within {PATIENCE:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// [`wait_until`] in an async test, without holding its thread.
pub async fn wait_until_async(what: &str, mut ready: impl FnMut() -> bool) {
    let started = std::time::Instant::now();
    while !ready() {
        assert!(
            started.elapsed() < PATIENCE,
            "{what}: not within {PATIENCE:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// What tells a file that was replaced (Torii writes by rename) from the same file left alone:
/// its inode, which no coarse clock can hide (the modification time elsewhere).
pub fn file_identity(metadata: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        std::os::unix::fs::MetadataExt::ino(metadata)
    }
    #[cfg(not(unix))]
    {
        metadata
            .modified()
            .ok()
            .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |since| since.as_nanos() as u64)
    }
}

/// `torii-test-probe` (`tests/probe`), the process a check starts when it needs one of its own;
/// built with the test hooks, so the tests that use it are ignored without them.
#[cfg(feature = "test-hooks")]
pub fn probe_exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_torii-test-probe"))
}

#[cfg(not(feature = "test-hooks"))]
pub fn probe_exe() -> PathBuf {
    panic!("torii-test-probe is built with --features test-hooks")
}

/// Seconds since the Unix epoch, now.
pub fn epoch_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The first `program` on this process's PATH.
pub fn which(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}

/// A command that runs `program` (with the arguments added to it) with a new pseudo-terminal
/// on its standard input, as in a person's terminal session. The terminal's other side stays
/// open until the test process ends. (`sh` opens the terminal: a test's command pipes its
/// standard input.)
#[cfg(unix)]
pub fn at_terminal(program: &Path) -> std::process::Command {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    static KEPT_OPEN: std::sync::Mutex<Vec<std::os::fd::OwnedFd>> =
        std::sync::Mutex::new(Vec::new());
    let leader = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
    grantpt(&leader).expect("grantpt");
    unlockpt(&leader).expect("unlockpt");
    let follower = ptsname(&leader, Vec::new()).expect("ptsname");
    KEPT_OPEN.lock().unwrap().push(leader);
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", r#"terminal=$0; exec "$@" < "$terminal""#])
        .arg(std::ffi::OsStr::from_bytes(follower.as_bytes()))
        .arg(program);
    command
}

//! What exists only on Windows, run by the Windows job of `.github/workflows/test.yml`: the
//! provider command found through `PATH` × `PATHEXT`, a `.cmd` wrapper that receives shell
//! metacharacters as data, `notepad` as the default editor, the lease file's lock between two
//! processes, and `torii.exe.old`: a running executable moved aside by an upgrade and removed
//! by the next one. Each rule's decision is also a plain function tested on every system (see
//! the unit tests of `runner::resolve`, `runner::exec` and `rules::editor`); these run the
//! real thing. Elsewhere this target is empty.
#![cfg(all(windows, feature = "test-hooks"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use torii::leases::LeaseStore;
use torii::registry::Registry;

fn probe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_torii-test-probe"))
}

fn stdout(output: Output) -> String {
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// A directory with `name.cmd` that runs `body`.
fn wrapper(dir: &Path, name: &str, body: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("{name}.cmd"));
    std::fs::write(&path, format!("@echo off\r\n{body}\r\n")).unwrap();
    path
}

/// The book: `command: az` finds `az.cmd`, the only executable the Azure CLI installs, and
/// never one in the current directory, even when that comes first in `PATH`.
#[test]
fn az_resolves_to_az_cmd_through_pathext_and_not_in_the_current_directory() {
    let temp = tempfile::tempdir().unwrap();
    let project = temp.path().join("project");
    let bin = temp.path().join("bin");
    wrapper(&project, "az", "echo from the project");
    wrapper(&bin, "az", "echo from bin");
    let system = std::env::var_os("SystemRoot").map(|root| PathBuf::from(root).join("System32"));
    let path = std::env::join_paths([project.clone(), bin].into_iter().chain(system)).unwrap();
    let said = stdout(
        probe()
            .args(["resolve", "az"])
            .env("PATH", path)
            .env_remove("PATHEXT")
            .current_dir(&project)
            .output()
            .unwrap(),
    );
    assert_eq!(said.trim(), "ran from bin");
}

/// The book: `&`, `|`, `^`, `>`, `%VAR%` and `!VAR!` cross a `.cmd` wrapper as data, and an
/// argument the quoting cannot express (a line break) fails the launch.
#[test]
fn a_cmd_wrapper_receives_metacharacters_as_data_and_a_line_break_fails_the_launch() {
    let temp = tempfile::tempdir().unwrap();
    let recorder = wrapper(
        &temp.path().join("bin"),
        "record",
        &format!("\"{}\" args %*", env!("CARGO_BIN_EXE_torii-test-probe")),
    );
    let args = [
        "&", "a&b", "|", "^", ">", "out.txt", "%PATH%", "!PATH!", "%%", "a b", "(x)", "é", "",
    ];
    let said = stdout(
        probe()
            .arg("run")
            .arg(&recorder)
            .args(args)
            .current_dir(temp.path())
            .output()
            .unwrap(),
    );
    let received: Vec<String> = serde_json::from_str(said.trim()).unwrap();
    assert_eq!(received, args);
    assert!(!temp.path().join("out.txt").exists(), "`>` redirected");

    for broken in ["a\nb", "a\rb"] {
        let said = stdout(
            probe()
                .arg("run")
                .arg(&recorder)
                .args(["fine", broken])
                .output()
                .unwrap(),
        );
        assert!(said.contains("argument 2 holds a line break"), "{said}");
    }
}

/// The book: without `$VISUAL` and `$EDITOR`, `torii policy edit` opens `notepad`, found on
/// `PATH` like any program.
#[test]
fn notepad_is_the_default_editor() {
    let said = stdout(
        probe()
            .arg("editor")
            .env_remove("VISUAL")
            .env_remove("EDITOR")
            .output()
            .unwrap(),
    );
    assert!(
        said.trim().to_ascii_lowercase().ends_with("\\notepad.exe"),
        "{said}"
    );
}

/// The lease file's lock (`.target-authorizations.lock`) between two processes that write
/// leases as fast as they can: no write is lost, and every read decodes.
#[test]
fn two_processes_writing_leases_lose_no_update() {
    let root = tempfile::tempdir().unwrap();
    let write = |relative: &str, text: &str| {
        let path = root.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "providers/kubectl/provider.yaml",
        "version: \"1\"\nname: kubectl\ntool: kubectl\ndescription: Kubernetes.\n\
         command: kubectl\ntargeting:\n  mode: kubectl_context\n",
    );
    write("providers/kubectl/rules.yaml", "version: \"1\"\n");
    write(
        "providers/idp/provider.yaml",
        "version: \"1\"\nname: idp\ntool: idp\ndescription: Identity.\ncommand: idp\n\
         auth:\n  identity:\n    command: idp\n    field: Account\n",
    );
    for (alias, context) in [("dev", "ctx-a"), ("hml", "ctx-b")] {
        write(
            &format!("providers/kubectl/targets/{alias}/target.yaml"),
            &format!(
                "version: \"1\"\nname: {alias}\ncontext: {context}\nidentity:\n  provider: idp\n"
            ),
        );
    }
    let logs: Vec<PathBuf> = (0..2)
        .map(|index| root.path().join(format!("worker-{index}.log")))
        .collect();
    let mut workers: Vec<std::process::Child> = logs
        .iter()
        .map(|log| {
            probe()
                .arg("lease-worker")
                .arg("race")
                .arg(root.path())
                .arg("300")
                .arg(log)
                .spawn()
                .unwrap()
        })
        .collect();
    let registry = Registry::load(root.path()).unwrap();
    let store = LeaseStore::new(registry.by_tool("kubectl").unwrap());
    let mut last = 0;
    while workers
        .iter_mut()
        .any(|worker| worker.try_wait().unwrap().is_none())
    {
        let revision = store.read().unwrap().revision();
        assert!(revision >= last, "the revision went back");
        last = revision;
    }
    for worker in &mut workers {
        assert!(worker.wait().unwrap().success(), "a worker failed");
    }
    assert!(
        root.path()
            .join("providers/kubectl/.target-authorizations.lock")
            .exists()
    );
    let mut revisions: Vec<u64> = logs
        .iter()
        .flat_map(|log| {
            std::fs::read_to_string(log)
                .unwrap()
                .lines()
                .map(|line| line.split_once(' ').unwrap().1.parse().unwrap())
                .collect::<Vec<u64>>()
        })
        .collect();
    revisions.sort_unstable();
    assert!(revisions.len() > 300, "only {} writes", revisions.len());
    let expected: Vec<u64> = (1..=revisions.len() as u64).collect();
    assert_eq!(revisions, expected, "two writes shared a revision");
    assert_eq!(store.read().unwrap().revision(), revisions.len() as u64);
}

/// The book: a running `.exe` can be neither overwritten nor removed, only renamed: the
/// upgrade moves it aside to `torii.exe.old`, which stays while it runs and goes with the next
/// upgrade once it has ended.
#[test]
fn a_running_torii_exe_is_moved_aside_and_removed_by_the_next_upgrade() {
    use torii::release::{Platform, remove_leftover, replace_executable};
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("torii.exe");
    std::fs::copy(env!("CARGO_BIN_EXE_torii-test-probe"), &exe).unwrap();
    let mut running = Command::new(&exe)
        .arg("wait")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    assert!(
        std::fs::remove_file(&exe).is_err(),
        "a running image was removed"
    );
    replace_executable(&exe, b"new build", Platform::Windows).unwrap();
    assert_eq!(std::fs::read(&exe).unwrap(), b"new build");
    let old = dir.path().join("torii.exe.old");
    assert!(old.exists());
    let said = remove_leftover(&exe, Platform::Windows).unwrap();
    assert!(said.contains("yet"), "{said}");
    assert!(old.exists());

    drop(running.stdin.take());
    assert!(running.wait().unwrap().success());
    let said = remove_leftover(&exe, Platform::Windows).unwrap();
    assert!(said.starts_with("removed "), "{said}");
    assert!(!old.exists());
    assert_eq!(std::fs::read(&exe).unwrap(), b"new build");
}

//! The audit log's hash chain, written by a real server and checked by `torii audit verify`:
//! an edited, a deleted and a swapped line are found where they are, lines cut from the end
//! show against the head, and rotation keeps one chain across files.

use predicates::prelude::*;
use serde_json::json;

use crate::common::{FakeCli, Root, install_provider, simple_provider};
use crate::mcp_client;

const RULES: &str = "version: \"1\"\ndeny:\n  - \"s3 rm\"\naccept:\n  - \"s3 ls\"\n";

/// A root whose log holds the lines of `calls` MCP calls (allowed and denied).
async fn root_with_calls(calls: usize) -> Root {
    let root = Root::new();
    install_provider(&root, "cli", &simple_provider("cli", ""), RULES);
    let fake = FakeCli::new(&root, "cli", "echo listed");
    session(&root, &fake, calls).await;
    root
}

async fn session(root: &Root, fake: &FakeCli, calls: usize) {
    let client = mcp_client::start(root, &[("PATH", fake.path_env())]).await;
    for call in 0..calls {
        let args = if call % 2 == 0 {
            ["s3", "ls"]
        } else {
            ["s3", "rm"]
        };
        client.call("cli", json!({ "args": args })).await;
    }
    client.close().await;
}

fn log_path(root: &Root) -> std::path::PathBuf {
    root.path().join("torii.log")
}

fn rewrite(root: &Root, change: impl FnOnce(&mut Vec<String>)) {
    let text = std::fs::read_to_string(log_path(root)).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    change(&mut lines);
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    std::fs::write(log_path(root), text).unwrap();
}

fn verify_fails_at(root: &Root, place: &str) {
    root.torii()
        .args(["audit", "verify"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(place))
        .stderr(predicate::str::contains("the audit log was changed"));
}

#[tokio::test]
async fn a_real_session_leaves_a_whole_chain() {
    let root = root_with_calls(3).await;
    let text = std::fs::read_to_string(log_path(&root)).unwrap();
    assert!(text.lines().count() >= 8, "{text}");
    for line in text.lines() {
        let (_, value) = line.rsplit_once(" | chain=").expect(line);
        assert_eq!(value.len(), 64, "{line}");
    }
    root.torii()
        .args(["audit", "verify"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("lines checked")
                .and(predicate::str::contains("the chain is whole")),
        );
}

#[tokio::test]
async fn an_edited_line_is_named() {
    let root = root_with_calls(2).await;
    // The denial made to look like an allowed call.
    rewrite(&root, |lines| {
        let denied = lines
            .iter()
            .position(|line| line.contains("denied-explicit"))
            .unwrap();
        lines[denied] = lines[denied].replace("denied-explicit", "allowed-by-rules");
    });
    let text = std::fs::read_to_string(log_path(&root)).unwrap();
    let line = 1 + text
        .lines()
        .position(|line| line.contains("| allowed-by-rules | s3 rm"))
        .unwrap();
    verify_fails_at(&root, &format!("torii.log line {line} does not follow"));
}

#[tokio::test]
async fn a_deleted_line_is_named() {
    let root = root_with_calls(2).await;
    rewrite(&root, |lines| {
        lines.remove(2);
    });
    verify_fails_at(&root, "torii.log line 3 does not follow");
}

#[tokio::test]
async fn swapped_lines_are_named() {
    let root = root_with_calls(2).await;
    rewrite(&root, |lines| lines.swap(1, 2));
    verify_fails_at(&root, "torii.log line 2 does not follow");
    verify_fails_at(&root, "torii.log line 3 does not follow");
}

#[tokio::test]
async fn a_line_added_by_hand_is_named() {
    let root = root_with_calls(2).await;
    rewrite(&root, |lines| {
        lines.insert(1, "1784000000 | cli | allowed-by-grant | s3 rm".to_string());
    });
    verify_fails_at(&root, "torii.log line 2 has no chain value");
}

#[tokio::test]
async fn lines_cut_from_the_end_show_against_the_head() {
    let root = root_with_calls(2).await;
    rewrite(&root, |lines| {
        lines.pop();
    });
    verify_fails_at(&root, "the log ends before the chain's head");
}

/// The operator rotates the log between two sessions: the new file continues the chain, which
/// verifies whole when the rotated file is given, and shows the missing link when it was cut.
#[tokio::test]
async fn rotation_keeps_one_chain() {
    let root = Root::new();
    install_provider(&root, "cli", &simple_provider("cli", ""), RULES);
    let fake = FakeCli::new(&root, "cli", "echo listed");
    session(&root, &fake, 2).await;
    let rotated = root.path().join("torii.log.1");
    std::fs::rename(log_path(&root), &rotated).unwrap();
    session(&root, &fake, 2).await;

    root.torii()
        .args(["audit", "verify"])
        .arg(&rotated)
        .assert()
        .success()
        .stdout(predicate::str::contains("the chain is whole"));
    // Alone, the new file continues a chain that did not begin in it: a problem, unless the
    // human says the older files are gone.
    root.torii()
        .args(["audit", "verify"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("does not start a chain"));
    root.torii()
        .args(["audit", "verify", "--continued"])
        .assert()
        .success()
        .stdout(predicate::str::contains("the chain is whole"));

    // The last line of the rotated file removed: the first line of the new one breaks.
    let text = std::fs::read_to_string(&rotated).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    let kept = kept[..kept.len() - 1].join("\n") + "\n";
    std::fs::write(&rotated, kept).unwrap();
    root.torii()
        .args(["audit", "verify"])
        .arg(&rotated)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("torii.log line 1 does not follow"));
}

/// `audit verify` speaks Portuguese to a Brazilian human, like every command.
#[tokio::test]
async fn verify_speaks_portuguese() {
    let root = root_with_calls(1).await;
    root.torii()
        .env("TORII_LANG", "pt-BR")
        .args(["audit", "verify"])
        .assert()
        .success()
        .stdout(predicate::str::contains("a cadeia está íntegra"));
}

/// Red team: the first line was never checked, so editing it on a log never rotated verified.
#[tokio::test]
async fn an_edited_first_line_is_found() {
    let root = root_with_calls(1).await;
    rewrite(&root, |lines| {
        lines[0] = lines[0].replace("invoke | s3 ls", "invoke | s3 rm --recursive");
    });
    verify_fails_at(&root, "the first line of");
}

/// Red team: lines without a chain value before the first chained one were "not covered", so
/// stripping every value but the last let any line be rewritten.
#[tokio::test]
async fn lines_stripped_of_their_value_are_found() {
    let root = root_with_calls(2).await;
    rewrite(&root, |lines| {
        let last = lines.len() - 1;
        for line in &mut lines[..last] {
            let (text, _) = line.rsplit_once(" | chain=").unwrap();
            *line = text.replace("denied-explicit", "allowed-by-rules");
        }
    });
    verify_fails_at(&root, "torii.log line 1 has no chain value");
    // And with the head emptied and every value gone.
    rewrite(&root, |lines| {
        for line in lines.iter_mut() {
            if let Some((text, _)) = line.rsplit_once(" | chain=") {
                *line = text.to_string();
            }
        }
    });
    std::fs::write(root.path().join(".audit-chain"), "").unwrap();
    verify_fails_at(&root, "the log ends before the chain's head");
}

/// Red team: a head that could not be opened (a directory in its place) cost the log every
/// line. The lines are written, without a chain value, and verify says so.
#[tokio::test]
async fn a_broken_head_costs_the_log_no_line() {
    let root = Root::new();
    install_provider(&root, "cli", &simple_provider("cli", ""), RULES);
    std::fs::create_dir(root.path().join(".audit-chain")).unwrap();
    let fake = FakeCli::new(&root, "cli", "echo listed");
    session(&root, &fake, 1).await;
    let text = std::fs::read_to_string(log_path(&root)).unwrap();
    assert!(text.lines().count() >= 4, "{text}");
    assert!(text.contains("| ran | s3 ls | exit=0\n"), "{text}");
    root.torii()
        .args(["audit", "verify"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot read the audit log"));
}

/// Red team: verify opened a FIFO given as a rotated file and waited forever.
#[cfg(unix)]
#[tokio::test]
async fn a_fifo_is_refused_not_waited_on() {
    let root = root_with_calls(1).await;
    let fifo = root.path().join("torii.log.1");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    root.torii()
        .args(["audit", "verify"])
        .arg(&fifo)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is not a regular file"));
}

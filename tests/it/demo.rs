//! `torii demo`, the README's first command, runs end to end on a fresh machine.

use predicates::prelude::*;

use crate::common::Root;

#[test]
fn demo_shows_allowed_denied_and_unresolved_calls_and_the_audit() {
    let root = Root::new();
    root.torii()
        .arg("demo")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "decision allow by rules (rule `--version`)",
        ))
        .stdout(predicate::str::contains(
            "decision deny by explicit-deny (rule `push`)",
        ))
        .stdout(predicate::str::contains("decision deny by human-deny"))
        .stdout(predicate::str::contains("| git | ran | --version | exit=0"))
        // Issue 35: one name for the headless refusal's two labels, and the README's next
        // steps (an offline official package, then `torii agent install`), not a snippet to
        // paste into an empty root.
        .stdout(predicate::str::contains(
            "the agent reads source human-deny, the audit says denied-interface",
        ))
        .stdout(predicate::str::contains("torii provider install kubectl"))
        .stdout(predicate::str::contains(
            "torii agent install claude --hook",
        ))
        .stdout(predicate::str::contains("\"mcpServers\"").not())
        // Not a TTY: no colour codes.
        .stdout(predicate::str::contains("\u{1b}[").not());
    // The demo writes nothing to the user's config root.
    assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
}

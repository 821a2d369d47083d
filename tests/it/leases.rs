//! Target leases through the library API the dispatcher uses ("Leases de target",
//! "Regressões prioritárias"): inactive by default, Replace/Add/Revoke, 1–1440 minutes,
//! expiry, the binding digest (also for a registry loaded before the edit), compare-and-swap,
//! fail-closed corruption, `clear`, two processes racing and `kill -9` during writes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use torii::leases::{
    Activation, Change, LeaseEntry, LeaseError, LeaseMinutes, LeaseStatus, LeaseStore,
};
use torii::registry::{Provider, Registry, Target};

use crate::common::Root;

// The generator the lease workers use, for this process's own random kills.
#[path = "../probe/random.rs"]
mod random;
use random::{XorShift, seed};

/// Where the fixture's lease state lives, relative to the root.
pub const STATE: &str = "providers/kubectl/.target-authorizations.yaml";

pub const DEV_TARGET: &str =
    "version: \"1\"\nname: dev\ncontext: ctx-a\nidentity:\n  provider: idp\n";
pub const HML_TARGET: &str =
    "version: \"1\"\nname: hml\ncontext: ctx-b\nidentity:\n  provider: idp\n";

/// A root with a `kubectl_context` provider (targets `dev`, `hml`), the identity provider
/// `idp`, and the files a lease must never touch: rules, `.env`, grants, credentials.
pub fn kubectl_root() -> Root {
    let root = Root::new();
    root.write(
        "providers/kubectl/provider.yaml",
        "version: \"1\"\nname: kubectl\ntool: kubectl\ndescription: Kubernetes.\n\
         command: kubectl\ntargeting:\n  mode: kubectl_context\n",
    );
    root.write(
        "providers/idp/provider.yaml",
        "version: \"1\"\nname: idp\ntool: idp\ndescription: Identity.\ncommand: idp\n\
         auth:\n  identity:\n    command: idp\n    field: Account\n",
    );
    root.write("providers/kubectl/targets/dev/target.yaml", DEV_TARGET);
    root.write("providers/kubectl/targets/hml/target.yaml", HML_TARGET);
    for (path, text) in [
        (
            "providers/kubectl/rules.yaml",
            "version: \"1\"\naccept: [get pods]\n",
        ),
        ("providers/kubectl/.env", "SHARED=1\n"),
        (
            "providers/kubectl/targets/dev/rules.yaml",
            "version: \"1\"\n",
        ),
        ("providers/kubectl/targets/dev/.env", "ONLY_DEV=1\n"),
        (
            "providers/kubectl/targets/dev/grants",
            "version: \"2\"\nentries: []\n",
        ),
        (
            "providers/idp/identities/dev/.session-cache",
            "1784000000\n",
        ),
        (
            "providers/idp/identities/dev/.identity-cache",
            "1784000000 123\n",
        ),
        (
            "providers/idp/identities/dev/auth/credentials.env",
            "TOKEN=secret\n",
        ),
    ] {
        root.write(path, text);
    }
    root
}

fn load(root: &Root) -> Registry {
    Registry::load(root.path()).unwrap()
}

fn kubectl(registry: &Registry) -> &Provider {
    registry.by_tool("kubectl").unwrap()
}

fn target<'a>(registry: &'a Registry, alias: &str) -> &'a Target {
    kubectl(registry).target(alias).unwrap()
}

fn minutes(value: u64) -> LeaseMinutes {
    LeaseMinutes::new(value).unwrap()
}

const NOW: u64 = 1_784_000_000;

fn status(registry: &Registry, alias: &str, now: u64) -> LeaseStatus {
    LeaseStore::new(kubectl(registry))
        .check(target(registry, alias), now)
        .unwrap()
}

fn active(expires_at: u64) -> LeaseStatus {
    LeaseStatus::Active { expires_at }
}

#[test]
fn aliases_start_inactive_and_activation_replaces_or_adds() {
    let root = kubectl_root();
    let registry = load(&root);
    let store = LeaseStore::new(kubectl(&registry));
    assert_eq!(status(&registry, "dev", NOW), LeaseStatus::Inactive);
    assert!(!root.path().join(STATE).exists(), "checking writes nothing");

    store
        .activate(
            target(&registry, "dev"),
            minutes(30),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    assert_eq!(status(&registry, "dev", NOW), active(NOW + 1800));
    assert_eq!(status(&registry, "hml", NOW), LeaseStatus::Inactive);

    let state = store
        .activate(target(&registry, "hml"), minutes(1), Activation::Add, NOW)
        .unwrap();
    assert_eq!(state.active_aliases(NOW), ["dev", "hml"]);
    assert_eq!(state.revision(), 2);

    let state = store
        .activate(
            target(&registry, "hml"),
            minutes(5),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    assert_eq!(state.active_aliases(NOW), ["hml"]);
    assert_eq!(status(&registry, "dev", NOW), LeaseStatus::Inactive);

    let state = store.revoke("hml", NOW).unwrap();
    assert!(state.entries().is_empty());
    assert_eq!(status(&registry, "hml", NOW), LeaseStatus::Inactive);
    assert_eq!(
        store.read().unwrap(),
        state,
        "what is returned is what was written"
    );
}

#[test]
fn a_lease_ends_at_its_expiry() {
    let root = kubectl_root();
    let registry = load(&root);
    let store = LeaseStore::new(kubectl(&registry));
    store
        .activate(
            target(&registry, "dev"),
            minutes(1),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    assert_eq!(status(&registry, "dev", NOW + 59), active(NOW + 60));
    for later in [NOW + 60, NOW + 61, u64::MAX] {
        assert_eq!(
            status(&registry, "dev", later),
            LeaseStatus::Expired {
                expired_at: NOW + 60
            }
        );
    }
    // The next write drops the expired lease.
    let state = store
        .activate(
            target(&registry, "hml"),
            minutes(1),
            Activation::Add,
            NOW + 60,
        )
        .unwrap();
    assert_eq!(state.entries().len(), 1);
}

#[test]
fn durations_outside_1_to_1440_minutes_are_refused() {
    for bad in [0, 1441] {
        let error = LeaseMinutes::new(bad).unwrap_err();
        assert!(matches!(error, LeaseError::Minutes(value) if value == bad));
        assert!(error.to_string().contains("between 1 and 1440 minutes"));
    }
    assert_eq!(LeaseMinutes::new(1440).unwrap().seconds(), 86_400);
}

#[test]
fn editing_removing_or_recreating_target_yaml_ends_the_lease_of_a_running_server() {
    let root = kubectl_root();
    // The "server": loaded before any of the changes below.
    let server = load(&root);
    let store = LeaseStore::new(kubectl(&server));
    store
        .activate(
            target(&server, "dev"),
            minutes(30),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    assert!(status(&server, "dev", NOW).is_active());

    let file = "providers/kubectl/targets/dev/target.yaml";
    let edited = DEV_TARGET.replace("ctx-a", "ctx-prod");
    root.write(file, &edited);
    assert_eq!(status(&server, "dev", NOW), LeaseStatus::BindingChanged);

    // Byte-identical again: it is the granted binding again.
    root.write(file, DEV_TARGET);
    assert!(status(&server, "dev", NOW).is_active());

    std::fs::remove_file(root.path().join(file)).unwrap();
    assert_eq!(status(&server, "dev", NOW), LeaseStatus::BindingChanged);

    // Recreated with another binding, then activated by a fresh control plane: the lease is
    // for the new file, which the running server has not loaded, so the server still refuses
    // (it would run with the old binding) while a restarted one accepts.
    root.write(file, &edited);
    let restarted = load(&root);
    LeaseStore::new(kubectl(&restarted))
        .activate(
            target(&restarted, "dev"),
            minutes(30),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    assert_eq!(status(&server, "dev", NOW), LeaseStatus::BindingChanged);
    assert!(status(&restarted, "dev", NOW).is_active());
}

#[test]
fn the_lease_binds_the_digest_of_the_loaded_target_yaml() {
    let root = kubectl_root();
    let registry = load(&root);
    let dev = target(&registry, "dev");
    let state = LeaseStore::new(kubectl(&registry))
        .activate(dev, minutes(2), Activation::Replace, NOW)
        .unwrap();
    let entry = state.entry("dev").unwrap();
    assert_eq!(entry.binding_sha256(), dev.binding_digest());
    assert_eq!(
        dev.current_binding_digest().unwrap().as_deref(),
        Some(dev.binding_digest())
    );
    assert_eq!(entry.expires_at(), NOW + 120);
}

#[test]
fn a_decision_made_on_an_older_revision_is_not_applied() {
    let root = kubectl_root();
    let registry = load(&root);
    let store = LeaseStore::new(kubectl(&registry));
    let dev = LeaseEntry::grant(target(&registry, "dev"), minutes(30), NOW);
    let hml = LeaseEntry::grant(target(&registry, "hml"), minutes(30), NOW);

    // A window opens on revision 0; meanwhile the human activates hml from the CLI.
    let seen = store.read().unwrap();
    store
        .activate(
            target(&registry, "hml"),
            minutes(30),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    let written = std::fs::read(root.path().join(STATE)).unwrap();
    for change in [
        Change::Replace(dev.clone()),
        Change::Add(dev.clone()),
        Change::Revoke {
            alias: "hml".into(),
        },
    ] {
        let error = store.apply(seen.revision(), &change, NOW).unwrap_err();
        assert!(
            matches!(
                error,
                LeaseError::Stale {
                    expected_revision: 0,
                    current_revision: 1
                }
            ),
            "{error}"
        );
        assert_eq!(std::fs::read(root.path().join(STATE)).unwrap(), written);
    }

    // A window opened before `clear` can never restore a lease after it.
    let seen = store.read().unwrap();
    store.clear().unwrap();
    let error = store
        .apply(seen.revision(), &Change::Add(hml.clone()), NOW)
        .unwrap_err();
    assert!(matches!(error, LeaseError::Stale { .. }), "{error}");
    assert_eq!(status(&registry, "hml", NOW), LeaseStatus::Inactive);

    // On the current revision the decision applies.
    let current = store.read().unwrap();
    let state = store
        .apply(current.revision(), &Change::Add(dev), NOW)
        .unwrap();
    assert_eq!(state.revision(), current.revision() + 1);
    assert!(status(&registry, "dev", NOW).is_active());
}

#[test]
fn a_target_of_another_provider_is_refused() {
    let root = kubectl_root();
    root.write(
        "providers/k8s-b/provider.yaml",
        "version: \"1\"\nname: k8s-b\ntool: k8s_b\ndescription: Another.\n\
         command: kubectl\ntargeting:\n  mode: kubectl_context\n",
    );
    // Byte-identical target.yaml under another provider.
    root.write("providers/k8s-b/targets/dev/target.yaml", DEV_TARGET);
    let registry = load(&root);
    let other = registry.by_tool("k8s_b").unwrap().target("dev").unwrap();
    let store = LeaseStore::new(kubectl(&registry));
    store
        .activate(
            target(&registry, "dev"),
            minutes(30),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    for error in [
        store.check(other, NOW).unwrap_err(),
        store
            .activate(other, minutes(30), Activation::Add, NOW)
            .unwrap_err(),
    ] {
        assert!(matches!(error, LeaseError::ForeignTarget { .. }), "{error}");
    }
}

#[test]
fn a_corrupt_state_file_fails_closed_until_cleared() {
    let root = kubectl_root();
    let registry = load(&root);
    let store = LeaseStore::new(kubectl(&registry));
    store
        .activate(
            target(&registry, "dev"),
            minutes(30),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    let valid = std::fs::read_to_string(root.path().join(STATE)).unwrap();
    for corrupt in [
        String::new(),
        valid.replace("version: \"1\"", "version: \"3\""),
        valid.replace("binding_sha256: \"", "binding_sha256: \"x"),
        valid.replace("entries:", "entries:\n  oops"),
        format!("{valid}extra: true\n"),
        valid[..valid.len() / 2].to_string(),
    ] {
        root.write(STATE, &corrupt);
        let error = store.check(target(&registry, "dev"), NOW).unwrap_err();
        let message = error.to_string();
        assert!(matches!(error, LeaseError::Corrupt { .. }), "{message}");
        assert!(message.contains(STATE), "{message}");
        assert!(message.contains("torii target clear kubectl"), "{message}");
        let change = Change::Add(LeaseEntry::grant(target(&registry, "hml"), minutes(1), NOW));
        assert!(matches!(
            store.apply(0, &change, NOW),
            Err(LeaseError::Corrupt { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(root.path().join(STATE)).unwrap(),
            corrupt,
            "a refused write leaves the file as it was"
        );
    }
    store.clear().unwrap();
    assert_eq!(status(&registry, "dev", NOW), LeaseStatus::Inactive);
}

/// Every file under the root except the lease state and the audit log and its chain head,
/// with its bytes.
pub fn snapshot_except_leases(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, files: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
            } else if !path.ends_with(".target-authorizations.yaml")
                && !path.ends_with("torii.log")
                && !path.ends_with(".audit-chain")
            {
                files.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(root, &mut files);
    files
}

#[test]
fn clear_rewrites_a_corrupt_file_and_touches_nothing_else() {
    let root = kubectl_root();
    let registry = load(&root);
    let store = LeaseStore::new(kubectl(&registry));
    store
        .activate(
            target(&registry, "dev"),
            minutes(30),
            Activation::Replace,
            NOW,
        )
        .unwrap();
    root.write(STATE, "version: \"1\"\nrevision: [\u{0}garbage");
    let before = snapshot_except_leases(root.path());
    assert!(before.keys().any(|path| path.ends_with("credentials.env")));

    let cleared = store.clear().unwrap();
    assert!(cleared.entries().is_empty());
    assert_eq!(store.read().unwrap(), cleared);
    assert_eq!(snapshot_except_leases(root.path()), before);
}

// ---------------------------------------------------------------------------------------
// Separate OS processes: a race between two writers, and writers killed with SIGKILL.

/// A `lease-worker` of `torii-test-probe` (`tests/probe/lease_worker.rs`) on `root`.
fn spawn_worker(mode: &str, root: &Path, operations: u64, log: &Path) -> Child {
    Command::new(crate::common::probe_exe())
        .arg("lease-worker")
        .arg(mode)
        .arg(root)
        .arg(operations.to_string())
        .arg(log)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

/// The `(kind, revision)` lines both workers logged.
fn logged_writes(logs: &[PathBuf]) -> Vec<(String, u64)> {
    let mut writes = Vec::new();
    for log in logs {
        for line in std::fs::read_to_string(log).unwrap().lines() {
            let (kind, revision) = line.split_once(' ').unwrap();
            writes.push((kind.to_string(), revision.parse().unwrap()));
        }
    }
    writes.sort_by_key(|(_, revision)| *revision);
    writes
}

/// Runs two workers against one root while this process keeps reading the state: every
/// read must decode and revisions must never go back.
fn race(mode: &str, operations: u64) -> (Root, Vec<(String, u64)>) {
    let root = kubectl_root();
    let logs: Vec<PathBuf> = (0..2)
        .map(|index| root.path().join(format!("worker-{index}.log")))
        .collect();
    let mut workers: Vec<Child> = logs
        .iter()
        .map(|log| spawn_worker(mode, root.path(), operations, log))
        .collect();
    let registry = load(&root);
    let store = LeaseStore::new(kubectl(&registry));
    let mut last_revision = 0;
    let mut reads = 0;
    while workers
        .iter_mut()
        .any(|worker| worker.try_wait().unwrap().is_none())
    {
        let state = store.read().unwrap();
        assert!(state.revision() >= last_revision, "the revision went back");
        last_revision = state.revision();
        reads += 1;
    }
    for worker in &mut workers {
        assert!(worker.wait().unwrap().success(), "a worker failed");
    }
    assert!(reads > 0);
    let writes = logged_writes(&logs);
    (root, writes)
}

#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn two_processes_hammering_activate_and_cas_lose_no_update() {
    let (root, writes) = race("race", 1000);
    let final_revision = LeaseStore::new(kubectl(&load(&root)))
        .read()
        .unwrap()
        .revision();
    // Every write read revision r under the lock and wrote r + 1: no two writes share a
    // revision, so the final revision is exactly the number of successful writes.
    let revisions: Vec<u64> = writes.iter().map(|(_, revision)| *revision).collect();
    let expected: Vec<u64> = (1..=writes.len() as u64).collect();
    assert_eq!(revisions, expected);
    assert_eq!(final_revision, writes.len() as u64);
    assert!(writes.len() > 1000, "only {} writes", writes.len());
}

#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn two_processes_racing_with_clear_lose_no_update() {
    let (root, writes) = race("race-with-clear", 1000);
    // Each write's revision is unique; a non-clear write follows the write before it by
    // exactly one, and a clear jumps strictly above it.
    for pair in writes.windows(2) {
        let [(_, before), (kind, after)] = pair else {
            unreachable!()
        };
        if kind == "clear" {
            assert!(after > before, "{pair:?}");
        } else {
            assert_eq!(*after, before + 1, "lost update: {pair:?}");
        }
    }
    assert!(writes.iter().any(|(kind, _)| kind == "clear"));
    let state = LeaseStore::new(kubectl(&load(&root))).read().unwrap();
    assert_eq!(state.revision(), writes.last().unwrap().1);
}

#[test]
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
fn kill_9_during_writes_never_leaves_a_partial_file() {
    let root = kubectl_root();
    let registry = load(&root);
    let store = LeaseStore::new(kubectl(&registry));
    let log = root.path().join("unused.log");
    let mut random = XorShift::new(seed());
    let mut last_revision = 0;
    for _ in 0..25 {
        let mut worker = spawn_worker("forever", root.path(), 0, &log);
        // Wait until it writes (the test binary takes a moment to start), then kill it at a
        // random point of its write loop.
        let started = Instant::now();
        while store.read().unwrap().revision() == last_revision {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the worker never wrote"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(random.below(40)));
        worker.kill().unwrap(); // SIGKILL
        worker.wait().unwrap();

        // Whole and decodable, whatever the moment of death.
        let state = store.read().unwrap();
        assert!(state.revision() > last_revision);
        // The OS released the dead writer's lock: this write goes through at once.
        last_revision = store.revoke("none", NOW).unwrap().revision();
    }
}

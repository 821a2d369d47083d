//! Authorization before authentication, proven by the kernel: an inotify watch on the provider
//! directories sees every file the server opens. On explicit-deny and headless-deny paths,
//! neither `.env` nor anything under `identities/` may be opened (book: "Regressões
//! prioritárias", credentials not loaded on the denied path).
#![cfg(target_os = "linux")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use inotify::{Inotify, WatchDescriptor, WatchMask};
use serde_json::json;

use crate::common::{FakeCli, Root, install_provider, simple_provider};
use crate::mcp_client;

struct Watch {
    inotify: Inotify,
    dirs: Vec<(WatchDescriptor, PathBuf)>,
}

impl Watch {
    fn new(dirs: &[PathBuf]) -> Self {
        let inotify = Inotify::init().unwrap();
        let mask = WatchMask::OPEN | WatchMask::ACCESS;
        let dirs = dirs
            .iter()
            .map(|dir| (inotify.watches().add(dir, mask).unwrap(), dir.clone()))
            .collect();
        Self { inotify, dirs }
    }

    /// Paths opened or read since the last call (a directory itself shows as the directory).
    fn touched(&mut self) -> BTreeSet<PathBuf> {
        let mut buffer = [0u8; 8192];
        let mut seen = BTreeSet::new();
        loop {
            let events = match self.inotify.read_events(&mut buffer) {
                Ok(events) => events,
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(error) => panic!("inotify: {error}"),
            };
            let mut any = false;
            for event in events {
                any = true;
                let dir = &self.dirs.iter().find(|(wd, _)| *wd == event.wd).unwrap().1;
                seen.insert(match event.name {
                    Some(name) => dir.join(name),
                    None => dir.clone(),
                });
            }
            if !any {
                break;
            }
        }
        seen
    }
}

fn secret_paths(touched: &BTreeSet<PathBuf>) -> Vec<&PathBuf> {
    touched
        .iter()
        .filter(|path| {
            let name = path
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or("");
            name == ".env"
                || path
                    .components()
                    .any(|part| part.as_os_str() == "identities")
        })
        .collect()
}

fn prepare_secrets(root: &Root, provider_dir: &str) -> Vec<PathBuf> {
    root.write(&format!("{provider_dir}/.env"), "TOKEN_HINT=\"x\"\n");
    root.write(
        &format!("{provider_dir}/identities/cli/.session-cache"),
        "1\n",
    );
    root.write(
        &format!("{provider_dir}/identities/cli/.identity-cache"),
        "1 x\n",
    );
    root.write(
        &format!("{provider_dir}/identities/cli/auth/credentials.env"),
        "SECRET=\"s\"\n",
    );
    let base = root.path().join(provider_dir);
    vec![
        base.clone(),
        base.join("identities"),
        base.join("identities/cli"),
        base.join("identities/cli/auth"),
    ]
}

#[tokio::test]
async fn denied_paths_never_open_env_or_identities() {
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", ""),
        "version: \"1\"\ndeny: [\"rm\"]\naccept: [\"ls\", \"rm\"]\n",
    );
    let mut dirs = prepare_secrets(&root, "providers/cli");
    // A target-aware provider whose alias has its own .env.
    install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\ndeny: [\"exec\"]\naccept: [\"get\"]\n",
    );
    root.write(
        "providers/kube/targets/lab/target.yaml",
        "version: \"1\"\nname: lab\ncontext: c\nidentity:\n  provider: cli\n",
    );
    root.write("providers/kube/targets/lab/.env", "A=\"b\"\n");
    root.write("providers/kube/.env", "A=\"b\"\n");
    dirs.push(root.path().join("providers/kube"));
    dirs.push(root.path().join("providers/kube/targets/lab"));
    let fake = FakeCli::new(&root, "cli", "echo ran");
    FakeCli::new(&root, "kube", "echo ran");

    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let mut watch = Watch::new(&dirs);

    let (denied, _) = client
        .call("cli", json!({"args": ["rm", "-rf", "/"]}))
        .await;
    assert_eq!(denied["decision"]["source"], "explicit-deny");
    let (headless, _) = client.call("cli", json!({"args": ["describe"]})).await;
    assert_eq!(headless["decision"]["source"], "human-deny");
    let (target_deny, _) = client
        .call("kube", json!({"target": "lab", "args": ["exec", "x"]}))
        .await;
    assert_eq!(target_deny["decision"]["source"], "explicit-deny");
    let (inactive, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(inactive["decision"]["source"], "human-deny");

    let touched = watch.touched();
    assert!(
        secret_paths(&touched).is_empty(),
        "denied paths opened {:?}",
        secret_paths(&touched)
    );
    // The watch does see what the server reads: the policy files.
    assert!(
        touched.contains(&root.path().join("providers/cli/rules.yaml")),
        "{touched:?}"
    );

    // Control: an allowed call does read .env, so the assertion above can fail.
    let (allowed, _) = client.call("cli", json!({"args": ["ls"]})).await;
    assert_eq!(allowed["execution"]["exit_code"], 0);
    let touched = watch.touched();
    assert!(
        touched.contains(&root.path().join("providers/cli/.env")),
        "{touched:?}"
    );
    client.close().await;
    assert!(Path::new(&fake.calls).exists());
}

/// The book: `torii_policy` reads policy only. Watched by the kernel during the calls, it opens
/// no `.env`, session, credential or cache file, no grants and no lease file, of a plain
/// provider or of a target-aware one (with and without its alias).
#[tokio::test]
async fn torii_policy_opens_no_env_session_credential_cache_grants_or_lease_file() {
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", ""),
        "version: \"1\"\naccept: [\"ls\"]\n",
    );
    let mut dirs = prepare_secrets(&root, "providers/cli");
    root.write("providers/cli/grants", "version: \"2\"\nentries: []\n");
    install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\naccept: [\"get\"]\n",
    );
    root.write(
        "providers/kube/targets/lab/target.yaml",
        "version: \"1\"\nname: lab\ncontext: c\nidentity:\n  provider: cli\n",
    );
    root.write("providers/kube/targets/lab/rules.yaml", "version: \"1\"\n");
    root.write("providers/kube/targets/lab/.env", "A=\"b\"\n");
    root.write(
        "providers/kube/targets/lab/grants",
        "version: \"2\"\nentries: []\n",
    );
    root.write("providers/kube/.env", "A=\"b\"\n");
    root.write("providers/kube/.target-authorizations.lock", "");
    // A lease written the way Torii writes one, through its own store.
    let registry = torii::registry::Registry::load(root.path()).unwrap();
    let kube = registry.by_tool("kube").unwrap();
    torii::leases::LeaseStore::new(kube)
        .activate(
            kube.target("lab").unwrap(),
            torii::leases::LeaseMinutes::new(30).unwrap(),
            torii::leases::Activation::Replace,
            torii::leases::unix_now().unwrap(),
        )
        .unwrap();
    dirs.push(root.path().join("providers/kube"));
    dirs.push(root.path().join("providers/kube/targets/lab"));
    let fake = FakeCli::new(&root, "cli", "echo ran");

    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let mut watch = Watch::new(&dirs);
    for arguments in [
        json!({"provider": "cli"}),
        json!({"provider": "kube"}),
        json!({"provider": "kube", "target": "lab"}),
    ] {
        let (view, is_error) = client.call("torii_policy", arguments.clone()).await;
        assert!(!is_error, "{arguments}: {view}");
    }
    let touched = watch.touched();
    let forbidden: Vec<&PathBuf> = touched
        .iter()
        .filter(|path| {
            let name = path
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or("");
            name == ".env"
                || name == "grants"
                || name.starts_with(".target-authorizations")
                || path
                    .components()
                    .any(|part| part.as_os_str() == "identities")
        })
        .collect();
    assert!(forbidden.is_empty(), "torii_policy opened {forbidden:?}");
    // The watch does see what torii_policy reads: the rules.
    assert!(
        touched.contains(&root.path().join("providers/kube/targets/lab/rules.yaml")),
        "{touched:?}"
    );
    client.close().await;
    assert!(
        !Path::new(&fake.calls).exists(),
        "torii_policy launched the CLI"
    );
}

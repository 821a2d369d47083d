//! Provider packages through the real binary: install from a directory and from archives,
//! the lock and `provider list`, refusals that leave nothing behind, setup as the only writer
//! of rules, upgrade leaving operator state byte-identical, and the catalog over a local path
//! and over HTTPS on loopback.

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::common::Root;
use crate::pack::{example, files, gzip, names, serve_https, sha256, snapshot, tar_of, zip_of};

const EMPTY_RULES_LINES: [&str; 3] = ["version: \"1.0\"", "deny: []", "accept: []"];

fn providers(root: &Root) -> PathBuf {
    root.path().join("providers")
}

/// A writable copy of an example package.
fn copy_example(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join(name);
    for (file, bytes) in files(&example(name)) {
        let path = dest.join(&file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    (dir, dest)
}

fn install(root: &Root, source: &Path) -> assert_cmd::assert::Assert {
    root.torii()
        .args(["provider", "install"])
        .arg(source)
        .assert()
}

fn assert_empty_rules(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .collect();
    assert_eq!(lines, EMPTY_RULES_LINES, "{}", path.display());
}

#[test]
fn install_from_a_directory_builds_the_layout_and_the_lock() {
    let root = Root::new();
    install(&root, &example("aws"))
        .success()
        .stdout(format!("{}\n", providers(&root).join("aws").display()))
        .stderr(predicate::str::contains(
            "torii provider setup aws readonly",
        ));
    let dir = providers(&root).join("aws");
    assert_eq!(
        std::fs::read(dir.join("provider.yaml")).unwrap(),
        std::fs::read(example("aws").join("provider.yaml")).unwrap()
    );
    assert_empty_rules(&dir.join("rules.yaml"));
    assert_eq!(
        std::fs::read(dir.join(".env")).unwrap(),
        std::fs::read(example("aws").join("env.example")).unwrap()
    );
    assert_eq!(
        names(&dir.join(".torii-package")),
        ["content", "lock.yaml", "manifest.yaml"]
    );
    assert_eq!(
        files(&dir.join(".torii-package/content")),
        files(&example("aws"))
    );
    let lock = std::fs::read_to_string(dir.join(".torii-package/lock.yaml")).unwrap();
    assert!(lock.contains("package_version: \"0.1.0\""), "{lock}");
    assert!(lock.contains("kind: path"), "{lock}");
    assert!(
        lock.contains(&format!("location: \"{}\"", example("aws").display())),
        "{lock}"
    );
    // Only the installed provider: the staging directory is gone.
    assert_eq!(names(&providers(&root)), ["aws"]);

    root.torii()
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "TOOL  NAME  EXECUTABLE  VERSION  ORIGIN",
        ))
        .stdout(predicate::str::contains(format!(
            "aws   aws   aws         0.1.0    {}  unsigned",
            example("aws").display()
        )));
}

#[test]
fn install_from_zip_tar_and_tgz_with_or_without_a_top_directory() {
    let package = files(&example("kubectl"));
    let cases = [
        ("kubectl.zip", zip_of(&package, "")),
        ("kubectl-dir.zip", zip_of(&package, "kubectl/")),
        ("kubectl.tar", tar_of(&package, "")),
        ("kubectl.tar.gz", gzip(&tar_of(&package, "kubectl-0.1.0/"))),
        ("kubectl.tgz", gzip(&tar_of(&package, "./"))),
    ];
    for (name, bytes) in cases {
        let root = Root::new();
        let archive = root.path().join(name);
        std::fs::write(&archive, &bytes).unwrap();
        install(&root, &archive).success();
        let dir = providers(&root).join("kubectl");
        assert_empty_rules(&dir.join("rules.yaml"));
        assert_eq!(
            files(&dir.join(".torii-package/content")),
            package,
            "{name}"
        );
        let lock = std::fs::read_to_string(dir.join(".torii-package/lock.yaml")).unwrap();
        assert!(
            lock.contains(&format!("sha256: \"{}\"", sha256(&bytes))),
            "{name}: {lock}"
        );
        assert_eq!(names(&providers(&root)), ["kubectl"], "{name}");
    }
}

#[cfg(unix)]
#[test]
fn undeclared_files_are_neither_run_nor_installed() {
    use std::os::unix::fs::PermissionsExt;
    let root = Root::new();
    let (_keep, package) = copy_example("az");
    let marker = root.outside().join("ran");
    let script = package.join("install.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntouch '{}'\n", marker.display()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    install(&root, &package).success();
    assert!(!marker.exists(), "a package script ran");
    let installed = files(&providers(&root).join("az"));
    assert!(
        installed
            .iter()
            .all(|(name, _)| !name.ends_with("install.sh")),
        "{:?}",
        installed.iter().map(|(name, _)| name).collect::<Vec<_>>()
    );
}

#[test]
fn an_existing_destination_is_refused_and_left_alone() {
    let root = Root::new();
    install(&root, &example("aws")).success();
    let before = snapshot(&providers(&root).join("aws"), &[]);
    install(&root, &example("aws"))
        .failure()
        .stderr(predicate::str::contains("already exists"))
        .stderr(predicate::str::contains("torii provider upgrade aws"));
    assert_eq!(snapshot(&providers(&root).join("aws"), &[]), before);
    assert_eq!(names(&providers(&root)), ["aws"]);
}

/// Issue 17, mismatch 9: a failed install into a root that did not exist yet left an empty
/// `providers/` (and the root) behind.
#[test]
fn a_failed_install_into_a_root_that_does_not_exist_leaves_nothing_behind() {
    let root = Root::new();
    let (_keep, package) = copy_example("aws");
    std::fs::remove_file(package.join("manifest.yaml")).unwrap();
    let missing = root.outside().join("new/root");
    for source in [package.as_path(), Path::new("/nonexistent/package")] {
        root.torii()
            .env("TORII_CONFIG_DIR", &missing)
            .args(["provider", "install"])
            .arg(source)
            .assert()
            .failure();
        assert!(!root.outside().join("new").exists(), "{source:?}");
    }
    // The same install that succeeds creates the root it needs.
    root.torii()
        .env("TORII_CONFIG_DIR", &missing)
        .args(["provider", "install"])
        .arg(example("aws"))
        .assert()
        .success();
    assert_eq!(names(&missing.join("providers")), ["aws"]);
}

#[test]
fn a_package_whose_base_rules_are_not_empty_is_refused_whole() {
    let root = Root::new();
    let (_keep, package) = copy_example("aws");
    std::fs::write(
        package.join("rules.yaml"),
        "version: \"1.0\"\ndeny: []\naccept: [\"s3 ls\"]\n",
    )
    .unwrap();
    install(&root, &package)
        .failure()
        .stderr(predicate::str::contains(format!(
            "rules.yaml in {}: a package's base rules must have empty `deny` and `accept`, found 0 deny and 1 accept",
            package.display()
        )));
    assert!(names(&providers(&root)).is_empty());
}

#[test]
fn a_name_or_tool_already_installed_elsewhere_is_refused() {
    let root = Root::new();
    install(&root, &example("aws")).success();
    let (_keep, package) = copy_example("aws");
    for file in ["manifest.yaml", "provider.yaml"] {
        let path = package.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("name: aws\n", "name: aws-two\n")).unwrap();
    }
    install(&root, &package)
        .failure()
        .stderr(predicate::str::contains(
            "field `tool`: \"aws\" is already used by",
        ));
    assert_eq!(names(&providers(&root)), ["aws"]);
}

#[test]
fn invalid_packages_name_the_file_and_the_field() {
    let cases: [(&str, &str, &str, &str); 8] = [
        (
            "manifest.yaml",
            "kind: readonly",
            "kind: admin",
            "manifest.yaml in",
        ),
        (
            "manifest.yaml",
            "package_version: \"0.1.0\"",
            "package_version: \"0 1\"",
            "field `package_version`",
        ),
        (
            "manifest.yaml",
            "name: snow\n",
            "name: snowflake\n",
            "field `name`: \"snowflake\" must equal the provider's name \"snow\"",
        ),
        (
            "manifest.yaml",
            "rules: setups/readonly/rules.yaml",
            "rules: setups/missing.yaml",
            "field `setups[0].rules`: \"setups/missing.yaml\" is not in the package",
        ),
        (
            "manifest.yaml",
            "environment: env.example",
            "environment: ../env.example",
            "path traversal",
        ),
        (
            "provider.yaml",
            "tool: snow",
            "tool: torii_policy",
            "provider.yaml in",
        ),
        (
            "setups/readonly/rules.yaml",
            "\"/\\\\bput\\\\b/i\"",
            "\"/(put/i\"",
            "invalid regex",
        ),
        (
            "setups/readonly/rules.yaml",
            "    - [connection, list]",
            "    - [sql, -q, \"select 1\"]",
            "examples fail",
        ),
    ];
    for (file, from, to, expected) in cases {
        let root = Root::new();
        let (_keep, package) = copy_example("snow");
        let path = package.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} lacks {from:?}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        install(&root, &package)
            .failure()
            .stderr(predicate::str::contains(expected));
        assert!(names(&providers(&root)).is_empty(), "{file}: {to}");
    }
}

#[test]
fn sources_resolve_path_then_https_then_catalog() {
    let root = Root::new();
    root.torii()
        .args(["provider", "install", "http://example.org/aws.zip"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "refusing http://example.org/aws.zip: packages and catalogs are only downloaded over https://",
        ));
    root.torii()
        .args(["provider", "install", "./no/such/package.zip"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "\"./no/such/package.zip\" is not an existing path, an https:// URL or a valid catalog name",
        ));
    let index = root.write("catalog/index.yaml", "version: \"1\"\nproviders: []\n");
    root.torii()
        .env("TORII_PROVIDER_CATALOG", &index)
        .args(["provider", "install", "aws"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "\"aws\" is not in the catalog {}",
            index.display()
        )));
    // An existing path wins over a catalog name.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("snow")).unwrap();
    for (file, bytes) in files(&example("snow")) {
        let path = dir.path().join("snow").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    root.torii()
        .current_dir(dir.path())
        .env("TORII_PROVIDER_CATALOG", &index)
        .args(["provider", "install", "snow"])
        .assert()
        .success();
}

/// Issue 35: a release install held only `torii` and the README; the quick start needed
/// `./examples/…` from a checkout and the catalog needed the network. Every official package is
/// built into the binary and installs by name with no network, from a torii alone in its
/// directory.
#[test]
fn every_official_package_installs_offline_from_the_copy_built_into_torii() {
    let root = Root::new();
    let bin = root.outside().join("release/bin");
    std::fs::create_dir_all(&bin).unwrap();
    let torii = bin.join("torii");
    std::fs::copy(assert_cmd::cargo::cargo_bin("torii"), &torii).unwrap();
    let offline = |args: &[&str]| {
        let output = std::process::Command::new(&torii)
            .args(args)
            .env("TORII_CONFIG_DIR", root.path())
            .env("TORII_LANG", "en")
            .env_remove("TORII_PROVIDER_CATALOG")
            // Any download would go through a proxy that is not there.
            .env("HTTPS_PROXY", "http://127.0.0.1:9")
            .env("https_proxy", "http://127.0.0.1:9")
            .current_dir(&bin)
            .output()
            .unwrap();
        assert!(output.status.success(), "torii {args:?}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    // Every package of examples/providers, which is what the binary carries.
    let mut official: Vec<String> = std::fs::read_dir(example("aws").parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    official.sort();
    assert!(official.len() >= 8, "{official:?}");
    let official: Vec<&str> = official.iter().map(String::as_str).collect();
    for &name in &official {
        offline(&["provider", "install", name]);
        let installed = providers(&root).join(name);
        assert_eq!(
            std::fs::read(installed.join("provider.yaml")).unwrap(),
            std::fs::read(example(name).join("provider.yaml")).unwrap(),
            "{name}"
        );
        assert_empty_rules(&installed.join("rules.yaml"));
        let lock = std::fs::read_to_string(installed.join(".torii-package/lock.yaml")).unwrap();
        assert!(lock.contains("kind: built_in"), "{lock}");
    }
    let list = offline(&["provider", "list"]);
    for &name in &official {
        let line = list
            .lines()
            .find(|line| line.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("{name} not listed:\n{list}"));
        assert!(line.contains("built into torii"), "{line}");
    }
    offline(&["provider", "upgrade", "kubectl"]);
    offline(&["provider", "setup", "kubectl", "readonly"]);
}

#[test]
fn setup_writes_the_curated_policy_only_over_an_empty_one() {
    let root = Root::new();
    install(&root, &example("kubectl")).success();
    let rules = providers(&root).join("kubectl/rules.yaml");
    root.torii()
        .args(["provider", "setup", "kubectl", "readonly"])
        .assert()
        .success()
        .stderr(predicate::str::contains("applied setup readonly to"))
        .stderr(predicate::str::contains("6 deny, 5 accept rules"));
    let curated = std::fs::read(example("kubectl").join("setups/readonly/rules.yaml")).unwrap();
    assert_eq!(std::fs::read(&rules).unwrap(), curated);

    // A second setup (or one over any rule or example) is refused and changes nothing.
    for existing in [
        None,
        Some("accept: [\"get pods\"]\n"),
        Some("examples: {denied: [[exec]]}\n"),
    ] {
        if let Some(text) = existing {
            std::fs::write(&rules, text).unwrap();
        }
        let before = std::fs::read(&rules).unwrap();
        root.torii()
            .args(["provider", "setup", "kubectl", "readonly"])
            .assert()
            .failure()
            .stderr(predicate::str::contains("is not empty"))
            .stderr(predicate::str::contains(
                "setup only writes over an empty policy",
            ));
        assert_eq!(std::fs::read(&rules).unwrap(), before);
    }

    // Unparseable rules are not known to be empty.
    std::fs::write(&rules, "deny: [\n").unwrap();
    root.torii()
        .args(["provider", "setup", "kubectl", "readonly"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(rules.display().to_string()));

    root.torii()
        .args(["provider", "setup", "kubectl", "admin"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "package \"kubectl\" has no setup \"admin\" (available: readonly)",
        ));
}

#[test]
fn setup_needs_a_packaged_provider() {
    let root = Root::new();
    root.write(
        "providers/hand/provider.yaml",
        "version: \"1\"\nname: hand\ntool: hand\ndescription: d\ncommand: hand\n",
    );
    root.torii()
        .args(["provider", "setup", "hand", "readonly"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "provider \"hand\" was not installed from a package",
        ));
    root.torii()
        .args(["provider", "upgrade", "hand"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("was not installed from a package"));
    root.torii()
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "hand  hand  hand        local    local",
        ));
}

/// Operator state the upgrade must not rewrite, for a simple and a target-aware provider.
fn write_operator_state(root: &Root) {
    let state: [(&str, &str); 14] = [
        (
            "providers/aws/rules.yaml",
            "deny: [\"ecs execute-command\"]\naccept: [\"s3 ls\"]\n",
        ),
        ("providers/aws/.env", "AWS_REGION=\"eu-west-1\"\n"),
        ("providers/aws/grants", "version: \"2\"\nentries: []\n"),
        (
            "providers/aws/identities/aws/.session-cache",
            "1784000000\n",
        ),
        (
            "providers/aws/identities/aws/.identity-cache",
            "1784000000 111122223333\n",
        ),
        (
            "providers/aws/identities/aws/auth/credentials.env",
            "AWS_SECRET_ACCESS_KEY=\"s\"\n",
        ),
        (
            "providers/aws/identities/lab/auth/credentials.env",
            "AWS_SESSION_TOKEN=\"t\"\n",
        ),
        (
            "providers/kubectl/rules.yaml",
            "deny: [exec]\naccept: [\"get pods\"]\n",
        ),
        (
            "providers/kubectl/.env",
            "KUBECONFIG=\"/home/me/.kube/config\"\n",
        ),
        (
            "providers/kubectl/.target-authorizations.yaml",
            "version: \"1\"\nrevision: 3\n",
        ),
        ("providers/kubectl/.target-authorizations.lock", ""),
        (
            "providers/kubectl/targets/lab/target.yaml",
            "version: \"1\"\nname: lab\ncontext: lab-ctx\nidentity:\n  provider: aws\n",
        ),
        (
            "providers/kubectl/targets/lab/rules.yaml",
            "accept: [logs]\n",
        ),
        (
            "providers/kubectl/targets/lab/grants",
            "version: \"2\"\nentries: []\n",
        ),
    ];
    for (path, text) in state {
        root.write(path, text);
    }
}

fn bump(package: &Path, version: &str, description: &str) {
    let manifest = package.join("manifest.yaml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replace(
            "package_version: \"0.1.0\"",
            &format!("package_version: \"{version}\""),
        ),
    )
    .unwrap();
    let provider = package.join("provider.yaml");
    let text = std::fs::read_to_string(&provider).unwrap();
    let (head, tail) = text.split_once("command:").unwrap();
    let head = head
        .lines()
        .take_while(|line| !line.starts_with("description:"))
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(
        &provider,
        format!("{head}\ndescription: {description}\ncommand:{tail}"),
    )
    .unwrap();
}

#[test]
fn upgrade_replaces_only_provider_yaml_and_package_metadata() {
    let root = Root::new();
    let (_aws_dir, aws) = copy_example("aws");
    let (_kubectl_dir, kubectl) = copy_example("kubectl");
    install(&root, &aws).success();
    install(&root, &kubectl).success();
    write_operator_state(&root);
    let skip = ["provider.yaml", ".torii-package"];
    let aws_before = snapshot(&providers(&root).join("aws"), &skip);
    let kubectl_before = snapshot(&providers(&root).join("kubectl"), &skip);

    bump(&aws, "0.2.0", "AWS CLI, upgraded.");
    bump(&kubectl, "0.2.0", "kubectl, upgraded.");
    for name in ["aws", "kubectl"] {
        root.torii()
            .args(["provider", "upgrade", name])
            .assert()
            .success()
            .stderr(predicate::str::contains(format!(
                "upgraded {name} from 0.1.0 to 0.2.0"
            )));
    }
    assert_eq!(snapshot(&providers(&root).join("aws"), &skip), aws_before);
    assert_eq!(
        snapshot(&providers(&root).join("kubectl"), &skip),
        kubectl_before
    );
    let provider = std::fs::read_to_string(providers(&root).join("aws/provider.yaml")).unwrap();
    assert!(
        provider.contains("description: AWS CLI, upgraded."),
        "{provider}"
    );
    let lock =
        std::fs::read_to_string(providers(&root).join("aws/.torii-package/lock.yaml")).unwrap();
    assert!(lock.contains("package_version: \"0.2.0\""), "{lock}");
    assert_eq!(
        files(&providers(&root).join("kubectl/.torii-package/content")),
        files(&kubectl)
    );
    assert_eq!(names(&providers(&root)), ["aws", "kubectl"]);
    root.torii()
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0.2.0"));
}

#[test]
fn upgrade_refuses_a_package_that_changes_tool_and_changes_nothing() {
    let root = Root::new();
    let (_keep, package) = copy_example("snow");
    install(&root, &package).success();
    let before = snapshot(&providers(&root).join("snow"), &[]);
    let provider = package.join("provider.yaml");
    let text = std::fs::read_to_string(&provider).unwrap();
    std::fs::write(&provider, text.replace("tool: snow", "tool: snowflake")).unwrap();
    root.torii()
        .args(["provider", "upgrade", "snow"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "upgrade would change `tool` from \"snow\" to \"snowflake\"",
        ));
    assert_eq!(snapshot(&providers(&root).join("snow"), &[]), before);
    assert_eq!(names(&providers(&root)), ["snow"]);
}

/// `catalog/index.yaml` listing `aws` at `releases/aws-<version>.zip` with `sha` (or the right one).
fn local_catalog(root: &Root, version: &str, sha: Option<&str>, zip: &[u8]) -> PathBuf {
    std::fs::create_dir_all(root.path().join("catalog/releases")).unwrap();
    std::fs::write(
        root.path()
            .join(format!("catalog/releases/aws-{version}.zip")),
        zip,
    )
    .unwrap();
    let digest = sha.map_or_else(|| sha256(zip), str::to_string);
    root.write(
        "catalog/index.yaml",
        &format!(
            "version: \"1\"\nproviders:\n  - name: aws\n    version: \"{version}\"\n    description: Official AWS provider.\n    source: releases/aws-{version}.zip\n    sha256: {digest}\n  - name: kubectl\n    version: \"0.1.0\"\n    description: Kubernetes through kubectl contexts.\n    source: releases/kubectl.zip\n    sha256: {}\n",
            "0".repeat(64)
        ),
    )
}

#[test]
fn catalog_on_a_local_path_searches_installs_and_upgrades() {
    let root = Root::new();
    let (_keep, package) = copy_example("aws");
    let index = local_catalog(&root, "0.1.0", None, &zip_of(&files(&package), "aws/"));
    root.torii()
        .env("TORII_PROVIDER_CATALOG", &index)
        .args(["provider", "search"])
        .assert()
        .success()
        .stdout(
            "NAME     VERSION  DESCRIPTION\n\
             aws      0.1.0    Official AWS provider.\n\
             kubectl  0.1.0    Kubernetes through kubectl contexts.\n",
        );
    root.torii()
        .env("TORII_PROVIDER_CATALOG", &index)
        .args(["provider", "search", "KUBERNETES"])
        .assert()
        .success()
        .stdout(predicate::str::contains("kubectl").and(predicate::str::contains("aws ").not()));
    root.torii()
        .env("TORII_PROVIDER_CATALOG", &index)
        .args(["provider", "search", "azure"])
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("no providers matching \"azure\""));

    root.torii()
        .env("TORII_PROVIDER_CATALOG", &index)
        .args(["provider", "install", "aws"])
        .assert()
        .success();
    let lock = providers(&root).join("aws/.torii-package/lock.yaml");
    let text = std::fs::read_to_string(&lock).unwrap();
    assert!(text.contains("kind: catalog"), "{text}");
    assert!(text.contains("location: \"aws\""), "{text}");
    assert!(
        text.contains(&format!("catalog: \"{}\"", index.display())),
        "{text}"
    );

    // Upgrade reads the recorded catalog, even without the variable.
    bump(&package, "0.2.0", "AWS, next.");
    local_catalog(&root, "0.2.0", None, &zip_of(&files(&package), ""));
    root.torii()
        .args(["provider", "upgrade", "aws"])
        .assert()
        .success()
        .stderr(predicate::str::contains("from 0.1.0 to 0.2.0"));
}

#[test]
fn a_wrong_sha256_is_refused_before_extraction() {
    let root = Root::new();
    // The artefact is also hostile: had it been extracted, the error would be the traversal.
    let mut package = files(&example("aws"));
    package.push(("../escaped.txt".to_string(), b"x".to_vec()));
    let index = local_catalog(
        &root,
        "0.1.0",
        Some(&"ab".repeat(32)),
        &zip_of(&package, ""),
    );
    root.torii()
        .env("TORII_PROVIDER_CATALOG", &index)
        .args(["provider", "install", "aws"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "sha256 mismatch for {}: the catalog lists {}",
            root.path().join("catalog/releases/aws-0.1.0.zip").display(),
            "ab".repeat(32)
        )))
        .stderr(predicate::str::contains("nothing was extracted"));
    assert!(names(&providers(&root)).is_empty());
    assert!(!root.path().join("providers/escaped.txt").exists());
}

#[test]
fn catalog_and_packages_over_https_with_a_ca_trusted_only_by_the_test() {
    let zip = zip_of(&files(&example("snow")), "snow/");
    let index = format!(
        "version: \"1\"\nproviders:\n  - name: snow\n    version: \"0.1.0\"\n    description: Snowflake CLI.\n    source: releases/snow.zip\n    sha256: {}\n",
        sha256(&zip)
    );
    let server = serve_https(vec![
        ("/catalog/index.yaml".into(), index.into_bytes()),
        ("/catalog/releases/snow.zip".into(), zip.clone()),
        ("/direct/snow.zip".into(), zip),
    ]);
    let root = Root::new();
    let ca = root.write("test-ca.pem", &server.ca_pem);
    let catalog = format!("{}/catalog/index.yaml", server.base);
    let torii = || {
        let mut command = root.torii();
        for proxy in ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"] {
            command.env_remove(proxy);
        }
        command.env("TORII_PROVIDER_CATALOG", &catalog);
        command
    };

    // Without the test's CA the server is not trusted.
    torii()
        .args(["provider", "search"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "cannot download {catalog}"
        )))
        .stderr(predicate::str::contains("invalid peer certificate"));

    torii()
        .env("TORII_EXTRA_CA_FILE", &ca)
        .args(["provider", "search", "snow"])
        .assert()
        .success()
        .stdout(predicate::str::contains("snow  0.1.0    Snowflake CLI."));
    torii()
        .env("TORII_EXTRA_CA_FILE", &ca)
        .args(["provider", "install", "snow"])
        .assert()
        .success();
    let lock =
        std::fs::read_to_string(providers(&root).join("snow/.torii-package/lock.yaml")).unwrap();
    assert!(lock.contains(&format!("catalog: \"{catalog}\"")), "{lock}");

    // A direct URL, into another root.
    let other = Root::new();
    let mut command = other.torii();
    command
        .env("TORII_EXTRA_CA_FILE", &ca)
        .args(["provider", "install"])
        .arg(format!("{}/direct/snow.zip", server.base))
        .assert()
        .success();
    let lock =
        std::fs::read_to_string(other.path().join("providers/snow/.torii-package/lock.yaml"))
            .unwrap();
    assert!(lock.contains("kind: url"), "{lock}");

    // A missing artefact is a clear error.
    Root::new()
        .torii()
        .env("TORII_EXTRA_CA_FILE", &ca)
        .args(["provider", "install"])
        .arg(format!("{}/direct/missing.zip", server.base))
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "the server answered 404 Not Found",
        ));
}

/// The book: without `TORII_PROVIDER_CATALOG`, `provider search` reads the official index at
/// raw.githubusercontent.com. Never reached here: the request goes to a closed loopback proxy,
/// and the error names the address it was for.
#[test]
fn the_official_catalog_is_the_default() {
    let root = Root::new();
    root.torii()
        .args(["provider", "search", "aws"])
        .env_remove("TORII_PROVIDER_CATALOG")
        .env("HTTPS_PROXY", "http://127.0.0.1:9")
        .env("https_proxy", "http://127.0.0.1:9")
        .env("NO_PROXY", "")
        .env("no_proxy", "")
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "cannot download https://raw.githubusercontent.com/torii-mcp/torii-canon-providers/main/index.yaml",
        ));
}

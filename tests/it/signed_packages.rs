//! Issue 40: signed catalogs and packages through the real binary, over HTTPS on loopback and
//! from local archives. The official catalog is built by `scripts/package-providers.py` and
//! signed by `scripts/sign-release.py` with the release key, as the release workflow does; a
//! third party's package with a key the human lists in `settings.yaml`.
//!
//! Refused, with nothing installed: a catalog whose archive and index were both replaced (the
//! genuine signature kept), a signature by an unknown key, a cut signature, an unsigned source
//! under `unsigned_packages: refuse`, and the upgrade of a signed package to an unsigned one.

use std::path::{Path, PathBuf};
use std::process::Command;

use predicates::prelude::*;

use crate::common::Root;
use crate::pack::{example, files, serve_https, sha256, zip_of};
use crate::self_upgrade::{ReleaseKey, trusted_key};

/// The official packages and their catalog, as a release publishes them (unsigned).
fn official_catalog() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("torii-official-catalog-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap()
            .keep();
        let output = Command::new(crate::python_sdk::test_python())
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/package-providers.py"))
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        dir
    })
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

fn key_id(public: &str) -> String {
    torii::signature::PublicKey::parse(public)
        .unwrap()
        .id()
        .to_string()
}

/// `torii` for `root`, trusting the test's release key and the server's CA, with
/// `TORII_PROVIDER_CATALOG` set to `catalog` when given.
fn torii(root: &Root, ca: &Path, catalog: Option<&str>) -> assert_cmd::Command {
    let mut command = root.torii();
    for proxy in ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"] {
        command.env_remove(proxy);
    }
    command
        .env("TORII_TEST_RELEASE_KEY", &trusted_key().public)
        .env("TORII_EXTRA_CA_FILE", ca);
    match catalog {
        Some(catalog) => command.env("TORII_PROVIDER_CATALOG", catalog),
        None => command.env_remove("TORII_PROVIDER_CATALOG"),
    };
    command
}

fn lock(root: &Root, name: &str) -> String {
    std::fs::read_to_string(
        root.path()
            .join("providers")
            .join(name)
            .join(".torii-package/lock.yaml"),
    )
    .unwrap()
}

#[test]
#[ignore = "needs the Python venv (PyYAML, cryptography); run by ./scripts/test.sh"]
fn a_signed_catalog_installs_and_a_replaced_or_badly_signed_one_is_refused() {
    let dir = official_catalog();
    let key = trusted_key();
    let index = read(dir, "index.yaml");
    let archive = read(dir, "provider-aws-0.1.0.zip");
    let signature = key.sign("index.yaml", &index);

    // The attacker's aws package, and an index pinning its digest.
    let mut forged_files = files(&example("aws"));
    for (name, bytes) in &mut forged_files {
        if name == "provider.yaml" {
            bytes.extend_from_slice(b"# forged\n");
        }
    }
    let forged = zip_of(&forged_files, "aws/");
    let forged_index = String::from_utf8(index.clone())
        .unwrap()
        .replace(&sha256(&archive), &sha256(&forged))
        .into_bytes();
    let stranger = ReleaseKey::new(Path::new(env!("CARGO_TARGET_TMPDIR")));
    let cut = signature[..signature.len() - 30].to_vec();

    let mut served = Vec::new();
    let mut catalog = |case: &str, index: &[u8], archive: &[u8], signature: Option<&[u8]>| {
        served.push((format!("/{case}/index.yaml"), index.to_vec()));
        served.push((format!("/{case}/provider-aws-0.1.0.zip"), archive.to_vec()));
        if let Some(signature) = signature {
            served.push((format!("/{case}/index.yaml.minisig"), signature.to_vec()));
        }
    };
    catalog("genuine", &index, &archive, Some(&signature));
    catalog("replaced", &forged_index, &forged, Some(&signature));
    catalog(
        "stranger",
        &forged_index,
        &forged,
        Some(&stranger.sign("index.yaml", &forged_index)),
    );
    catalog("cut", &index, &archive, Some(&cut));
    catalog("unsigned", &index, &archive, None);
    let server = serve_https(served);
    let url = |case: &str| format!("{}/{case}/index.yaml", server.base);

    let root = Root::new();
    let ca = root.write("test-ca.pem", &server.ca_pem);
    torii(&root, &ca, Some(&url("genuine")))
        .args(["provider", "install", "aws"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "signed by key {}, which this torii trusts",
            key_id(&key.public)
        )));
    assert!(
        lock(&root, "aws").contains(&format!("signed_by: \"{}\"", key_id(&key.public))),
        "{}",
        lock(&root, "aws")
    );
    torii(&root, &ca, None)
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "key {}",
            key_id(&key.public)
        )));
    torii(&root, &ca, Some(&url("genuine")))
        .args(["provider", "search", "aws"])
        .assert()
        .success()
        .stderr(predicate::str::contains("is not signed").not());

    for (case, expected) in [
        (
            "replaced",
            format!(
                "{}.minisig does not match {} (key {})",
                url("replaced"),
                url("replaced"),
                key_id(&key.public)
            ),
        ),
        (
            "stranger",
            format!(
                "is signed by key {}, which this torii does not trust",
                key_id(&stranger.public)
            ),
        ),
        ("cut", "is not a minisign signature".to_string()),
    ] {
        let fresh = Root::new();
        torii(&fresh, &ca, Some(&url(case)))
            .args(["provider", "install", "aws"])
            .assert()
            .failure()
            .stderr(predicate::str::contains(&expected))
            .stderr(predicate::str::contains("Nothing was changed"));
        assert!(
            !fresh.path().join("providers/aws").exists(),
            "{case}: installed"
        );
        // Search refuses the same catalog: what it lists could not be installed.
        torii(&fresh, &ca, Some(&url(case)))
            .args(["provider", "search"])
            .assert()
            .failure()
            .stderr(predicate::str::contains(&expected));
    }

    // No signature: installed and shown unsigned by default, refused when the human says so.
    let fresh = Root::new();
    torii(&fresh, &ca, Some(&url("unsigned")))
        .args(["provider", "search", "aws"])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "{} is not signed",
            url("unsigned")
        )));
    torii(&fresh, &ca, Some(&url("unsigned")))
        .args(["provider", "install", "aws"])
        .assert()
        .success()
        .stderr(predicate::str::contains("not signed;"));
    assert!(!lock(&fresh, "aws").contains("signed_by"));
    torii(&fresh, &ca, None)
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout(
            predicate::str::is_match(r"aws\s+aws\s+aws\s+0\.1\.0\s+catalog \S+\s+unsigned")
                .unwrap(),
        );
    torii(&fresh, &ca, None)
        .arg("doctor")
        .assert()
        .stdout(predicate::str::contains("aws: package 0.1.0 from catalog"))
        .stdout(predicate::str::contains("is not signed"));
    let strict = Root::new();
    strict.write("settings.yaml", "unsigned_packages: refuse\n");
    torii(&strict, &ca, Some(&url("unsigned")))
        .args(["provider", "install", "aws"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "{}/unsigned/provider-aws-0.1.0.zip, listed by the unsigned catalog {}, carries no signature, and {} refuses unsigned packages",
            server.base,
            url("unsigned"),
            strict.path().join("settings.yaml").display()
        )));
    assert!(!strict.path().join("providers/aws").exists());
    // The administrator's layer locks the setting, whatever the user's file says, and the
    // refusal names the administrator's file: changing the user's would change nothing.
    let admin = tempfile::tempdir().unwrap();
    std::fs::write(
        admin.path().join("settings.yaml"),
        "unsigned_packages: refuse\n",
    )
    .unwrap();
    let user = Root::new();
    user.write("settings.yaml", "unsigned_packages: allow\n");
    torii(&user, &ca, Some(&url("unsigned")))
        .env("TORII_TEST_ADMIN_DIR", admin.path())
        .args(["provider", "install", "aws"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "and {} refuses unsigned packages",
            admin.path().join("settings.yaml").display()
        )));
    assert!(!user.path().join("providers/aws").exists());
    // The official catalog, signed, passes the strict setting.
    torii(&strict, &ca, Some(&url("genuine")))
        .args(["provider", "install", "aws"])
        .assert()
        .success();
}

/// A third party's package by URL and from a local archive, signed with a key the human lists
/// in `settings.yaml`; its upgrade must stay signed.
#[test]
#[ignore = "needs the Python venv (cryptography); run by ./scripts/test.sh"]
fn a_package_signed_by_a_key_in_settings_installs_by_url_and_upgrades_only_signed() {
    let publisher = ReleaseKey::new(Path::new(env!("CARGO_TARGET_TMPDIR")));
    let archive = zip_of(&files(&example("kubectl")), "kubectl/");
    let signature = publisher.sign("kubectl.zip", &archive);
    let cut = signature[..signature.len() / 2].to_vec();
    let stranger = ReleaseKey::new(Path::new(env!("CARGO_TARGET_TMPDIR")));
    let mut replaced_files = files(&example("kubectl"));
    replaced_files.push(("extra.txt".to_string(), b"forged".to_vec()));
    let replaced = zip_of(&replaced_files, "kubectl/");
    let server = serve_https(vec![
        ("/genuine/kubectl.zip".into(), archive.clone()),
        ("/genuine/kubectl.zip.minisig".into(), signature.clone()),
        ("/replaced/kubectl.zip".into(), replaced.clone()),
        ("/replaced/kubectl.zip.minisig".into(), signature.clone()),
        ("/stranger/kubectl.zip".into(), archive.clone()),
        (
            "/stranger/kubectl.zip.minisig".into(),
            stranger.sign("kubectl.zip", &archive),
        ),
        ("/cut/kubectl.zip".into(), archive.clone()),
        ("/cut/kubectl.zip.minisig".into(), cut),
        ("/unsigned/kubectl.zip".into(), archive.clone()),
    ]);
    let settings = format!("package_keys:\n  - {}\n", publisher.public);
    let url = |case: &str| format!("{}/{case}/kubectl.zip", server.base);

    // Not yet trusted: the publisher's key is unknown.
    let root = Root::new();
    let ca = root.write("test-ca.pem", &server.ca_pem);
    torii(&root, &ca, None)
        .args(["provider", "install", &url("genuine")])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "is signed by key {}, which this torii does not trust; if you trust its publisher, add their public key to package_keys in {}",
            key_id(&publisher.public),
            root.path().join("settings.yaml").display()
        )));
    // Where the administrator's layer locks the keys, adding one to the user's file would
    // change nothing: the refusal names the administrator's file.
    let admin = tempfile::tempdir().unwrap();
    std::fs::write(admin.path().join("settings.yaml"), "package_keys: []\n").unwrap();
    torii(&root, &ca, None)
        .env("TORII_TEST_ADMIN_DIR", admin.path())
        .args(["provider", "install", &url("genuine")])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "add their public key to package_keys in {}",
            admin.path().join("settings.yaml").display()
        )));
    root.write("settings.yaml", &settings);
    torii(&root, &ca, None)
        .args(["provider", "install", &url("genuine")])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "signed by key {}",
            key_id(&publisher.public)
        )));
    for (case, expected) in [
        ("replaced", "does not match".to_string()),
        (
            "stranger",
            format!(
                "is signed by key {}, which this torii does not trust",
                key_id(&stranger.public)
            ),
        ),
        ("cut", "is not a minisign signature".to_string()),
    ] {
        let fresh = Root::new();
        fresh.write("settings.yaml", &settings);
        torii(&fresh, &ca, None)
            .args(["provider", "install", &url(case)])
            .assert()
            .failure()
            .stderr(predicate::str::contains(&expected));
        assert!(!fresh.path().join("providers/kubectl").exists(), "{case}");
    }

    // From a local archive, its signature beside it; then the archive is replaced by an
    // unsigned one, and the upgrade is refused whatever the setting allows, before anything
    // reads it (its manifest is not even YAML); then by one signed with another trusted key,
    // refused unless the human accepts that key.
    let local = Root::new();
    local.write("settings.yaml", &settings);
    let package = local.temp().join("kubectl.zip");
    std::fs::write(&package, &archive).unwrap();
    std::fs::write(local.temp().join("kubectl.zip.minisig"), &signature).unwrap();
    torii(&local, &ca, None)
        .args(["provider", "install"])
        .arg(&package)
        .assert()
        .success();
    let before = lock(&local, "kubectl");
    let mut newer = files(&example("kubectl"));
    for (name, bytes) in &mut newer {
        if name == "manifest.yaml" {
            *bytes = String::from_utf8(bytes.clone())
                .unwrap()
                .replace("package_version: \"0.1.0\"", "package_version: \"0.2.0\"")
                .into_bytes();
        }
    }
    let newer = zip_of(&newer, "kubectl/");
    let mut unreadable = files(&example("kubectl"));
    for (name, bytes) in &mut unreadable {
        if name == "manifest.yaml" {
            *bytes = b"xxxxxxxxxx".to_vec();
        }
    }
    std::fs::write(&package, zip_of(&unreadable, "kubectl/")).unwrap();
    std::fs::remove_file(local.temp().join("kubectl.zip.minisig")).unwrap();
    torii(&local, &ca, None)
        .args(["provider", "upgrade", "kubectl"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "kubectl was installed signed by key {}, but {} carries no signature; the upgrade is refused",
            key_id(&publisher.public),
            package.display()
        )));
    assert_eq!(lock(&local, "kubectl"), before);
    std::fs::write(&package, &newer).unwrap();
    let other = ReleaseKey::new(Path::new(env!("CARGO_TARGET_TMPDIR")));
    local.write(
        "settings.yaml",
        &format!("{settings}  - {}\n", other.public),
    );
    std::fs::write(
        local.temp().join("kubectl.zip.minisig"),
        other.sign("kubectl.zip", &newer),
    )
    .unwrap();
    torii(&local, &ca, None)
        .args(["provider", "upgrade", "kubectl"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!(
            "kubectl was installed signed by key {}, but {} is signed by key {}; the upgrade is refused. If the publisher changed keys, run it again with --accept-key {}",
            key_id(&publisher.public),
            package.display(),
            key_id(&other.public),
            key_id(&other.public)
        )));
    assert_eq!(lock(&local, "kubectl"), before);
    torii(&local, &ca, None)
        .args(["provider", "upgrade", "kubectl", "--accept-key"])
        .arg(key_id(&other.public).to_lowercase())
        .assert()
        .success()
        .stderr(predicate::str::contains(format!(
            "signed by key {}",
            key_id(&other.public)
        )));
    // That key removed from the settings: shown as no longer trusted.
    local.write("settings.yaml", &settings);
    torii(&local, &ca, None)
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "key {} (no longer trusted)",
            key_id(&other.public)
        )));
    torii(&local, &ca, None)
        .arg("doctor")
        .assert()
        .stdout(predicate::str::contains(format!(
            "kubectl: package 0.2.0 was signed by key {}, which this torii no longer trusts",
            key_id(&other.public)
        )));
    // Signed again by the publisher (trusted, but not the key of the installed version now),
    // it upgrades only once accepted.
    local.write(
        "settings.yaml",
        &format!("{settings}  - {}\n", other.public),
    );
    std::fs::write(
        local.temp().join("kubectl.zip.minisig"),
        publisher.sign("kubectl.zip", &newer),
    )
    .unwrap();
    torii(&local, &ca, None)
        .args(["provider", "upgrade", "kubectl"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--accept-key"));
    torii(&local, &ca, None)
        .args(["provider", "upgrade", "kubectl", "--accept-key"])
        .arg(key_id(&publisher.public))
        .assert()
        .success()
        .stderr(predicate::str::contains("from 0.2.0 to 0.2.0"));
    assert!(lock(&local, "kubectl").contains("signed_by"));

    // A FIFO in place of the archive is refused at once, not waited on, and leaves nothing.
    let fifo = Root::new();
    let pipe = fifo.temp().join("kubectl.zip");
    assert!(
        Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap()
            .success()
    );
    torii(&fifo, &ca, None)
        .args(["provider", "install"])
        .arg(&pipe)
        .timeout(std::time::Duration::from_secs(30))
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a regular file"));
    assert!(!fifo.path().join("providers").exists());

    // An unsigned URL is installed and recorded unsigned.
    let fresh = Root::new();
    torii(&fresh, &ca, None)
        .args(["provider", "install", &url("unsigned")])
        .assert()
        .success();
    assert!(!lock(&fresh, "kubectl").contains("signed_by"));
}

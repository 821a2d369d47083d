//! `torii self upgrade` on a copy of the binary (version 0.1.0) against a release server on
//! loopback serving v9.9.9: `--check` reports, the upgrade replaces the copy with the served
//! build and touches nothing else (not even a `torii.old` beside it: only Windows leaves and
//! removes `torii.exe.old`), a second run is up to date, a wrong checksum changes nothing, and
//! neither does a release whose checksum file is not signed by a trusted key (issue 40).
//!
//! Releases are signed here as the release workflow signs them, by `scripts/sign-release.py`
//! with a key made for the run; the binary under test (built with the test hooks) trusts that
//! key through `TORII_TEST_RELEASE_KEY`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::install_sh::{TAG, package_as, stripped_binary, text};
use crate::pack::serve_https;
use torii::signature::{PublicKey, Verdict, verify};

const MARK: &[u8] = b"\ntorii-release-v9.9.9-marker\n";

/// A release signing key made by the workflow's own script.
pub struct ReleaseKey {
    pub public: String,
    secret: String,
    dir: PathBuf,
}

impl ReleaseKey {
    pub fn new(dir: &Path) -> ReleaseKey {
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let made = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = dir.join(format!("release-key-{}-{made}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let output = Command::new(crate::python_sdk::test_python())
            .arg(signer())
            .arg("keygen")
            .arg(dir.join("secret"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output));
        ReleaseKey {
            public: String::from_utf8(output.stdout).unwrap().trim().to_string(),
            secret: std::fs::read_to_string(dir.join("secret")).unwrap(),
            dir,
        }
    }

    /// The `.minisig` of `bytes`, as the release workflow makes it.
    pub fn sign(&self, name: &str, bytes: &[u8]) -> Vec<u8> {
        let file = self.dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        let output = Command::new(crate::python_sdk::test_python())
            .arg(signer())
            .arg("sign")
            .arg(&file)
            .env("TORII_RELEASE_SIGNING_KEY", &self.secret)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output));
        std::fs::read(self.dir.join(format!("{name}.minisig"))).unwrap()
    }
}

fn signer() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/sign-release.py")
}

/// What the server serves beside the archive.
struct Served {
    archive: Vec<u8>,
    sums: Vec<u8>,
    signature: Option<Vec<u8>>,
}

fn server(served: Served) -> (crate::pack::HttpsServer, tempfile::TempDir) {
    let asset = format!("torii-{TAG}-linux-x86_64.tar.gz");
    let mut files = vec![
        (
            "/releases/latest".to_string(),
            format!("REDIRECT /releases/tag/{TAG}").into_bytes(),
        ),
        (format!("/releases/tag/{TAG}"), b"a release page".to_vec()),
        (format!("/releases/download/{TAG}/{asset}"), served.archive),
        (
            format!("/releases/download/{TAG}/{asset}.sha256"),
            served.sums,
        ),
    ];
    if let Some(signature) = served.signature {
        files.push((
            format!("/releases/download/{TAG}/{asset}.sha256.minisig"),
            signature,
        ));
    }
    let server = serve_https(files);
    let dir = tempfile::Builder::new()
        .prefix("torii-upgrade-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    std::fs::write(dir.path().join("ca.pem"), &server.ca_pem).unwrap();
    (server, dir)
}

/// The key every test release is signed with, and the binary (and install.sh) trusts.
pub fn trusted_key() -> &'static ReleaseKey {
    static KEY: std::sync::OnceLock<ReleaseKey> = std::sync::OnceLock::new();
    KEY.get_or_init(|| ReleaseKey::new(Path::new(env!("CARGO_TARGET_TMPDIR"))))
}

/// A genuine release: the archive, its checksum file, and that file's signature.
fn genuine(name: &str) -> Served {
    let (archive, sums) = package_as(name, MARK);
    let asset = format!("torii-{TAG}-linux-x86_64.tar.gz");
    let signature = trusted_key().sign(&format!("{asset}.sha256"), &sums);
    Served {
        archive,
        sums,
        signature: Some(signature),
    }
}

fn run(exe: &Path, server: &crate::pack::HttpsServer, dir: &Path, args: &[&str]) -> Output {
    run_in("en", exe, server, dir, args)
}

fn run_in(
    language: &str,
    exe: &Path,
    server: &crate::pack::HttpsServer,
    dir: &Path,
    args: &[&str],
) -> Output {
    Command::new(exe)
        .args(args)
        .env("TORII_TEST_RELEASE_KEY", &trusted_key().public)
        .env("TORII_LANG", language)
        .env(
            "TORII_RELEASE_BASE_URL",
            format!("{}/releases", server.base),
        )
        .env("TORII_EXTRA_CA_FILE", dir.join("ca.pem"))
        .env("TORII_CONFIG_DIR", dir.join("root"))
        .output()
        .unwrap()
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs the Python venv (the release signer); run by ./scripts/test.sh"]
fn self_upgrade_checks_replaces_and_then_is_up_to_date() {
    let (server, dir) = server(genuine("upgrade-ok"));
    let exe = dir.path().join("bin/torii");
    std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
    std::fs::copy(stripped_binary("upgrade-ok"), &exe).unwrap();
    let before = std::fs::read(&exe).unwrap();
    assert!(!before.ends_with(MARK));

    let output = run(&exe, &server, dir.path(), &["self", "upgrade", "--check"]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains(&format!("torii v0.1.0 is installed; {TAG} is available")),
        "{}",
        text(&output)
    );
    assert_eq!(std::fs::read(&exe).unwrap(), before);
    let output = run_in(
        "pt-BR",
        &exe,
        &server,
        dir.path(),
        &["self", "upgrade", "--check"],
    );
    assert!(
        text(&output).contains(&format!(
            "torii v0.1.0 está instalado; {TAG} está disponível"
        )),
        "{}",
        text(&output)
    );

    // Only a Windows upgrade leaves `<exe>.old` and removes it next time; here one is the
    // user's own file (the Windows plan itself is tested on Linux in `src/release.rs`).
    let users_copy = dir.path().join("bin/torii.old");
    std::fs::write(&users_copy, b"a copy the user kept").unwrap();
    let output = run(&exe, &server, dir.path(), &["self", "upgrade"]);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(std::fs::read(&users_copy).unwrap(), b"a copy the user kept");
    assert!(!text(&output).contains("torii.old"), "{}", text(&output));
    // Issue 35: what the new executable says of itself, as install.sh reports it, not only the
    // tag it came under (the test release holds this build, which says 0.1.0).
    assert!(
        text(&output).contains(&format!(
            "upgraded torii v0.1.0 to v9.9.9 at {}, which says: torii 0.1.0",
            exe.display()
        )),
        "{}",
        text(&output)
    );
    assert!(text(&output).contains("Restart your MCP clients"));
    assert!(std::fs::read(&exe).unwrap().ends_with(MARK));
    // The config root was not created, let alone touched.
    assert!(!dir.path().join("root").exists());
    // The new binary runs.
    let version = Command::new(&exe).arg("--version").output().unwrap();
    assert!(version.status.success());

    // With the latest release at this binary's own version there is nothing to do.
    let current = serve_https(vec![
        (
            "/releases/latest".to_string(),
            b"REDIRECT /releases/tag/v0.1.0".to_vec(),
        ),
        (
            "/releases/tag/v0.1.0".to_string(),
            b"a release page".to_vec(),
        ),
    ]);
    std::fs::write(dir.path().join("ca.pem"), &current.ca_pem).unwrap();
    let upgraded = std::fs::read(&exe).unwrap();
    let output = run(&exe, &current, dir.path(), &["self", "upgrade"]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        text(&output).contains("already up to date"),
        "{}",
        text(&output)
    );
    assert_eq!(std::fs::read(&exe).unwrap(), upgraded);
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs the Python venv (the release signer); run by ./scripts/test.sh"]
fn self_upgrade_refuses_a_mismatched_checksum_and_keeps_the_binary() {
    // Signed, so that what refuses it is the checksum.
    let (archive, _) = package_as("upgrade-bad", MARK);
    let asset = format!("torii-{TAG}-linux-x86_64.tar.gz");
    let sums = format!("{}  {asset}\n", crate::pack::sha256(b"other")).into_bytes();
    let signature = trusted_key().sign(&format!("{asset}.sha256"), &sums);
    let (server, dir) = server(Served {
        archive,
        sums,
        signature: Some(signature),
    });
    let exe = dir.path().join("bin/torii");
    std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
    std::fs::copy(stripped_binary("upgrade-bad"), &exe).unwrap();
    let before = std::fs::read(&exe).unwrap();
    let output = run(&exe, &server, dir.path(), &["self", "upgrade"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("does not match") && text(&output).contains("was not changed"),
        "{}",
        text(&output)
    );
    assert_eq!(std::fs::read(&exe).unwrap(), before);
    let leftovers: Vec<_> = std::fs::read_dir(exe.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

/// Issue 40: the checksum comes from where the archive comes from. A release whose archive
/// and checksum file were both replaced, one signed by a key the binary does not trust, one
/// without a signature and one with a cut signature are all refused, and nothing changes.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "needs the Python venv (the release signer); run by ./scripts/test.sh"]
fn self_upgrade_refuses_a_release_not_signed_by_a_trusted_key() {
    let asset = format!("torii-{TAG}-linux-x86_64.tar.gz");
    let genuine = genuine("upgrade-signed");
    let attacker = ReleaseKey::new(Path::new(env!("CARGO_TARGET_TMPDIR")));
    // The attacker's own build, with a checksum file that matches it.
    let (forged_archive, forged_sums) = package_as("upgrade-forged", b"\nforged\n");
    let genuine_signature = genuine.signature.clone().unwrap();
    let cases = [
        (
            "archive and checksum replaced, the genuine signature kept",
            Served {
                archive: forged_archive.clone(),
                sums: forged_sums.clone(),
                signature: Some(genuine_signature.clone()),
            },
            "not signed by a release key",
        ),
        (
            "signed by another key",
            Served {
                archive: forged_archive.clone(),
                sums: forged_sums.clone(),
                signature: Some(attacker.sign(&format!("{asset}.sha256"), &forged_sums)),
            },
            "not signed by a release key",
        ),
        (
            "no signature",
            Served {
                archive: genuine.archive.clone(),
                sums: genuine.sums.clone(),
                signature: None,
            },
            "carries no signature",
        ),
        (
            "a cut signature",
            Served {
                archive: genuine.archive.clone(),
                sums: genuine.sums.clone(),
                signature: Some(genuine_signature[..genuine_signature.len() - 20].to_vec()),
            },
            "not signed by a release key",
        ),
    ];
    for (case, served, expected) in cases {
        let (server, dir) = server(served);
        let exe = dir.path().join("bin/torii");
        std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
        std::fs::copy(stripped_binary("upgrade-signed"), &exe).unwrap();
        let before = std::fs::read(&exe).unwrap();
        let output = run(&exe, &server, dir.path(), &["self", "upgrade"]);
        assert_eq!(output.status.code(), Some(1), "{case}: {}", text(&output));
        assert!(
            text(&output).contains(expected) && text(&output).contains("was not changed"),
            "{case}: {}",
            text(&output)
        );
        assert_eq!(std::fs::read(&exe).unwrap(), before, "{case}");
    }
    // The control: the genuine release, served the same way, upgrades.
    let (server, dir) = server(genuine);
    let exe = dir.path().join("bin/torii");
    std::fs::create_dir_all(exe.parent().unwrap()).unwrap();
    std::fs::copy(stripped_binary("upgrade-signed"), &exe).unwrap();
    let output = run(&exe, &server, dir.path(), &["self", "upgrade"]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(std::fs::read(&exe).unwrap().ends_with(MARK));
}

/// Issue 40: the release workflow's packing and signing steps, run as they are written (with
/// the checkout's layout, `python3` on `PATH` and a key of the test's in the secret's
/// variable), sign every checksum file, the official catalog and every official package so
/// that the key verifies them, as `torii self upgrade` and `provider install` check them.
#[test]
#[ignore = "needs the Python venv (the release signer); run by ./scripts/test.sh"]
fn the_release_workflows_signing_step_signs_every_checksum_file_and_package() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let yaml = std::fs::read_to_string(repo.join(".github/workflows/release.yml")).unwrap();
    let workflow: serde_json::Value = strict_yaml::from_str(&yaml).unwrap();
    let steps = workflow["jobs"]["publish"]["steps"].as_array().unwrap();
    let position = |name: &str| {
        steps
            .iter()
            .position(|step| step["name"] == name)
            .unwrap_or_else(|| panic!("release.yml has no step {name:?}"))
    };
    let packing = position("Package the official providers");
    let signing = position("Sign the checksum files, the catalog and the packages");
    assert!(packing < signing, "packed before it is signed");
    assert!(
        signing < position("Publish"),
        "signed before it is published"
    );
    assert_eq!(
        steps[signing]["env"]["TORII_RELEASE_SIGNING_KEY"],
        "${{ secrets.TORII_RELEASE_SIGNING_KEY }}"
    );

    let work = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for dir in ["scripts", "dist", "bin"] {
        std::fs::create_dir_all(work.path().join(dir)).unwrap();
    }
    for script in ["sign-release.py", "package-providers.py"] {
        std::fs::copy(
            repo.join("scripts").join(script),
            work.path().join("scripts").join(script),
        )
        .unwrap();
    }
    std::os::unix::fs::symlink(repo.join("examples"), work.path().join("examples")).unwrap();
    std::os::unix::fs::symlink(
        crate::python_sdk::test_python(),
        work.path().join("bin/python3"),
    )
    .unwrap();
    let sums = [
        (
            "torii-v9.9.9-linux-x86_64.tar.gz.sha256",
            "a  torii-v9.9.9-linux-x86_64.tar.gz\n",
        ),
        (
            "torii-v9.9.9-windows-x86_64.zip.sha256",
            "b  torii-v9.9.9-windows-x86_64.zip\n",
        ),
    ];
    for (name, content) in sums {
        std::fs::write(work.path().join("dist").join(name), content).unwrap();
    }
    let key = ReleaseKey::new(work.path());
    let path = std::env::join_paths(
        std::iter::once(work.path().join("bin"))
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    for step in [packing, signing] {
        let output = Command::new("bash")
            .args([
                "-eo",
                "pipefail",
                "-c",
                steps[step]["run"].as_str().unwrap(),
            ])
            .current_dir(work.path())
            .env("PATH", &path)
            .env("TORII_RELEASE_SIGNING_KEY", &key.secret)
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", text(&output));
    }
    let other = ReleaseKey::new(work.path());
    let dist = work.path().join("dist");
    let mut signed: Vec<String> = std::fs::read_dir(&dist)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| !name.ends_with(".minisig"))
        .collect();
    signed.sort();
    let packages = torii_packages();
    assert_eq!(
        signed.len(),
        sums.len() + 1 + packages,
        "checksums, index.yaml and {packages} packages: {signed:?}"
    );
    let trusted = [PublicKey::parse(&key.public).unwrap()];
    let untrusted = [PublicKey::parse(&other.public).unwrap()];
    for name in &signed {
        let content = std::fs::read(dist.join(name)).unwrap();
        let signature = std::fs::read(dist.join(format!("{name}.minisig")))
            .unwrap_or_else(|_| panic!("{name} was not signed"));
        assert!(matches!(
            verify(&trusted, &content, &signature),
            Verdict::Valid(_)
        ));
        assert!(matches!(
            verify(&untrusted, &content, &signature),
            Verdict::UnknownKey(_)
        ));
        assert!(matches!(
            verify(&trusted, b"other bytes", &signature),
            Verdict::Invalid(_)
        ));
    }
}

/// How many official packages the source tree has (each is packed and signed).
fn torii_packages() -> usize {
    std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/providers"))
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().path().is_dir())
        .count()
}

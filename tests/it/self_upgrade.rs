//! `torii self upgrade` on a copy of the binary (version 0.1.0) against a release server on
//! loopback serving v9.9.9: `--check` reports, the upgrade replaces the copy with the served
//! build and touches nothing else (not even a `torii.old` beside it: only Windows leaves and
//! removes `torii.exe.old`), a second run is up to date, a wrong checksum changes nothing.

use std::path::Path;
use std::process::{Command, Output};

use crate::install_sh::{TAG, package_as, stripped_binary, text};
use crate::pack::serve_https;

const MARK: &[u8] = b"\ntorii-release-v9.9.9-marker\n";

fn server(name: &str, sums_of_other_bytes: bool) -> (crate::pack::HttpsServer, tempfile::TempDir) {
    let (archive, sums) = package_as(name, MARK);
    let asset = format!("torii-{TAG}-linux-x86_64.tar.gz");
    let sums = if sums_of_other_bytes {
        format!("{}  {asset}\n", crate::pack::sha256(b"other")).into_bytes()
    } else {
        sums
    };
    let server = serve_https(vec![
        (
            "/releases/latest".to_string(),
            format!("REDIRECT /releases/tag/{TAG}").into_bytes(),
        ),
        (format!("/releases/tag/{TAG}"), b"a release page".to_vec()),
        (format!("/releases/download/{TAG}/{asset}"), archive),
        (format!("/releases/download/{TAG}/{asset}.sha256"), sums),
    ]);
    let dir = tempfile::Builder::new()
        .prefix("torii-upgrade-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    std::fs::write(dir.path().join("ca.pem"), &server.ca_pem).unwrap();
    (server, dir)
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
fn self_upgrade_checks_replaces_and_then_is_up_to_date() {
    let (server, dir) = server("upgrade-ok", false);
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
fn self_upgrade_refuses_a_mismatched_checksum_and_keeps_the_binary() {
    let (server, dir) = server("upgrade-bad", true);
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

//! `torii self upgrade`: the latest release, its checksum file checked against its signature by
//! a release key compiled into this executable, its archive for this platform checked against
//! that SHA-256, and the running executable replaced by a rename in its own directory (on
//! Windows, after renaming the running one aside to `torii.exe.old`, removed next time).
//!
//! The checksum alone comes from where the archive comes from: whoever can replace one can
//! replace both. The signature (minisign's format: Ed25519 over the file's BLAKE2b-512, made
//! by `scripts/sign-release.py` in the release workflow) is what a replaced release cannot
//! carry.
//!
//! Only the executable changes: the config root (settings, providers, rules, targets, grants,
//! sessions) is never opened. Releases are where `install.sh` finds them:
//! `<base>/latest` redirects to `<base>/tag/<tag>`, assets are `<base>/download/<tag>/<asset>`.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::packages::PackageError;
use crate::packages::fetch;
use crate::signature::{self, PublicKey, Verdict};

/// Replaces the release location (mirrors, tests).
pub const RELEASE_BASE_ENV: &str = "TORII_RELEASE_BASE_URL";
pub const DEFAULT_BASE: &str = "https://github.com/torii-mcp/torii/releases";

/// Far above the release archive, far below what would hurt.
const MAX_ARCHIVE_BYTES: u64 = 256 * 1024 * 1024;

/// The public keys (minisign's base64 line) whose signature on a release's checksum file this
/// executable accepts: the current key, and a slot for the next one, so that a release signed
/// with either upgrades (see docs/src/installation.md, "Release keys"). An empty slot holds
/// nothing. The project's key is made once by its maintainers (`scripts/sign-release.py
/// keygen`), its secret kept as the release workflow's secret `TORII_RELEASE_SIGNING_KEY`;
/// until it is written here, this executable accepts no release at all.
const RELEASE_KEYS: [&str; 2] = ["", ""];

/// The tag a release build was made for (`TORII_RELEASE_TAG` when the release workflow built
/// it); `None` for a local build. It is what the build says of itself, for `torii doctor`: the
/// release's signature is on its archive, which a running executable cannot see.
pub fn release_tag() -> Option<&'static str> {
    option_env!("TORII_RELEASE_TAG").filter(|tag| Version::parse(tag).is_some())
}

/// Whether this executable trusts any release key (else `self upgrade` refuses every release).
pub fn trusts_a_release_key() -> bool {
    RELEASE_KEYS.iter().any(|key| !key.is_empty())
}

/// A build with the test hooks also trusts the key named here (see [`release_keys`]).
#[cfg(feature = "test-hooks")]
pub const TEST_KEY_ENV: &str = "TORII_TEST_RELEASE_KEY";

#[derive(Debug, thiserror::Error)]
pub enum UpgradeError {
    #[error(transparent)]
    Fetch(#[from] PackageError),
    #[error("{}", crate::tr!("upgrade-bad-tag", tag = format!("{:?}", .0)))]
    BadTag(String),
    #[error("{}", crate::tr!("upgrade-no-platform"))]
    NoPlatform,
    #[error("{}", crate::tr!("upgrade-bad-checksum-file", asset = .asset.as_str()))]
    BadChecksumFile { asset: String },
    #[error("{}", crate::tr!("upgrade-mismatch", asset = .asset.as_str()))]
    Mismatch { asset: String },
    #[error("{}", crate::tr!("upgrade-unsigned", asset = .asset.as_str(), reason = .reason.as_str()))]
    Unsigned { asset: String, reason: String },
    #[error("{}", crate::tr!("upgrade-bad-signature", asset = .asset.as_str()))]
    BadSignature { asset: String },
    #[error("{}", crate::tr!("upgrade-no-executable", asset = .asset.as_str(), entry = .entry.as_str()))]
    NoExecutable { asset: String, entry: String },
    #[error("{}", crate::tr!("upgrade-archive", asset = .asset.as_str(), reason = .reason.as_str()))]
    Archive { asset: String, reason: String },
    #[error("{}", crate::tr!("cli-no-exe"))]
    Exe(#[source] std::io::Error),
    /// Replaced, but the new executable does not answer `--version`.
    #[error("{}", crate::tr!("upgrade-new-does-not-run", path = .path.display().to_string(), reason = .reason.as_str()))]
    NewDoesNotRun { path: PathBuf, reason: String },
    #[error("{}", crate::tr!("upgrade-replace", path = .path.display().to_string()))]
    Replace {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The cause is in the middle of the sentence, so it is part of the message, not a
    /// `source`.
    #[error("cannot {step}: {error}; the executable was not changed")]
    Step { step: String, error: std::io::Error },
    /// A step failed and undoing an earlier one failed too: the human has to finish it.
    #[error(
        "cannot {step}: {error}; nor put the executable back ({undo}): rename {} to {} by hand",
        from.display(),
        to.display()
    )]
    Stranded {
        step: String,
        error: std::io::Error,
        undo: std::io::Error,
        from: PathBuf,
        to: PathBuf,
    },
}

/// A release version, `vX.Y.Z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(u64, u64, u64);

impl Version {
    pub fn parse(text: &str) -> Option<Version> {
        let mut parts = text.strip_prefix('v').unwrap_or(text).split('.');
        let mut next = || parts.next()?.parse::<u64>().ok();
        let version = Version(next()?, next()?, next()?);
        parts.next().is_none().then_some(version)
    }

    /// The version of this executable.
    pub fn current() -> Version {
        Version::parse(env!("CARGO_PKG_VERSION")).unwrap_or(Version(0, 0, 0))
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}.{}.{}", self.0, self.1, self.2)
    }
}

fn base() -> String {
    std::env::var(RELEASE_BASE_ENV)
        .ok()
        .filter(|value| !value.is_empty())
        .unwrap_or_else(|| DEFAULT_BASE.to_string())
        .trim_end_matches('/')
        .to_string()
}

/// The tag `<base>/latest` redirects to.
pub fn latest() -> Result<Version, UpgradeError> {
    let url = fetch::https_url(&format!("{}/latest", base()))?;
    let tag = fetch::final_url(&url)?
        .path_segments()
        .and_then(|mut segments| segments.next_back().map(str::to_string))
        .unwrap_or_default();
    Version::parse(&tag).ok_or(UpgradeError::BadTag(tag))
}

/// The archive name for this platform, and the executable's path inside it.
pub fn asset(version: Version) -> Result<(String, String), UpgradeError> {
    let (platform, extension, exe) = if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        ("linux-x86_64", "tar.gz", "torii")
    } else if cfg!(all(windows, target_arch = "x86_64")) {
        ("windows-x86_64", "zip", "torii.exe")
    } else {
        return Err(UpgradeError::NoPlatform);
    };
    let name = format!("torii-{version}-{platform}");
    Ok((format!("{name}.{extension}"), format!("{name}/{exe}")))
}

/// The release keys this executable trusts, parsed. A build with the test hooks also trusts
/// the key in `TORII_TEST_RELEASE_KEY` (the tests sign their releases and packages).
pub fn release_keys() -> Vec<PublicKey> {
    #[allow(unused_mut)]
    let mut keys: Vec<PublicKey> = RELEASE_KEYS
        .iter()
        .filter(|key| !key.is_empty())
        .filter_map(|key| PublicKey::parse(key).ok())
        .collect();
    #[cfg(feature = "test-hooks")]
    if let Some(key) = std::env::var(TEST_KEY_ENV)
        .ok()
        .and_then(|key| PublicKey::parse(&key).ok())
    {
        keys.push(key);
    }
    keys
}

/// Whether `signature` (a `.minisig` file) is a valid signature of `bytes` by a release key.
pub fn signed_by_a_release_key(bytes: &[u8], signature: &[u8]) -> bool {
    matches!(
        signature::verify(&release_keys(), bytes, signature),
        Verdict::Valid(_)
    )
}

/// The hash a `sha256sum`-format file gives for `asset`.
pub fn checksum_for(text: &str, asset: &str) -> Option<String> {
    let line = text.lines().next()?;
    let (hash, name) = line.split_once("  ").or_else(|| line.split_once(" *"))?;
    let valid = crate::digest::is_sha256_hex(hash);
    (valid && name == asset).then(|| hash.to_ascii_lowercase())
}

/// Downloads, checks and extracts the executable of `version`.
pub fn fetch_executable(version: Version) -> Result<Vec<u8>, UpgradeError> {
    let (asset, entry) = asset(version)?;
    let url = |name: &str| fetch::https_url(&format!("{}/download/{version}/{name}", base()));
    let sums = fetch::download(&url(&format!("{asset}.sha256"))?, 4096)?;
    let signature =
        fetch::download(&url(&format!("{asset}.sha256.minisig"))?, 4096).map_err(|error| {
            UpgradeError::Unsigned {
                asset: asset.clone(),
                reason: crate::errors::chain(&error),
            }
        })?;
    if !signed_by_a_release_key(&sums, &signature) {
        return Err(UpgradeError::BadSignature { asset });
    }
    let expected = checksum_for(&String::from_utf8_lossy(&sums), &asset).ok_or_else(|| {
        UpgradeError::BadChecksumFile {
            asset: asset.clone(),
        }
    })?;
    let archive = fetch::download(&url(&asset)?, MAX_ARCHIVE_BYTES)?;
    if crate::digest::sha256_hex(&archive) != expected {
        return Err(UpgradeError::Mismatch { asset });
    }
    extract(&archive, &asset, &entry)
}

fn extract(archive: &[u8], asset: &str, entry: &str) -> Result<Vec<u8>, UpgradeError> {
    let bad = |reason: String| UpgradeError::Archive {
        asset: asset.to_string(),
        reason,
    };
    let mut found = None;
    if asset.ends_with(".zip") {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive))
            .map_err(|error| bad(error.to_string()))?;
        if let Ok(mut file) = zip.by_name(entry) {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .map_err(|error| bad(error.to_string()))?;
            found = Some(bytes);
        }
    } else {
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
        for file in tar.entries().map_err(|error| bad(error.to_string()))? {
            let mut file = file.map_err(|error| bad(error.to_string()))?;
            let path = file.path().map_err(|error| bad(error.to_string()))?;
            if path == Path::new(entry) && file.header().entry_type().is_file() {
                let mut bytes = Vec::new();
                file.read_to_end(&mut bytes)
                    .map_err(|error| bad(error.to_string()))?;
                found = Some(bytes);
                break;
            }
        }
    }
    found.ok_or_else(|| UpgradeError::NoExecutable {
        asset: asset.to_string(),
        entry: entry.to_string(),
    })
}

/// How the executable is replaced. The target selects it ([`Platform::CURRENT`]), but it is a
/// plain value, so the Windows plan runs, and is tested, on Linux too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// A file renamed over a running executable is fine: the process keeps the old inode.
    Unix,
    /// A running `.exe` can be neither overwritten nor deleted, but it can be renamed: it is
    /// moved aside to `torii.exe.old`, which the next upgrade removes.
    Windows,
}

impl Platform {
    pub const CURRENT: Platform = if cfg!(windows) {
        Platform::Windows
    } else {
        Platform::Unix
    };
}

/// One file operation of a replacement, all in the executable's directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    /// Removes the file if it is there.
    Remove(PathBuf),
    /// Renames `from` to `to`; renamed back if a later step fails.
    Rename { from: PathBuf, to: PathBuf },
}

impl std::fmt::Display for FileOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileOp::Remove(path) => write!(f, "remove {}", path.display()),
            FileOp::Rename { from, to } => {
                write!(f, "rename {} to {}", from.display(), to.display())
            }
        }
    }
}

/// Where a Windows upgrade leaves the executable it replaced: `torii.exe.old`.
pub fn leftover(exe: &Path) -> PathBuf {
    let mut name = exe.as_os_str().to_os_string();
    name.push(".old");
    PathBuf::from(name)
}

/// The steps that put `new`, a file in the same directory, in place of `exe`.
pub fn replacement_steps(exe: &Path, new: &Path, platform: Platform) -> Vec<FileOp> {
    let install = FileOp::Rename {
        from: new.to_path_buf(),
        to: exe.to_path_buf(),
    };
    match platform {
        Platform::Unix => vec![install],
        Platform::Windows => {
            let old = leftover(exe);
            vec![
                // One left by an earlier upgrade, if its process has ended: the name is needed.
                FileOp::Remove(old.clone()),
                FileOp::Rename {
                    from: exe.to_path_buf(),
                    to: old,
                },
                install,
            ]
        }
    }
}

/// Runs `steps` in order, on every platform. When one fails, the renames already done are
/// undone, newest first, so the executable is back under its own name.
pub fn execute(steps: &[FileOp]) -> Result<(), UpgradeError> {
    let mut done: Vec<(&Path, &Path)> = Vec::new();
    for step in steps {
        let result = match step {
            FileOp::Remove(path) => match std::fs::remove_file(path) {
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
                other => other,
            },
            FileOp::Rename { from, to } => {
                std::fs::rename(from, to).map(|()| done.push((from.as_path(), to.as_path())))
            }
        };
        let Err(error) = result else { continue };
        for (from, to) in done.into_iter().rev() {
            if let Err(undo) = std::fs::rename(to, from) {
                return Err(UpgradeError::Stranded {
                    step: step.to_string(),
                    error,
                    undo,
                    from: to.to_path_buf(),
                    to: from.to_path_buf(),
                });
            }
        }
        return Err(UpgradeError::Step {
            step: step.to_string(),
            error,
        });
    }
    Ok(())
}

/// Removes the `torii.exe.old` an earlier upgrade left beside `exe` (Windows only: elsewhere
/// nothing is left, and a `torii.old` there is someone else's). What happened, for the human;
/// `None` when there was nothing to remove.
pub fn remove_leftover(exe: &Path, platform: Platform) -> Option<String> {
    if platform != Platform::Windows {
        return None;
    }
    let old = leftover(exe);
    match std::fs::remove_file(&old) {
        Ok(()) => Some(format!(
            "removed {}, the executable the previous upgrade replaced",
            old.display()
        )),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => Some(format!(
            "cannot remove {} yet ({error}): a torii started before the previous upgrade may \
             still be running from it; the next upgrade tries again",
            old.display()
        )),
    }
}

/// What the executable at `exe` says its version is (`torii --version`), as install.sh reports
/// it: the file now in place, not the tag it was downloaded under.
pub fn installed_version(exe: &Path) -> Result<String, UpgradeError> {
    let fail = |reason: String| UpgradeError::NewDoesNotRun {
        path: exe.to_path_buf(),
        reason,
    };
    let output = std::process::Command::new(exe)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|error| fail(error.to_string()))?;
    let said = String::from_utf8_lossy(&output.stdout).trim().to_string();
    if !output.status.success() || said.is_empty() {
        return Err(fail(format!("--version exited with {}", output.status)));
    }
    Ok(said)
}

/// Puts `bytes` in place of the executable at `exe`: a new file in the same directory, made
/// executable and flushed, then the `platform`'s [`replacement_steps`].
pub fn replace_executable(
    exe: &Path,
    bytes: &[u8],
    platform: Platform,
) -> Result<(), UpgradeError> {
    let fail = |source| UpgradeError::Replace {
        path: exe.to_path_buf(),
        source,
    };
    let dir = crate::atomic::containing_dir(exe);
    let mut temp = tempfile::Builder::new()
        .prefix(".torii-upgrade-")
        .tempfile_in(dir)
        .map_err(fail)?;
    std::io::Write::write_all(&mut temp, bytes).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o755))
            .map_err(fail)?;
    }
    temp.as_file().sync_all().map_err(fail)?;
    // Closed (Windows renames no open file), and still removed when it is dropped if a step
    // failed; once renamed into place there is nothing left at its path to remove.
    let temp = temp.into_temp_path();
    execute(&replacement_steps(exe, &temp, platform))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key written wrongly into `RELEASE_KEYS` would be dropped by `release_keys`, and every
    /// release refused: each non-empty slot must parse.
    #[test]
    fn every_release_key_slot_is_empty_or_a_public_key() {
        for key in RELEASE_KEYS.iter().filter(|key| !key.is_empty()) {
            PublicKey::parse(key).unwrap();
        }
    }

    #[test]
    fn versions_parse_and_order() {
        assert_eq!(Version::parse("v1.2.3"), Some(Version(1, 2, 3)));
        assert_eq!(Version::parse("0.1.0"), Some(Version(0, 1, 0)));
        for bad in ["v1.2", "v1.2.3.4", "vx.1.2", "", "latest"] {
            assert_eq!(Version::parse(bad), None, "{bad}");
        }
        assert!(Version(0, 10, 0) > Version(0, 9, 9));
        assert_eq!(Version(1, 2, 3).to_string(), "v1.2.3");
    }

    #[test]
    fn a_checksum_file_must_name_the_asset() {
        let hash = "a".repeat(64);
        assert_eq!(
            checksum_for(&format!("{hash}  torii.tar.gz\n"), "torii.tar.gz"),
            Some(hash.clone())
        );
        assert_eq!(
            checksum_for(&format!("{hash}  other.tar.gz\n"), "torii.tar.gz"),
            None
        );
        assert_eq!(checksum_for("abc  torii.tar.gz\n", "torii.tar.gz"), None);
    }

    /// `old build` at `dir/torii.exe`, and the paths of the executable and its leftover.
    fn installed(dir: &Path) -> (PathBuf, PathBuf) {
        let exe = dir.join("torii.exe");
        std::fs::write(&exe, b"old build").unwrap();
        let old = leftover(&exe);
        assert_eq!(old, dir.join("torii.exe.old"));
        (exe, old)
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_platform_selects_the_plan() {
        let (exe, new) = (Path::new("/d/torii.exe"), Path::new("/d/.torii-upgrade-1"));
        let install = FileOp::Rename {
            from: new.to_path_buf(),
            to: exe.to_path_buf(),
        };
        assert_eq!(
            replacement_steps(exe, new, Platform::Unix),
            vec![install.clone()]
        );
        let old = PathBuf::from("/d/torii.exe.old");
        assert_eq!(
            replacement_steps(exe, new, Platform::Windows),
            vec![
                FileOp::Remove(old.clone()),
                FileOp::Rename {
                    from: exe.to_path_buf(),
                    to: old,
                },
                install,
            ]
        );
    }

    // The Windows plan on Linux: renaming aside and into place are the same calls there.
    #[test]
    fn the_windows_plan_keeps_the_replaced_executable_as_old() {
        let dir = tempfile::tempdir().unwrap();
        let (exe, old) = installed(dir.path());
        std::fs::write(&old, b"stale").unwrap();
        replace_executable(&exe, b"new build", Platform::Windows).unwrap();
        assert_eq!(std::fs::read(&exe).unwrap(), b"new build");
        assert_eq!(std::fs::read(&old).unwrap(), b"old build");
        assert_eq!(names(dir.path()), ["torii.exe", "torii.exe.old"]);

        // The next upgrade starts by removing it, and says so; then there is nothing to say.
        let said = remove_leftover(&exe, Platform::Windows).unwrap();
        assert!(
            said.starts_with("removed ") && said.contains("torii.exe.old"),
            "{said}"
        );
        assert_eq!(names(dir.path()), ["torii.exe"]);
        assert_eq!(remove_leftover(&exe, Platform::Windows), None);
    }

    #[test]
    fn the_unix_plan_renames_over_and_leaves_nothing_beside() {
        let dir = tempfile::tempdir().unwrap();
        let (exe, old) = installed(dir.path());
        replace_executable(&exe, b"new build", Platform::Unix).unwrap();
        assert_eq!(std::fs::read(&exe).unwrap(), b"new build");
        assert_eq!(names(dir.path()), ["torii.exe"]);
        // A `.old` file there is not one an upgrade made: it stays.
        std::fs::write(&old, b"a copy of someone's").unwrap();
        assert_eq!(remove_leftover(&exe, Platform::Unix), None);
        assert!(old.exists());
    }

    #[test]
    fn a_failed_final_rename_puts_the_executable_back() {
        let dir = tempfile::tempdir().unwrap();
        let (exe, old) = installed(dir.path());
        // The new file is gone by the last step: the running executable is already aside.
        let missing = dir.path().join(".torii-upgrade-gone");
        let error = execute(&replacement_steps(&exe, &missing, Platform::Windows)).unwrap_err();
        let said = error.to_string();
        assert!(
            said.starts_with(&format!(
                "cannot rename {} to {}",
                missing.display(),
                exe.display()
            )) && said.ends_with("the executable was not changed"),
            "{said}"
        );
        assert_eq!(std::fs::read(&exe).unwrap(), b"old build");
        assert!(!old.exists());
        assert_eq!(names(dir.path()), ["torii.exe"]);
    }

    #[test]
    fn an_undo_that_fails_too_says_what_to_rename_by_hand() {
        let dir = tempfile::tempdir().unwrap();
        let (exe, old) = installed(dir.path());
        // Not a plan `replacement_steps` makes: the removal takes away what the undo needs.
        let steps = [
            FileOp::Rename {
                from: exe.clone(),
                to: old.clone(),
            },
            FileOp::Remove(old.clone()),
            FileOp::Rename {
                from: dir.path().join("gone"),
                to: exe.clone(),
            },
        ];
        let said = execute(&steps).unwrap_err().to_string();
        assert!(
            said.contains("nor put the executable back")
                && said.ends_with(&format!(
                    "rename {} to {} by hand",
                    old.display(),
                    exe.display()
                )),
            "{said}"
        );
    }

    #[test]
    fn a_leftover_that_cannot_be_removed_stops_the_upgrade_and_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let (exe, old) = installed(dir.path());
        // Stands for a `torii.exe.old` still running: `remove_file` fails on it.
        std::fs::create_dir(&old).unwrap();
        std::fs::write(old.join("busy"), b"").unwrap();
        let said = replace_executable(&exe, b"new build", Platform::Windows)
            .unwrap_err()
            .to_string();
        assert!(
            said.starts_with(&format!("cannot remove {}", old.display())),
            "{said}"
        );
        assert_eq!(std::fs::read(&exe).unwrap(), b"old build");
        // The new file written beside it was removed.
        assert_eq!(names(dir.path()), ["torii.exe", "torii.exe.old"]);

        let said = remove_leftover(&exe, Platform::Windows).unwrap();
        assert!(
            said.starts_with(&format!("cannot remove {} yet", old.display()))
                && said.contains("the next upgrade tries again"),
            "{said}"
        );
        assert!(old.exists());
    }
}

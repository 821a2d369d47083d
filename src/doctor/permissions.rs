//! Owner-only: the config root holds the policy, grants, leases and collected credentials, and
//! Torii creates every directory 0700 and every file 0600 in it. Anything others can write
//! could change what an agent may do (a problem); credentials or state others can read leak
//! (a problem); a policy file others can read tells them little (a warning).

use std::path::Path;
#[cfg(unix)]
use std::path::PathBuf;

use super::Finding;
#[cfg(unix)]
use super::listed;

/// Files whose content is only configuration, the same as the package or the human wrote it.
/// Everything else may hold a secret or a decision (`.env`, grants, sessions, leases, the log).
#[cfg(unix)]
const PUBLIC_FILES: [&str; 4] = [
    "settings.yaml",
    "provider.yaml",
    "rules.yaml",
    "target.yaml",
];

/// A walk stops here: a root far larger than Torii makes is reported, not walked for minutes.
#[cfg(unix)]
const MAX_ENTRIES: usize = 20_000;
#[cfg(unix)]
const MAX_DEPTH: usize = 12;

#[cfg(not(unix))]
pub fn check(_root: &Path) -> Vec<Finding> {
    vec![Finding::ok(crate::tr!("doctor-permissions-unchecked"))]
}

#[cfg(unix)]
pub fn check(root: &Path) -> Vec<Finding> {
    let mut found = Found::default();
    found.visit(root, 0, true);
    found.findings(root)
}

/// What the walk saw, by kind of trouble.
#[cfg(unix)]
#[derive(Default)]
struct Found {
    entries: usize,
    truncated: bool,
    unreadable: Vec<PathBuf>,
    foreign: Vec<PathBuf>,
    writable: Vec<PathBuf>,
    secret_readable: Vec<PathBuf>,
    readable: Vec<PathBuf>,
}

#[cfg(unix)]
impl Found {
    fn visit(&mut self, path: &Path, depth: usize, is_root: bool) {
        use std::os::unix::fs::MetadataExt;
        if self.entries >= MAX_ENTRIES || depth > MAX_DEPTH {
            self.truncated = true;
            return;
        }
        self.entries += 1;
        let metadata = if is_root {
            std::fs::metadata(path)
        } else {
            std::fs::symlink_metadata(path)
        };
        let Ok(metadata) = metadata else {
            self.unreadable.push(path.to_path_buf());
            return;
        };
        // A link's own mode means nothing: what Torii reads through it is its target, checked
        // like any file here. A linked directory is not walked: it is outside what Torii made.
        let linked = metadata.file_type().is_symlink();
        let metadata = if linked {
            match std::fs::metadata(path) {
                Ok(metadata) => metadata,
                // Dangling: nothing to read through it (the command that uses it says so).
                Err(_) => return,
            }
        } else {
            metadata
        };
        if metadata.uid() != rustix::process::geteuid().as_raw() {
            self.foreign.push(path.to_path_buf());
        }
        let mode = metadata.mode();
        if mode & 0o022 != 0 {
            self.writable.push(path.to_path_buf());
        } else if mode & 0o044 != 0 {
            if metadata.is_dir() || is_public(path) {
                self.readable.push(path.to_path_buf());
            } else {
                self.secret_readable.push(path.to_path_buf());
            }
        }
        if linked || !metadata.is_dir() {
            return;
        }
        let Ok(entries) = std::fs::read_dir(path) else {
            self.unreadable.push(path.to_path_buf());
            return;
        };
        let mut children: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
        children.sort();
        for child in children {
            self.visit(&child, depth + 1, false);
        }
    }

    fn findings(self, root: &Path) -> Vec<Finding> {
        let chmod = format!(
            "chmod -R go-rwx {}",
            crate::agents::clients::shell_quote(&root.display().to_string())
        );
        let mut findings = Vec::new();
        if !self.foreign.is_empty() {
            findings.push(Finding::problem(
                crate::tr!("doctor-foreign-owner", paths = listed(&self.foreign)),
                format!("chown -R \"$(id -u)\" {}", root.display()),
            ));
        }
        if !self.writable.is_empty() {
            findings.push(Finding::problem(
                crate::tr!("doctor-writable", paths = listed(&self.writable)),
                chmod.clone(),
            ));
        }
        if !self.secret_readable.is_empty() {
            findings.push(Finding::problem(
                crate::tr!(
                    "doctor-secret-readable",
                    paths = listed(&self.secret_readable)
                ),
                chmod.clone(),
            ));
        }
        if !self.readable.is_empty() {
            findings.push(Finding::warning(
                crate::tr!("doctor-readable", paths = listed(&self.readable)),
                chmod,
            ));
        }
        if !self.unreadable.is_empty() {
            findings.push(Finding::problem(
                crate::tr!("doctor-unreadable", paths = listed(&self.unreadable)),
                crate::tr!("doctor-unreadable-fix"),
            ));
        }
        if self.truncated {
            findings.push(Finding::warning(
                crate::tr!(
                    "doctor-permissions-stopped",
                    entries = self.entries,
                    depth = MAX_DEPTH
                ),
                crate::tr!("doctor-permissions-stopped-fix"),
            ));
        }
        if findings.is_empty() {
            findings.push(Finding::ok(crate::tr!(
                "doctor-owner-only",
                entries = self.entries
            )));
        }
        findings
    }
}

#[cfg(unix)]
fn is_public(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| PUBLIC_FILES.contains(&name))
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use crate::doctor::Level;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    fn levels(root: &Path) -> Vec<(Level, String)> {
        check(root)
            .into_iter()
            .map(|finding| (finding.level, finding.text))
            .collect()
    }

    #[test]
    fn torii_made_modes_are_ok_and_others_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        chmod(root, 0o700);
        let provider = root.join("providers/aws");
        std::fs::create_dir_all(&provider).unwrap();
        for dir in [root.join("providers"), provider.clone()] {
            chmod(&dir, 0o700);
        }
        for name in ["rules.yaml", ".env", "grants"] {
            std::fs::write(provider.join(name), "x").unwrap();
            chmod(&provider.join(name), 0o600);
        }
        let found = levels(root);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Level::Ok);

        chmod(&provider.join("rules.yaml"), 0o644);
        let found = levels(root);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Level::Warning);
        assert!(found[0].1.ends_with("rules.yaml"), "{found:?}");

        chmod(&provider.join(".env"), 0o640);
        chmod(&provider.join("grants"), 0o620);
        let found = levels(root);
        assert!(found.iter().any(|(level, text)| *level == Level::Problem
            && text.starts_with("writable")
            && text.ends_with("grants")));
        assert!(found.iter().any(|(level, text)| *level == Level::Problem
            && text.starts_with("readable")
            && text.ends_with(".env")));
    }

    #[test]
    fn a_link_is_checked_by_its_target_and_a_linked_directory_is_not_walked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        chmod(&root, 0o700);
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "x").unwrap();
        chmod(&outside, 0o666);
        std::os::unix::fs::symlink(&outside, root.join(".env")).unwrap();
        let found = levels(&root);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Level::Problem);
        assert!(found[0].1.starts_with("writable"), "{found:?}");

        std::fs::remove_file(root.join(".env")).unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        chmod(&elsewhere, 0o700);
        std::fs::write(elsewhere.join("open"), "x").unwrap();
        chmod(&elsewhere.join("open"), 0o666);
        std::os::unix::fs::symlink(&elsewhere, root.join("linked")).unwrap();
        let found = levels(&root);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Level::Ok, "{found:?}");
    }
}

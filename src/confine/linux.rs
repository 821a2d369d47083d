//! Landlock rules that keep a child out of the config root.
//!
//! Landlock only grants: once a thread restricts itself, it may touch only what a rule
//! allows, and a rule on a directory allows everything beneath it. So the root is left out by
//! allowing everything else: for the root and each of its ancestors up to `/`, every other
//! entry of the containing directory gets a rule (all rights for a directory, file rights for
//! a file). The ancestors themselves get none, which has a visible cost: a child cannot list
//! them or create, rename or remove entries directly in them (for `~/.config/torii`: directly
//! in `~` and `~/.config`), while everything already inside them stays as usable as before.
//!
//! Symbolic links never get a rule (the rule would land on their target, which may be the
//! root); what they point to is covered where it really lives. The rules are rebuilt when an
//! ancestor's entries change (its modification time), so a directory created after startup is
//! reachable by the next child; until then the cache can only deny more, never less.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use landlock::{
    ABI, Access, AccessFs, LandlockStatus, PathBeneath, Ruleset, RulesetAttr, RulesetCreated,
    RulesetCreatedAttr, RulesetStatus,
};

use super::{ConfineError, Mode, Support};

/// The rights Torii asks Landlock to enforce: everything up to ABI 3, which added truncation.
/// (Later ABIs add device ioctls, networking and scopes, which do not reach files.)
const ABI_NEEDED: ABI = ABI::V3;

fn dir_rights() -> landlock::BitFlags<AccessFs> {
    AccessFs::from_all(ABI_NEEDED)
}

fn file_rights() -> landlock::BitFlags<AccessFs> {
    AccessFs::from_file(ABI_NEEDED)
}

fn landlock_error(error: impl std::fmt::Display) -> io::Error {
    io::Error::other(format!("Landlock: {error}"))
}

/// Restricts a throwaway thread with an empty ruleset to learn what the kernel enforces.
pub(super) fn probe() -> Support {
    let restricted = std::thread::Builder::new()
        .name("confine-probe".into())
        .spawn(|| {
            Ruleset::default()
                .handle_access(dir_rights())
                .and_then(|ruleset| ruleset.create())
                .and_then(RulesetCreated::restrict_self)
                .map_err(landlock_error)
        })
        .map_err(|error| error.to_string())
        .and_then(|thread| {
            thread
                .join()
                .map_err(|_| "the probe thread panicked".to_string())
        });
    match restricted {
        Ok(Ok(status)) => describe(status.ruleset, status.landlock),
        Ok(Err(error)) => Support::Unavailable {
            reason: error.to_string(),
        },
        Err(reason) => Support::Unavailable { reason },
    }
}

fn describe(ruleset: RulesetStatus, landlock: LandlockStatus) -> Support {
    let abi = match landlock {
        LandlockStatus::Available { effective_abi, .. } => format!("{effective_abi:?}")
            .trim_start_matches('V')
            .to_string(),
        LandlockStatus::NotEnabled => {
            return Support::Unavailable {
                reason: "Landlock is not enabled in this kernel".into(),
            };
        }
        LandlockStatus::NotImplemented => {
            return Support::Unavailable {
                reason: "this kernel has no Landlock".into(),
            };
        }
    };
    match ruleset {
        RulesetStatus::FullyEnforced => Support::Enforced {
            mechanism: format!("Landlock ABI {abi}"),
        },
        RulesetStatus::PartiallyEnforced | RulesetStatus::NotEnforced => Support::Unavailable {
            reason: format!(
                "this kernel's Landlock (ABI {abi}) cannot restrict truncation; Linux 6.2 or \
                 later is needed"
            ),
        },
    }
}

/// The rules for one protected directory, rebuilt when an ancestor changes.
#[derive(Debug)]
pub(super) struct Rules {
    protected: PathBuf,
    cache: Mutex<Option<Cached>>,
}

#[derive(Debug)]
struct Cached {
    stamps: Vec<Option<Stamp>>,
    ruleset: RulesetCreated,
}

/// What changes when entries are added to, removed from or renamed in a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    mtime: i64,
    mtime_nsec: i64,
}

impl Rules {
    pub(super) fn new(protected: PathBuf) -> Self {
        Self {
            protected,
            cache: Mutex::new(None),
        }
    }

    /// Runs `start` on a new thread restricted by these rules.
    pub(super) fn spawn<T: Send>(
        &self,
        mode: Mode,
        start: impl FnOnce() -> io::Result<T> + Send,
    ) -> Result<T, ConfineError> {
        std::thread::scope(|scope| {
            let thread = std::thread::Builder::new()
                .name("confined-start".into())
                .spawn_scoped(scope, move || {
                    let ruleset = self
                        .current()
                        .map_err(|source| ConfineError::Restrict { source })?;
                    let status =
                        ruleset
                            .restrict_self()
                            .map_err(|error| ConfineError::Restrict {
                                source: landlock_error(error),
                            })?;
                    if status.ruleset != RulesetStatus::FullyEnforced && mode == Mode::Required {
                        return Err(ConfineError::Required {
                            reason: "the kernel did not enforce the rules".into(),
                        });
                    }
                    start().map_err(ConfineError::Start)
                })
                .map_err(|source| ConfineError::Restrict { source })?;
            thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }

    /// A copy of the rules for the file system as it is now.
    fn current(&self) -> io::Result<RulesetCreated> {
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let stamps = self.stamps();
        if let Some(cached) = cache.as_ref().filter(|cached| cached.stamps == stamps) {
            return cached.ruleset.try_clone();
        }
        let ruleset = self.build()?;
        let copy = ruleset.try_clone()?;
        *cache = Some(Cached { stamps, ruleset });
        Ok(copy)
    }

    /// Each directory that contains the protected path or one of its ancestors, with the name
    /// inside it that leads to the protected path.
    fn levels(&self) -> impl Iterator<Item = (&Path, &Path)> {
        self.protected
            .ancestors()
            .zip(self.protected.ancestors().skip(1))
            .map(|(inner, dir)| (dir, inner))
    }

    fn stamps(&self) -> Vec<Option<Stamp>> {
        use std::os::unix::fs::MetadataExt;
        self.levels()
            .map(|(dir, _)| {
                std::fs::metadata(dir).ok().map(|meta| Stamp {
                    dev: meta.dev(),
                    ino: meta.ino(),
                    mtime: meta.mtime(),
                    mtime_nsec: meta.mtime_nsec(),
                })
            })
            .collect()
    }

    fn build(&self) -> io::Result<RulesetCreated> {
        let mut ruleset = Ruleset::default()
            .handle_access(dir_rights())
            .and_then(|ruleset| ruleset.create())
            .map_err(landlock_error)?;
        for (dir, inner) in self.levels() {
            // A directory that cannot be listed keeps all its other entries closed: denying
            // more is the safe side.
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                if Some(entry.file_name().as_os_str()) == inner.file_name() {
                    continue;
                }
                // Gone, or not openable: nothing to allow.
                let Ok(handle) = open_path(&entry.path()) else {
                    continue;
                };
                let Ok(metadata) = handle.metadata() else {
                    continue;
                };
                let rights = if metadata.is_dir() {
                    dir_rights()
                } else if metadata.file_type().is_symlink() {
                    continue;
                } else {
                    file_rights()
                };
                ruleset = ruleset
                    .add_rule(PathBeneath::new(handle, rights))
                    .map_err(landlock_error)?;
            }
        }
        Ok(ruleset)
    }
}

/// A handle on the entry itself (`O_PATH`), never on what a symbolic link points to.
fn open_path(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rules: &Rules, script: &str) -> std::process::Output {
        let mut command = std::process::Command::new("/bin/sh");
        command
            .args(["-c", script])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        rules
            .spawn(Mode::Required, || command.spawn())
            .unwrap()
            .wait_with_output()
            .unwrap()
    }

    fn enforced() -> bool {
        matches!(probe(), Support::Enforced { .. })
    }

    #[test]
    fn a_child_cannot_touch_the_root_but_keeps_the_rest() {
        if !enforced() {
            eprintln!("skipped: Landlock is not enforced on this kernel");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join("providers")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("rules.yaml"), "secret").unwrap();
        std::fs::write(outside.join("plain"), "public\n").unwrap();
        std::os::unix::fs::symlink(&root, outside.join("link-to-root")).unwrap();
        let rules = Rules::new(root.canonicalize().unwrap());
        let root = root.display();
        let outside = outside.display();
        let output = run(
            &rules,
            &format!(
                "cat {root}/rules.yaml; echo x > {root}/new; ls {root}; \
                 cat {outside}/link-to-root/rules.yaml; \
                 cat {outside}/plain; echo y > {outside}/made && cat {outside}/made"
            ),
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stdout, "public\ny\n", "{stderr}");
        assert_eq!(stderr.matches("Permission denied").count(), 4, "{stderr}");
    }

    #[test]
    fn a_directory_created_later_is_reachable_by_the_next_child() {
        if !enforced() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(&root).unwrap();
        let rules = Rules::new(root.canonicalize().unwrap());
        let later = dir.path().join("later");
        let first = run(&rules, &format!("ls {}", later.display()));
        assert!(!first.status.success());
        std::fs::create_dir(&later).unwrap();
        std::fs::write(later.join("f"), "ok").unwrap();
        let second = run(&rules, &format!("cat {}/f", later.display()));
        assert_eq!(String::from_utf8_lossy(&second.stdout), "ok");
    }

    #[test]
    fn the_calling_thread_stays_unrestricted() {
        if !enforced() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), "x").unwrap();
        let rules = Rules::new(dir.path().canonicalize().unwrap());
        let _ = run(&rules, "true");
        assert_eq!(std::fs::read_to_string(dir.path().join("f")).unwrap(), "x");
    }
}

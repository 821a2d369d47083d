//! Landlock rules that keep a child out of the config root.
//!
//! Landlock only grants: once a thread restricts itself, it may touch only what a rule
//! allows, and a rule on a directory allows everything beneath it. So a path is left out by
//! allowing everything around it: for the path and each directory above it up to `/`, every
//! other entry of the containing directory gets a rule (all rights for a directory, file rights
//! for a file). Those containing directories get no rule themselves, which has a visible cost:
//! a child cannot list them or create, rename or remove entries directly in them (for
//! `~/.config/torii`: directly in `~` and `~/.config`), while everything already inside them
//! stays as usable as before.
//!
//! The paths handled that way (see [`Boundary`]):
//! - **denied**: the config root, reached through every symbolic link on the way to it (so a
//!   link such as `~/.config/torii -> ~/dotfiles/torii` cannot be swapped), and the real
//!   location of every symbolic link found inside the root at startup (a provider directory
//!   kept elsewhere is Torii's too);
//! - **read-only**: every `PATH` directory and the directory of the Torii executable, which
//!   children may read and execute from but not change: a program planted there would run the
//!   next time Torii, or another CLI, resolves its command.
//!
//! Symbolic links never get a rule (the rule would land on their target); what they point to
//! is covered where it really lives.
//!
//! Children are started by a *launcher*: a thread that restricted itself with the rules and
//! then only ever starts children, one job at a time. When one of the containing directories
//! changes (its modification time), the rules are rebuilt and a new launcher replaces the old
//! one, so an entry created after startup is reachable by the next child; until then the old
//! rules can only deny more, never less.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::{self, Sender};

use landlock::{
    ABI, Access, AccessFs, BitFlags, LandlockStatus, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus,
};

use super::{ConfineError, Mode, Support};

/// The rights Torii asks Landlock to enforce: everything up to ABI 3, which added truncation.
/// (Later ABIs add device ioctls, networking and scopes, which do not reach files.)
const ABI_NEEDED: ABI = ABI::V3;

/// How many symbolic links one path may go through (as Linux's own limit).
const MAX_LINK_HOPS: usize = 40;
/// How deep, and how many entries, the root is searched for symbolic links at startup.
const MAX_SCAN_DEPTH: usize = 16;
const MAX_SCAN_ENTRIES: usize = 100_000;

fn dir_rights() -> BitFlags<AccessFs> {
    AccessFs::from_all(ABI_NEEDED)
}

fn file_rights() -> BitFlags<AccessFs> {
    AccessFs::from_file(ABI_NEEDED)
}

fn read_only_rights() -> BitFlags<AccessFs> {
    AccessFs::ReadFile | AccessFs::ReadDir | AccessFs::Execute
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

/// Which paths children may not touch, and which they may only read.
#[derive(Debug, Default)]
pub(super) struct Boundary {
    /// Real locations children get no access to at all.
    denied: Vec<PathBuf>,
    /// Real locations children may read and execute from, and not change.
    read_only: Vec<PathBuf>,
    /// Each directory on the way to one of those paths, with the names in it that lead there
    /// (they get no blanket rule).
    levels: BTreeMap<PathBuf, BTreeSet<OsString>>,
}

impl Boundary {
    /// The boundary for the config root `root` (absolute, as configured) and the directories
    /// children must not change.
    pub(super) fn new(root: &Path, read_only: &[PathBuf]) -> Self {
        let mut boundary = Boundary::default();
        let real_root = boundary.leave_out(root);
        boundary.denied.push(real_root.clone());
        for link in links_under(&real_root) {
            let target = boundary.leave_out(&link);
            boundary.denied.push(target);
        }
        for dir in read_only {
            if !dir.is_absolute() {
                continue;
            }
            let real = boundary.leave_out(dir);
            boundary.read_only.push(real);
        }
        // A read-only rule on a directory that holds a denied path would open that path for
        // reading: such a directory only keeps its entries apart, like any other on the way.
        let denied = boundary.denied.clone();
        boundary.read_only.retain(|dir| {
            !denied
                .iter()
                .any(|path| path.starts_with(dir) || dir.starts_with(path))
        });
        // Nothing inside a denied path ever gets a rule, whatever chain led through it.
        boundary
            .levels
            .retain(|dir, _| !denied.iter().any(|path| dir.starts_with(path)));
        boundary
    }

    /// Records every directory on the way to `path`, following its symbolic links one hop at a
    /// time (so each link's own directory is recorded too), and returns where it really leads.
    fn leave_out(&mut self, path: &Path) -> PathBuf {
        let mut pending: Vec<OsString> = Vec::new();
        push_components(&mut pending, path);
        let mut current = PathBuf::from("/");
        let mut hops = 0;
        while let Some(name) = pending.pop() {
            if name == ".." {
                current.pop();
                continue;
            }
            self.levels
                .entry(current.clone())
                .or_default()
                .insert(name.clone());
            let next = current.join(&name);
            let link =
                std::fs::symlink_metadata(&next).is_ok_and(|meta| meta.file_type().is_symlink());
            match std::fs::read_link(&next) {
                Ok(target) if link && hops < MAX_LINK_HOPS => {
                    hops += 1;
                    if target.is_absolute() {
                        current = PathBuf::from("/");
                    }
                    push_components(&mut pending, &target);
                }
                _ => current = next,
            }
        }
        current
    }

    /// The containing directories, whose changes call for new rules.
    fn dirs(&self) -> impl Iterator<Item = &Path> {
        self.levels.keys().map(PathBuf::as_path)
    }
}

/// Pushes the normal components of `path` on `pending` so that the first pops first; `.` is
/// dropped and `..` kept for the resolver.
fn push_components(pending: &mut Vec<OsString>, path: &Path) {
    let names: Vec<OsString> = path
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            _ => None,
        })
        .collect();
    pending.extend(names.into_iter().rev());
}

/// Symbolic links anywhere under `root` (not followed), bounded in depth and count.
fn links_under(root: &Path) -> Vec<PathBuf> {
    let mut links = Vec::new();
    let mut pending = vec![(root.to_path_buf(), 0)];
    let mut seen = 0;
    while let Some((dir, depth)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_SCAN_ENTRIES {
                return links;
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_symlink() {
                links.push(entry.path());
            } else if kind.is_dir() && depth < MAX_SCAN_DEPTH {
                pending.push((entry.path(), depth + 1));
            }
        }
    }
    links
}

/// The rules for one boundary, and the launcher restricted by them.
#[derive(Debug)]
pub(super) struct Rules {
    boundary: Boundary,
    launcher: Mutex<Option<Launcher>>,
}

/// A job for the launcher: start one child and send back its handle.
type Job = Box<dyn FnOnce() + Send>;

/// A thread restricted by the rules built for `stamps`, running jobs until its sender goes.
#[derive(Debug)]
struct Launcher {
    stamps: Vec<Option<Stamp>>,
    jobs: Sender<Job>,
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
    pub(super) fn new(boundary: Boundary) -> Self {
        Self {
            boundary,
            launcher: Mutex::new(None),
        }
    }

    /// Runs `start` on the launcher, so that what it starts is restricted by these rules.
    pub(super) fn spawn<T: Send + 'static>(
        &self,
        mode: Mode,
        start: impl FnOnce() -> io::Result<T> + Send + 'static,
    ) -> Result<T, ConfineError> {
        let jobs = self.jobs(mode)?;
        let (reply, answer) = mpsc::channel();
        let job: Job = Box::new(move || {
            // The caller may be gone; then there is nobody to tell.
            let _ = reply.send(start());
        });
        let lost = || ConfineError::Restrict {
            source: io::Error::other("the confined launcher stopped"),
        };
        if jobs.send(job).is_err() {
            self.forget();
            return Err(lost());
        }
        match answer.recv() {
            Ok(started) => started.map_err(ConfineError::Start),
            Err(_) => {
                self.forget();
                Err(lost())
            }
        }
    }

    /// The launcher for the file system as it is now, made (and restricted) if needed.
    fn jobs(&self, mode: Mode) -> Result<Sender<Job>, ConfineError> {
        let mut launcher = self
            .launcher
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let stamps = self.stamps();
        if let Some(current) = launcher.as_ref().filter(|current| current.stamps == stamps) {
            return Ok(current.jobs.clone());
        }
        let ruleset = self
            .build()
            .map_err(|source| ConfineError::Restrict { source })?;
        let jobs = start_launcher(ruleset, mode)?;
        // The old launcher, if any, ends when its last sender is dropped.
        *launcher = Some(Launcher {
            stamps,
            jobs: jobs.clone(),
        });
        Ok(jobs)
    }

    fn forget(&self) {
        *self
            .launcher
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
    }

    fn stamps(&self) -> Vec<Option<Stamp>> {
        use std::os::unix::fs::MetadataExt;
        self.boundary
            .dirs()
            .map(|dir| {
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
        for (dir, kept_apart) in &self.boundary.levels {
            // A directory that cannot be listed keeps all its other entries closed: denying
            // more is the safe side.
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                if kept_apart.contains(&entry.file_name()) {
                    continue;
                }
                if let Some(rule) = rule_for(&entry.path(), None) {
                    ruleset = ruleset.add_rule(rule).map_err(landlock_error)?;
                }
            }
        }
        for dir in &self.boundary.read_only {
            if let Some(rule) = rule_for(dir, Some(read_only_rights())) {
                ruleset = ruleset.add_rule(rule).map_err(landlock_error)?;
            }
        }
        Ok(ruleset)
    }
}

/// Starts a thread that restricts itself with `ruleset` and then runs jobs, and returns where
/// to send them once the restriction is in place.
fn start_launcher(ruleset: RulesetCreated, mode: Mode) -> Result<Sender<Job>, ConfineError> {
    let (jobs, queue) = mpsc::channel::<Job>();
    let (ready, restricted) = mpsc::channel();
    std::thread::Builder::new()
        .name("confined-launcher".into())
        .spawn(move || {
            let status = ruleset
                .restrict_self()
                .map_err(|error| ConfineError::Restrict {
                    source: landlock_error(error),
                });
            let outcome = match status {
                Ok(status)
                    if status.ruleset != RulesetStatus::FullyEnforced && mode == Mode::Required =>
                {
                    Err(ConfineError::Required {
                        reason: "the kernel did not enforce the rules".into(),
                    })
                }
                Ok(_) => Ok(()),
                Err(error) => Err(error),
            };
            let failed = outcome.is_err();
            let _ = ready.send(outcome);
            if failed {
                return;
            }
            // This thread never does anything but start children.
            for job in queue {
                job();
            }
        })
        .map_err(|source| ConfineError::Restrict { source })?;
    match restricted.recv() {
        Ok(Ok(())) => Ok(jobs),
        Ok(Err(error)) => Err(error),
        Err(_) => Err(ConfineError::Restrict {
            source: io::Error::other("the confined launcher stopped"),
        }),
    }
}

/// A rule on the entry at `path` itself (never on what a symbolic link points to): `rights`,
/// or all rights for a directory and file rights for anything else. `None` for a link, or
/// for an entry that is gone.
fn rule_for(path: &Path, rights: Option<BitFlags<AccessFs>>) -> Option<PathBeneath<File>> {
    let handle = open_path(path).ok()?;
    let metadata = handle.metadata().ok()?;
    if metadata.file_type().is_symlink() {
        return None;
    }
    let default = if metadata.is_dir() {
        dir_rights()
    } else {
        file_rights()
    };
    let rights = match rights {
        Some(rights) if metadata.is_dir() => rights,
        Some(rights) => rights & file_rights(),
        None => default,
    };
    Some(PathBeneath::new(handle, rights))
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
            .spawn(Mode::Required, move || command.spawn())
            .unwrap()
            .wait_with_output()
            .unwrap()
    }

    fn enforced() -> bool {
        let enforced = matches!(probe(), Support::Enforced { .. });
        if !enforced {
            eprintln!("skipped: Landlock is not enforced on this kernel");
        }
        enforced
    }

    fn rules(root: &Path, read_only: &[PathBuf]) -> Rules {
        Rules::new(Boundary::new(root, read_only))
    }

    #[test]
    fn a_child_cannot_touch_the_root_but_keeps_the_rest() {
        if !enforced() {
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
        let rules = rules(&root, &[]);
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

    /// Red-team finding: with `~/.config/torii -> ~/dotfiles/torii`, a child swapped the link
    /// and the next call read an attacker's policy.
    #[test]
    fn a_root_reached_through_a_link_keeps_the_link_in_place() {
        if !enforced() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles/torii");
        let config = dir.path().join("config");
        std::fs::create_dir_all(&real).unwrap();
        std::fs::create_dir_all(&config).unwrap();
        std::fs::write(real.join("rules.yaml"), "secret").unwrap();
        let link = config.join("torii");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        std::fs::write(config.join("other"), "other\n").unwrap();
        let rules = rules(&link, &[]);
        let output = run(
            &rules,
            &format!(
                "cat {link}/rules.yaml; rm {link}; ln -sfn /tmp {link}; mv {link} {config}/x; \
                 cat {config}/other",
                link = link.display(),
                config = config.display()
            ),
        );
        assert_eq!(String::from_utf8_lossy(&output.stdout), "other\n");
        assert_eq!(std::fs::read_link(&link).unwrap(), real);
    }

    /// Red-team finding: a provider directory kept elsewhere and linked into the root was
    /// reachable at its real location.
    #[test]
    fn what_a_link_inside_the_root_points_to_is_denied_too() {
        if !enforced() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let repo = dir.path().join("repo/probe");
        std::fs::create_dir_all(root.join("providers")).unwrap();
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::write(repo.join("rules.yaml"), "accept: []\n").unwrap();
        std::fs::write(dir.path().join("repo/readme"), "kept\n").unwrap();
        std::os::unix::fs::symlink(&repo, root.join("providers/probe")).unwrap();
        let rules = rules(&root, &[]);
        let output = run(
            &rules,
            &format!(
                "cat {repo}/rules.yaml; echo 'accept: [\"*\"]' > {repo}/rules.yaml; \
                 cat {readme}",
                repo = repo.display(),
                readme = dir.path().join("repo/readme").display()
            ),
        );
        assert_eq!(String::from_utf8_lossy(&output.stdout), "kept\n");
        assert_eq!(
            std::fs::read_to_string(repo.join("rules.yaml")).unwrap(),
            "accept: []\n"
        );
    }

    /// Red-team finding: a child planted a program in a `PATH` directory, and the next call of
    /// another provider ran it with that provider's secrets.
    #[test]
    fn path_directories_can_be_run_from_but_not_changed() {
        if !enforced() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let bin = dir.path().join("home/.local/bin");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&bin).unwrap();
        let tool = bin.join("tool");
        std::fs::write(&tool, "#!/bin/sh\necho tool-ran\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::create_dir_all(dir.path().join("home/.local/lib")).unwrap();
        let rules = rules(&root, std::slice::from_ref(&bin));
        let output = run(
            &rules,
            &format!(
                "{tool}; echo evil > {bin}/kubectl; echo x >> {tool}; rm {tool}; \
                 echo kept > {lib}/ok && cat {lib}/ok",
                tool = tool.display(),
                bin = bin.display(),
                lib = dir.path().join("home/.local/lib").display()
            ),
        );
        assert_eq!(String::from_utf8_lossy(&output.stdout), "tool-ran\nkept\n");
        assert!(!bin.join("kubectl").exists());
        assert_eq!(
            std::fs::read_to_string(&tool).unwrap(),
            "#!/bin/sh\necho tool-ran\n"
        );
    }

    #[test]
    fn a_directory_created_later_is_reachable_by_the_next_child() {
        if !enforced() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(&root).unwrap();
        let rules = rules(&root, &[]);
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
        let rules = rules(dir.path(), &[]);
        let _ = run(&rules, "true");
        assert_eq!(std::fs::read_to_string(dir.path().join("f")).unwrap(), "x");
    }

    #[test]
    fn a_read_only_directory_that_holds_the_root_opens_nothing_for_reading() {
        let boundary = Boundary::new(
            Path::new("/nonexistent/a/root"),
            &[
                PathBuf::from("/nonexistent/a"),
                PathBuf::from("/nonexistent/b/bin"),
            ],
        );
        assert_eq!(
            boundary.read_only,
            vec![PathBuf::from("/nonexistent/b/bin")]
        );
        assert!(boundary.levels[Path::new("/nonexistent")].contains(&OsString::from("a")));
    }
}

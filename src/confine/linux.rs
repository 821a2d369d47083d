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
//!   next time Torii, or another CLI, resolves its command; and every agent configuration file
//!   Torii manages (`~/.claude.json`, `~/.gemini/settings.json`, …, as recorded under
//!   `<root>/agents/`), which would otherwise let a child choose the executable, the root or
//!   the hook the client starts next time.
//!
//! Symbolic links never get a rule (the rule would land on their target); what they point to
//! is covered where it really lives.
//!
//! Each child restricts itself between `fork` and `exec` (see `sys.rs`) with a ruleset built
//! here beforehand and handed to the launcher that starts it (see `launcher.rs`), so every
//! child has a domain of its own and no thread of Torii is ever restricted. The ruleset (and
//! its launcher) is rebuilt when one of the containing directories changes (its modification
//! time), so an entry created after startup is reachable by the next child; until then the old
//! ruleset can only deny more, never less.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{CString, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use landlock::{
    ABI, Access, AccessFs, BitFlags, LandlockStatus, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

use super::Support;
use super::launcher::{Launcher, Setup};
use super::sys::MountPlan;

/// The rights Torii asks Landlock to enforce: everything up to ABI 3, which added truncation.
/// (Later ABIs add device ioctls, networking and scopes, which do not reach files.)
const ABI_NEEDED: ABI = ABI::V3;

/// How many symbolic links one path may go through (as Linux's own limit).
const MAX_LINK_HOPS: usize = 40;
/// How deep, and how many entries, the root is searched for symbolic links at startup.
const MAX_SCAN_DEPTH: usize = 16;
const MAX_SCAN_ENTRIES: usize = 100_000;
/// How many linked-to directories are searched for links of their own.
const MAX_SCANNED_TARGETS: usize = 1_000;

fn dir_rights() -> BitFlags<AccessFs> {
    AccessFs::from_all(ABI_NEEDED)
}

fn file_rights() -> BitFlags<AccessFs> {
    AccessFs::from_file(ABI_NEEDED)
}

/// Everything but removing and renaming: a directory above the root, in a child whose mount
/// namespace hides the root, takes new entries while every entry on the way stays in place.
fn creating_rights() -> BitFlags<AccessFs> {
    dir_rights() & !(AccessFs::RemoveDir | AccessFs::RemoveFile | AccessFs::Refer)
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
    /// The search for links under the root stopped at one of its bounds: a location linked
    /// from past that point is not denied.
    incomplete: bool,
    /// The root is reached through a symbolic link: the link itself must stay in place, which
    /// only a closed directory above it guarantees.
    through_links: bool,
    /// The directories on the way to the agents' files alone (not to the root or a read-only
    /// directory): they stay closed, so that nothing new appears beside a client's own
    /// configuration.
    agent_only: BTreeSet<PathBuf>,
}

impl Boundary {
    /// The boundary for the config root `root` (absolute, as configured: the links on the way
    /// matter), the directories children must not change, and the agents' files Torii manages
    /// (read-only too).
    pub(super) fn new(root: &Path, read_only: &[PathBuf], agent_files: &[PathBuf]) -> Self {
        let mut boundary = Boundary::default();
        let real_root = boundary.leave_out(root);
        boundary.through_links = real_root != std::path::absolute(root).unwrap_or_default();
        boundary.denied.push(real_root.clone());
        // What a link inside the root points to is Torii's too, and so is what a link inside
        // that points to (`providers/x -> ~/repo/x` holding `rules.yaml -> ../shared/x.yaml`):
        // every denied directory is searched in turn, until no new location turns up.
        let mut pending = vec![real_root];
        let mut searched = 0;
        while let Some(dir) = pending.pop() {
            searched += 1;
            if searched > MAX_SCANNED_TARGETS {
                boundary.incomplete = true;
                break;
            }
            let (links, complete) = links_under(&dir);
            boundary.incomplete |= !complete;
            for link in links {
                let target = boundary.leave_out(&link);
                if boundary.denied.contains(&target) {
                    continue;
                }
                if target.is_dir() {
                    pending.push(target.clone());
                }
                boundary.denied.push(target);
            }
        }
        for dir in read_only.iter().filter(|dir| dir.is_absolute()) {
            let real = boundary.leave_out(dir);
            boundary.read_only.push(real);
        }
        let before: BTreeSet<PathBuf> = boundary.levels.keys().cloned().collect();
        for file in agent_files.iter().filter(|file| file.is_absolute()) {
            let real = boundary.leave_out(file);
            boundary.read_only.push(real);
        }
        boundary.agent_only = boundary
            .levels
            .keys()
            .filter(|dir| !before.contains(*dir))
            .cloned()
            .collect();
        // Nothing inside a denied path ever gets a rule, whatever chain led through it.
        let denied = boundary.denied.clone();
        let inside_denied = |path: &Path| denied.iter().any(|denied| path.starts_with(denied));
        boundary.levels.retain(|dir, _| !inside_denied(dir));
        boundary.read_only.retain(|dir| !inside_denied(dir));
        boundary
    }

    /// Whether `path` holds a denied path: a read-only rule on it would open that path.
    fn holds_denied(&self, path: &Path) -> bool {
        self.denied.iter().any(|denied| denied.starts_with(path))
    }

    /// The read-only directory that holds `path`, if any.
    fn read_only_holding(&self, path: &Path) -> Option<&Path> {
        self.read_only
            .iter()
            .map(PathBuf::as_path)
            .find(|dir| path.starts_with(dir))
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

    /// The directories that stay closed even in a mount namespace: those on the way to the
    /// agents' files alone, and every one above a denied or read-only path that does not exist
    /// (opened, it would let a child create that path: a program on `PATH`, a directory a
    /// link in the root points to).
    fn keep_closed(&self) -> BTreeSet<PathBuf> {
        let mut closed = self.agent_only.clone();
        for missing in self
            .denied
            .iter()
            .chain(&self.read_only)
            .filter(|path| std::fs::symlink_metadata(path).is_err())
        {
            closed.extend(missing.ancestors().skip(1).map(Path::to_path_buf));
        }
        closed
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

/// Symbolic links anywhere under `root` (not followed), bounded in depth and count; `false`
/// when a bound stopped the search.
fn links_under(root: &Path) -> (Vec<PathBuf>, bool) {
    let mut links = Vec::new();
    let mut pending = vec![(root.to_path_buf(), 0)];
    let mut seen = 0;
    let mut complete = true;
    while let Some((dir, depth)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_SCAN_ENTRIES {
                return (links, false);
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_symlink() {
                links.push(entry.path());
            } else if kind.is_dir() {
                if depth < MAX_SCAN_DEPTH {
                    pending.push((entry.path(), depth + 1));
                } else {
                    complete = false;
                }
            }
        }
    }
    (links, complete)
}

/// The rules for one boundary, built into Landlock rulesets (and a launcher that starts
/// children with them) when first needed and again when a containing directory changes.
#[derive(Debug)]
pub(super) struct Rules {
    boundary: Boundary,
    /// The executable that runs the launchers.
    launcher: PathBuf,
    cache: Mutex<Option<Cached>>,
}

#[derive(Debug)]
struct Cached {
    stamps: Vec<Option<Stamp>>,
    launcher: Arc<Launcher>,
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
    pub(super) fn new(boundary: Boundary, launcher: PathBuf) -> Self {
        Self {
            boundary,
            launcher,
            cache: Mutex::new(None),
        }
    }

    /// Whether the search for links under the root stopped at one of its bounds.
    pub(super) fn incomplete(&self) -> bool {
        self.boundary.incomplete
    }

    /// The directories on the way to a denied or read-only path in which a child cannot
    /// create, rename or remove entries (it can use what is already in them): all of them
    /// without a mount namespace, else those that stay closed in one (see [`MountPlan`]).
    pub(super) fn closed_dirs(&self, namespace: bool) -> Vec<PathBuf> {
        let open = namespace;
        let keep_closed = self.boundary.keep_closed();
        self.boundary
            .dirs()
            .filter(|dir| !open || keep_closed.contains(*dir))
            .map(Path::to_path_buf)
            .collect()
    }

    /// The launcher that starts children restricted by the rules as the file system is now:
    /// in a mount namespace where it can enter one, so that the directories above the root
    /// take new entries, else with those directories closed. A new one when a containing
    /// directory changed, or when the last one broke.
    pub(super) fn launcher(&self) -> io::Result<Arc<Launcher>> {
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let stamps = self.stamps();
        if let Some(cached) = cache
            .as_ref()
            .filter(|cached| cached.stamps == stamps && !cached.launcher.is_broken())
        {
            return Ok(Arc::clone(&cached.launcher));
        }
        let closed = into_fd(self.build(false)?)?;
        let launcher = match self.mount_plan() {
            Some(plan) => {
                let open = into_fd(self.build(true)?)?;
                Launcher::new(
                    &self.launcher,
                    Setup::Confined {
                        closed: closed.as_fd(),
                        namespace: Some((open.as_fd(), &plan)),
                    },
                )?
            }
            None => Launcher::new(
                &self.launcher,
                Setup::Confined {
                    closed: closed.as_fd(),
                    namespace: None,
                },
            )?,
        };
        let launcher = Arc::new(launcher);
        *cache = Some(Cached {
            stamps,
            launcher: Arc::clone(&launcher),
        });
        Ok(launcher)
    }

    /// The mount namespace children can share, or `None` where opening the directories above
    /// the root would be unsafe: the root is reached through a link (the link must stay in
    /// place), Torii's working directory is inside a denied location (children would start
    /// there), or a path cannot be written as a C string.
    fn mount_plan(&self) -> Option<MountPlan> {
        use std::os::unix::ffi::OsStrExt;
        let boundary = &self.boundary;
        if boundary.through_links {
            return None;
        }
        let cwd = std::env::current_dir().ok()?;
        if boundary.denied.iter().any(|denied| cwd.starts_with(denied)) {
            return None;
        }
        let c_path = |path: &Path| CString::new(path.as_os_str().as_bytes()).ok();
        let mut hidden_dirs = Vec::new();
        let mut hidden_files = Vec::new();
        for denied in &boundary.denied {
            match std::fs::metadata(denied) {
                Ok(meta) if meta.is_dir() => hidden_dirs.push(c_path(denied)?),
                Ok(_) => hidden_files.push(c_path(denied)?),
                // A missing one keeps the directories above it closed (`keep_closed`).
                Err(_) => {}
            }
        }
        let mut read_only = Vec::new();
        for path in boundary.read_only.iter().filter(|path| path.exists()) {
            read_only.push(c_path(path)?);
        }
        let (uid, gid) = (rustix::process::geteuid(), rustix::process::getegid());
        Some(MountPlan {
            uid_map: CString::new(format!("{0} {0} 1", uid.as_raw())).ok()?,
            gid_map: CString::new(format!("{0} {0} 1", gid.as_raw())).ok()?,
            hidden_dirs,
            hidden_files,
            read_only,
            cwd: c_path(&cwd)?,
        })
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

    /// The ruleset: with `open`, the directories above the root that need not stay closed
    /// take new entries (never removals or renames, so nothing on the way to the root can be
    /// moved aside), for a child whose namespace hides the root.
    fn build(&self, open: bool) -> io::Result<RulesetCreated> {
        // Signals too, where the kernel has that scope (Landlock ABI 6; dropped silently on
        // an older one): a child may signal its own descendants, never the server, its window
        // or another call's child (a SIGSTOP to the server would freeze every time limit).
        let mut ruleset = Ruleset::default()
            .handle_access(dir_rights())
            .and_then(|ruleset| ruleset.scope(Scope::Signal))
            .and_then(|ruleset| ruleset.create())
            .map_err(landlock_error)?;
        let boundary = &self.boundary;
        let keep_closed = boundary.keep_closed();
        for (dir, kept_apart) in &boundary.levels {
            if open
                && !keep_closed.contains(dir)
                && boundary.read_only_holding(dir).is_none()
                && let Some(rule) = rule_for(dir, Some(creating_rights()))
            {
                ruleset = ruleset.add_rule(rule).map_err(landlock_error)?;
            }
            // Entries of a directory inside a read-only one are read-only too; when that
            // directory has a rule of its own, it already covers them.
            let rights = match boundary.read_only_holding(dir) {
                Some(read_only) if !boundary.holds_denied(read_only) => continue,
                Some(_) => Some(read_only_rights()),
                None => None,
            };
            // A directory on the way to read-only ones only stays listable and readable (a
            // project that holds an activated `.venv/bin` is still the working directory).
            if !boundary.holds_denied(dir)
                && let Some(rule) = rule_for(dir, Some(read_only_rights()))
            {
                ruleset = ruleset.add_rule(rule).map_err(landlock_error)?;
            }
            // A directory that cannot be listed keeps all its other entries closed: denying
            // more is the safe side.
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for entry in entries.flatten() {
                if kept_apart.contains(&entry.file_name()) {
                    continue;
                }
                if let Some(rule) = rule_for(&entry.path(), rights) {
                    ruleset = ruleset.add_rule(rule).map_err(landlock_error)?;
                }
            }
        }
        for dir in &boundary.read_only {
            if boundary.holds_denied(dir) {
                continue;
            }
            if let Some(rule) = rule_for(dir, Some(read_only_rights())) {
                ruleset = ruleset.add_rule(rule).map_err(landlock_error)?;
            }
        }
        Ok(ruleset)
    }
}

fn into_fd(created: RulesetCreated) -> io::Result<OwnedFd> {
    let ruleset: Option<OwnedFd> = created.into();
    ruleset.ok_or_else(|| landlock_error("no ruleset was created"))
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

    use crate::confine::launcher::Restriction;
    use crate::confine::launcher::testing::{self, TestChild};

    fn start(rules: &Rules, script: &str) -> TestChild {
        let launcher = rules.launcher().unwrap();
        testing::spawn(|start| launcher.start(start), script).unwrap()
    }

    fn run(rules: &Rules, script: &str) -> std::process::Output {
        start(rules, script).wait_with_output()
    }

    /// These tests are ignored by default, with that reason, and fail where they run on a
    /// kernel that does not enforce Landlock: they never pass without testing anything.
    fn require_landlock() {
        if let Support::Unavailable { reason } = probe() {
            panic!("Landlock is not enforced on this kernel ({reason})");
        }
    }

    fn rules(root: &Path, read_only: &[PathBuf]) -> Rules {
        Rules::new(
            Boundary::new(root, read_only, &[]),
            crate::confine::launcher::default_program(),
        )
    }

    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_child_cannot_touch_the_root_but_keeps_the_rest() {
        require_landlock();
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
        // Nothing of the root was read or listed, and nothing was created in it: refused by
        // Landlock, or (in a mount namespace) not there to see and read-only.
        assert_eq!(stdout, "public\ny\n", "{stderr}");
        for refused in ["root/rules.yaml", "root/new", "link-to-root/rules.yaml"] {
            assert!(stderr.contains(refused), "{refused}: {stderr}");
        }
        assert!(!dir.path().join("root/new").exists());
    }

    /// Red-team finding: with `~/.config/torii -> ~/dotfiles/torii`, a child swapped the link
    /// and the next call read an attacker's policy.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_root_reached_through_a_link_keeps_the_link_in_place() {
        require_landlock();
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

    /// Fourth review: the search for links stopped silently at its bounds.
    #[test]
    fn a_search_stopped_by_its_bounds_is_known() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(root.join("providers/a")).unwrap();
        assert!(!Boundary::new(&root, &[], &[]).incomplete);
        let deep = (0..=MAX_SCAN_DEPTH).fold(root.join("providers"), |dir, level| {
            dir.join(level.to_string())
        });
        std::fs::create_dir_all(deep.join("below")).unwrap();
        assert!(Boundary::new(&root, &[], &[]).incomplete);
    }

    /// Fourth review: a child stopped the server with `kill -STOP $PPID`, so no time limit
    /// fired again. Children may signal themselves and their own children only.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn children_cannot_signal_the_server() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let rules = rules(&dir.path().join("root"), &[]);
        let output = run(
            &rules,
            &format!(
                "kill -0 {server} 2>/dev/null && echo reached-server; \
                 kill -0 $$ && echo reached-self; \
                 sleep 5 & kill $! && echo reached-own-child",
                server = std::process::id()
            ),
        );
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "reached-self\nreached-own-child\n"
        );
    }

    /// Third review: a link inside a linked provider directory led to a writable policy.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn links_inside_a_linked_directory_are_followed_too() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let victim = dir.path().join("repo/victim");
        let shared = dir.path().join("repo/shared");
        for made in [&root.join("providers"), &victim, &shared] {
            std::fs::create_dir_all(made).unwrap();
        }
        std::fs::write(shared.join("victim-rules.yaml"), "accept: []\n").unwrap();
        std::fs::write(shared.join("other"), "kept\n").unwrap();
        std::os::unix::fs::symlink("../shared/victim-rules.yaml", victim.join("rules.yaml"))
            .unwrap();
        std::os::unix::fs::symlink(&victim, root.join("providers/victim")).unwrap();
        let rules = rules(&root, &[]);
        let output = run(
            &rules,
            &format!(
                "echo 'accept: [push]' > {shared}/victim-rules.yaml; cat {shared}/victim-rules.yaml; \
                 cat {shared}/other",
                shared = shared.display()
            ),
        );
        assert_eq!(String::from_utf8_lossy(&output.stdout), "kept\n");
        assert_eq!(
            std::fs::read_to_string(shared.join("victim-rules.yaml")).unwrap(),
            "accept: []\n"
        );
    }

    /// Red-team finding: a provider directory kept elsewhere and linked into the root was
    /// reachable at its real location.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn what_a_link_inside_the_root_points_to_is_denied_too() {
        require_landlock();
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
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn path_directories_can_be_run_from_but_not_changed() {
        require_landlock();
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
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_project_that_holds_a_path_directory_stays_listable() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("config/torii");
        let project = dir.path().join("project");
        let bin = project.join(".venv/bin");
        for made in [&root, &bin, &project.join("src")] {
            std::fs::create_dir_all(made).unwrap();
        }
        let rules = rules(&root, std::slice::from_ref(&bin));
        let output = run(
            &rules,
            &format!(
                "cd {project} && ls -A; echo x > src/f && cat src/f; touch new || echo refused; \
                 ls {config} || echo unlisted",
                project = project.display(),
                config = dir.path().join("config").display()
            ),
        );
        // In a mount namespace the project and the directories above the root take new
        // entries (the root is hidden); without one they are closed.
        let expected = if namespaces_work() {
            ".venv\nsrc\nx\ntorii\n"
        } else {
            ".venv\nsrc\nx\nrefused\nunlisted\n"
        };
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
    }

    /// Whether a launcher here enters a mount namespace for its children.
    fn namespaces_work() -> bool {
        let dir = tempfile::tempdir().unwrap();
        let rules = rules(&dir.path().join("root"), &[]);
        rules.launcher().unwrap().restriction() == Restriction::Namespace
    }

    fn require_namespaces() {
        require_landlock();
        assert!(
            namespaces_work(),
            "children cannot have a mount namespace here (user namespaces not allowed)"
        );
    }

    /// Issue 35: with the root at `~/.config/torii`, a child could create nothing directly in
    /// `~` or `~/.config`, so a CLI's first run (`~/.kube`, `~/.config/gcloud`) failed under
    /// Torii. In its own mount namespace it creates them, the root stays unreadable and
    /// unwritable, nothing on the way to it can be moved aside, and the agents' files and the
    /// `PATH` directories stay read-only.
    #[test]
    #[ignore = "needs a kernel with Landlock and user namespaces; run by ./scripts/test.sh"]
    fn a_first_run_creates_its_directories_beside_the_root() {
        require_namespaces();
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let root = home.join(".config/torii");
        let bin = home.join(".local/bin");
        let agent_file = home.join(".claude.json");
        std::fs::create_dir_all(root.join("providers")).unwrap();
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(root.join("rules.yaml"), "secret").unwrap();
        std::fs::write(bin.join("kubectl"), "#!/bin/sh\n").unwrap();
        std::fs::write(&agent_file, "{}").unwrap();
        let rules = Rules::new(
            Boundary::new(
                &root,
                std::slice::from_ref(&bin),
                std::slice::from_ref(&agent_file),
            ),
            crate::confine::launcher::default_program(),
        );
        let output = run(
            &rules,
            &format!(
                "cd {home} && mkdir .kube && echo c > .kube/config && mkdir -p .config/gcloud \
                 && echo n > newfile && echo created; \
                 cat .config/torii/rules.yaml; echo x > .config/torii/new; \
                 mv .config moved; rm -r .config; ln -s /tmp .config/torii2 && echo linked; \
                 echo evil > .claude.json; echo evil > .local/bin/kubectl; \
                 touch .local/bin/planted; echo done",
                home = home.display()
            ),
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stdout, "created\nlinked\ndone\n", "{stderr}");
        assert_eq!(
            std::fs::read_to_string(home.join(".kube/config")).unwrap(),
            "c\n"
        );
        assert!(home.join(".config/gcloud").is_dir());
        assert!(home.join("newfile").is_file());
        // The root, the way to it, the agent's file and the program are as they were.
        assert_eq!(
            std::fs::read_to_string(root.join("rules.yaml")).unwrap(),
            "secret"
        );
        assert!(!root.join("new").exists());
        assert!(!home.join("moved").exists());
        assert_eq!(std::fs::read_to_string(&agent_file).unwrap(), "{}");
        assert_eq!(
            std::fs::read_to_string(bin.join("kubectl")).unwrap(),
            "#!/bin/sh\n"
        );
        assert!(!bin.join("planted").exists());
        // Every attempt failed in the child (and what it created on its first run stays until
        // the next child, which has full rights on it).
        for refused in [
            "rules.yaml",
            "torii/new",
            "moved",
            "remove '.config/torii'",
            ".claude.json",
            "kubectl",
            "planted",
        ] {
            assert!(stderr.contains(refused), "{refused}: {stderr}");
        }
    }

    /// Red-team finding: a child running as root in its namespace kept `CAP_SYS_ADMIN`, and
    /// Landlock forbids `mount` and `umount` but not `open_tree` (a copy of `~` without the
    /// tmpfs: the root read and written) nor `mount_setattr` (a read-only bind made writable).
    /// The mounts are now sealed by a second namespace and the capabilities dropped.
    #[test]
    #[ignore = "needs a kernel with Landlock and user namespaces, and python3; run by ./scripts/test.sh"]
    fn a_child_cannot_take_the_mounts_apart() {
        require_namespaces();
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let root = home.join(".config/torii");
        let bin = home.join(".local/bin");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(root.join("rules.yaml"), "secret").unwrap();
        std::fs::write(bin.join("aws"), "real\n").unwrap();
        let rules = Rules::new(
            Boundary::new(&root, std::slice::from_ref(&bin), &[]),
            crate::confine::launcher::default_program(),
        );
        // open_tree(AT_FDCWD, home, OPEN_TREE_CLONE), then the root through that copy; then
        // mount_setattr(bin, AT_RECURSIVE, clear MOUNT_ATTR_RDONLY) and a write.
        let script = format!(
            r#"
import ctypes, os, struct
libc = ctypes.CDLL(None, use_errno=True)
tree = libc.syscall(428, -100, b"{home}", 1)
try:
    print("read", open(os.open(".config/torii/rules.yaml", os.O_RDONLY, dir_fd=tree)).read())
except Exception as error:
    print("refused", type(error).__name__, tree)
attr = ctypes.create_string_buffer(struct.pack("QQQQ", 0, 1, 0, 0))
print("setattr", libc.syscall(442, -100, b"{bin}", 0x8000, attr, 32))
try:
    open("{bin}/aws", "w").write("evil")
    print("wrote")
except Exception as error:
    print("refused", type(error).__name__)
"#,
            home = home.display(),
            bin = bin.display()
        );
        let output = run(&rules, &format!("python3 -c '{script}'"));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(!stdout.contains("read secret"), "{stdout}");
        assert!(!stdout.contains("wrote"), "{stdout}");
        assert!(stdout.contains("setattr -1"), "{stdout}");
        assert_eq!(std::fs::read_to_string(bin.join("aws")).unwrap(), "real\n");
        assert_eq!(
            std::fs::read_to_string(root.join("rules.yaml")).unwrap(),
            "secret"
        );
    }

    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_directory_created_later_is_reachable_by_the_next_child() {
        require_landlock();
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
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn the_calling_thread_stays_unrestricted() {
        require_landlock();
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
            &[],
        );
        assert!(boundary.holds_denied(Path::new("/nonexistent/a")));
        assert!(!boundary.holds_denied(Path::new("/nonexistent/b/bin")));
        assert!(boundary.levels[Path::new("/nonexistent")].contains(&OsString::from("a")));
    }

    /// Red-team finding (second pass): with `~/.dotnet` and `~/.dotnet/tools` both on `PATH`,
    /// the entries beside `tools` got full rights, so a child rewrote `~/.dotnet/dotnet`.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_path_directory_inside_another_keeps_both_read_only() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let dotnet = dir.path().join("home/.dotnet");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(dotnet.join("tools")).unwrap();
        std::fs::write(dotnet.join("dotnet"), "real\n").unwrap();
        let rules = rules(&root, &[dotnet.clone(), dotnet.join("tools")]);
        let output = run(
            &rules,
            &format!(
                "echo evil > {dotnet}/dotnet; cat {dotnet}/dotnet",
                dotnet = dotnet.display()
            ),
        );
        assert_eq!(String::from_utf8_lossy(&output.stdout), "real\n");
    }

    /// Red-team finding (second pass): the launcher thread shared its Landlock domain with every
    /// child, and Landlock allows `/proc/<pid>/mem` and `environ` within one domain. Each child
    /// now has a domain of its own: neither Torii nor another child can be read.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn children_cannot_read_each_other_or_the_parent() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir_all(&root).unwrap();
        let rules = rules(&root, &[]);
        // As an unprivileged user when the tests run as root: root's capabilities are another
        // matter (see the docs).
        let as_root = std::process::Command::new("id")
            .arg("-u")
            .output()
            .unwrap()
            .stdout
            == b"0\n";
        // A child in a user namespace of its own has only its own user: there it stays root,
        // which that namespace makes powerless over the others.
        let setpriv = "setpriv --reuid=65534 --regid=65534 --clear-groups";
        let unprivileged = if as_root && run(&rules, &format!("{setpriv} true")).status.success() {
            setpriv
        } else {
            ""
        };
        let holder = start(
            &rules,
            &format!("exec {unprivileged} env CHILD_SECRET=held-by-a sleep 30"),
        );
        // Until it has become `sleep`, with the secret in its environment.
        let started = std::time::Instant::now();
        while std::fs::read_to_string(format!("/proc/{}/comm", holder.id()))
            .is_ok_and(|comm| comm.trim() != "sleep")
        {
            assert!(started.elapsed() < std::time::Duration::from_secs(10));
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // And the launcher that started both, which held the secret a moment ago (its map
        // needs the same access as its memory, and is there to read at any offset).
        let launcher = rules.launcher().unwrap().id();
        let script = format!(
            "{unprivileged} sh -c 'cat /proc/{pid}/environ; cat /proc/{me}/environ; \
             for task in /proc/{me}/task/*; do head -c 1 $task/mem; done; \
             head -c 1 /proc/{launcher}/maps && echo read-launcher-memory' 2>&1",
            pid = holder.id(),
            me = std::process::id()
        );
        let unconfined = std::process::Command::new("/bin/sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        let reader = run(&rules, &script);
        holder.kill();
        let _ = holder.wait_with_output();
        // Without confinement the same user reads the other child and the launcher's
        // memory: the test can tell.
        let control = String::from_utf8_lossy(&unconfined.stdout);
        assert!(control.contains("held-by-a"), "{control}");
        assert!(control.contains("read-launcher-memory"), "{control}");
        let seen = String::from_utf8_lossy(&reader.stdout);
        assert!(!seen.contains("held-by-a"), "{seen}");
        assert!(!seen.contains("PATH="), "{seen}");
        assert!(!seen.contains("read-launcher-memory"), "{seen}");
    }

    /// Issue 39: children are started by a small launcher, not forked from the server. They
    /// are still the server's own children, hold nothing of the launcher (no descriptor, no
    /// capability) and are restricted each with a domain of its own.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_launched_child_is_the_servers_own_and_inherits_nothing() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let rules = rules(&dir.path().join("root"), &[]);
        let output = run(
            &rules,
            "grep -E '^(PPid|NoNewPrivs|CapInh|CapPrm|CapEff|CapAmb):' /proc/$$/status; \
             for fd in /proc/$$/fd/*; do echo \"fd $(readlink $fd)\"; done",
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        let field = |name: &str| {
            stdout
                .lines()
                .find_map(|line| line.strip_prefix(&format!("{name}:")))
                .map(str::trim)
                .unwrap_or_else(|| panic!("{name} missing: {stdout}"))
                .to_string()
        };
        assert_eq!(field("PPid"), std::process::id().to_string());
        assert_eq!(field("NoNewPrivs"), "1");
        // Outside a namespace, root's children are root as before; in one, or as anyone
        // else, they hold no capability.
        let namespace = rules.launcher().unwrap().restriction() == Restriction::Namespace;
        if namespace || !rustix::process::geteuid().is_root() {
            for set in ["CapInh", "CapPrm", "CapEff", "CapAmb"] {
                assert_eq!(field(set), "0000000000000000", "{set}: {stdout}");
            }
        }
        // Its stdin, stdout and stderr (and what the shell opened itself): not the launcher's
        // socket, nor a ruleset.
        let fds: Vec<&str> = stdout
            .lines()
            .filter_map(|line| line.strip_prefix("fd "))
            .collect();
        assert!(fds.contains(&"/dev/null"), "{stdout}");
        for fd in fds {
            assert!(
                !fd.starts_with("socket:") && !fd.contains("landlock"),
                "{stdout}"
            );
        }
    }

    /// A launcher that is gone (killed) fails the call that needed it, and starts nothing;
    /// the next call gets a new launcher.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_launcher_that_died_fails_the_call_and_is_replaced() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("root")).unwrap();
        let rules = rules(&dir.path().join("root"), &[]);
        let first = rules.launcher().unwrap();
        let pid = rustix::process::Pid::from_raw(first.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
        let ran = std::env::temp_dir().join(format!("torii-ran-{}", std::process::id()));
        let failed = testing::spawn(
            |start| first.start(start),
            &format!("touch {}", ran.display()),
        );
        assert!(
            matches!(
                failed,
                Err(crate::confine::launcher::StartError::Confine(_))
            ),
            "{:?}",
            failed.map(|child| child.id())
        );
        assert!(!ran.exists());
        drop(first);
        let output = run(&rules, &format!("touch {0} && ls {0}", ran.display()));
        assert!(output.status.success(), "{output:?}");
        assert!(ran.exists());
        std::fs::remove_file(&ran).unwrap();
        assert_ne!(
            rules.launcher().unwrap().id(),
            pid.as_raw_nonzero().get() as u32
        );
    }

    /// New rules, new launcher: the one of the old rules ends.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn changed_rules_get_a_new_launcher_and_the_old_one_ends() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let rules = rules(&dir.path().join("root"), &[]);
        // The same rules keep their launcher (tried again while other tests change `/tmp`,
        // a directory on the way to this root).
        let old = (0..50)
            .map(|_| rules.launcher().unwrap().id())
            .collect::<Vec<_>>()
            .windows(2)
            .find(|pair| pair[0] == pair[1])
            .map(|pair| pair[0])
            .expect("the same rules kept their launcher");
        std::fs::create_dir(dir.path().join("later")).unwrap();
        let new = rules.launcher().unwrap().id();
        assert_ne!(new, old);
        let started = std::time::Instant::now();
        while std::path::Path::new(&format!("/proc/{old}")).exists() {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(5),
                "{old} still runs"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// An argument `execve` could not carry (a NUL byte, a command line far past `ARG_MAX`)
    /// fails the start as the program's error, and the launcher serves the next call.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn an_argument_exec_cannot_carry_fails_the_start_not_the_launcher() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let rules = rules(&dir.path().join("root"), &[]);
        let launcher = rules.launcher().unwrap();
        let huge = "x".repeat(17 << 20);
        for script in ["echo a\0b", huge.as_str()] {
            let refused = testing::spawn(|start| launcher.start(start), script);
            assert!(
                matches!(
                    refused,
                    Err(crate::confine::launcher::StartError::Program(_))
                ),
                "{:?}",
                refused.map(|child| child.id())
            );
        }
        assert!(!launcher.is_broken());
        let output = testing::spawn(|start| launcher.start(start), "echo served").unwrap();
        assert_eq!(output.wait_with_output().stdout, b"served\n");
    }

    /// Red-team finding (issue 39): descriptors the server inherited from its client without
    /// close-on-exec reached every child. The launcher marks them all close-on-exec.
    #[test]
    #[ignore = "needs a kernel with Landlock; run by ./scripts/test.sh"]
    fn a_descriptor_the_server_inherited_does_not_reach_a_child() {
        require_landlock();
        let dir = tempfile::tempdir().unwrap();
        let inherited = dir.path().join("inherited-by-the-server");
        std::fs::write(&inherited, "x").unwrap();
        // Opened without close-on-exec, before the launcher starts: the launcher inherits it.
        let fd = rustix::fs::open(
            &inherited,
            rustix::fs::OFlags::RDONLY,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
        let rules = rules(&dir.path().join("root"), &[]);
        let output = run(&rules, "readlink /proc/$$/fd/*");
        drop(fd);
        let seen = String::from_utf8_lossy(&output.stdout);
        assert!(seen.contains("/dev/null"), "{seen}");
        assert!(!seen.contains("inherited-by-the-server"), "{seen}");
    }
}

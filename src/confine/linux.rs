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
//! here beforehand, so every child has a domain of its own and no thread of Torii is ever
//! restricted. The ruleset is rebuilt when one of the containing directories changes (its
//! modification time), so an entry created after startup is reachable by the next child; until
//! then the old ruleset can only deny more, never less.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use landlock::{
    ABI, Access, AccessFs, BitFlags, LandlockStatus, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

use super::{ConfineError, Support};

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
}

impl Boundary {
    /// The boundary for the config root `root` (absolute, as configured: the links on the way
    /// matter) and the directories children must not change.
    pub(super) fn new(root: &Path, read_only: &[PathBuf]) -> Self {
        let mut boundary = Boundary::default();
        let real_root = boundary.leave_out(root);
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

/// The rules for one boundary, built into a Landlock ruleset when first needed and again when
/// a containing directory changes.
#[derive(Debug)]
pub(super) struct Rules {
    boundary: Boundary,
    cache: Mutex<Option<Cached>>,
}

#[derive(Debug)]
struct Cached {
    stamps: Vec<Option<Stamp>>,
    ruleset: Arc<OwnedFd>,
}

/// What changes when entries are added to, removed from or renamed in a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    mtime: i64,
    mtime_nsec: i64,
}

/// The ruleset a prepared command's child restricts itself with: held until the spawn
/// returned, so its descriptor is open in the child.
#[derive(Debug)]
pub(super) struct Held(#[allow(dead_code)] Arc<OwnedFd>);

impl Rules {
    pub(super) fn new(boundary: Boundary) -> Self {
        Self {
            boundary,
            cache: Mutex::new(None),
        }
    }

    /// Whether the search for links under the root stopped at one of its bounds.
    pub(super) fn incomplete(&self) -> bool {
        self.boundary.incomplete
    }

    /// The directories on the way to a denied or read-only path: they get no rule of their
    /// own, so a child can use what is already in them but cannot create, rename or remove
    /// entries directly in them.
    pub(super) fn closed_dirs(&self) -> Vec<PathBuf> {
        self.boundary.dirs().map(Path::to_path_buf).collect()
    }

    /// Makes the child of `command` restrict itself with the rules before it runs.
    pub(super) fn prepare(
        &self,
        command: &mut std::process::Command,
    ) -> Result<Held, ConfineError> {
        let ruleset = self
            .current()
            .map_err(|source| ConfineError::Restrict { source })?;
        super::sys::restrict_before_exec(command, ruleset.as_raw_fd());
        Ok(Held(ruleset))
    }

    /// The ruleset for the file system as it is now.
    fn current(&self) -> io::Result<Arc<OwnedFd>> {
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let stamps = self.stamps();
        if let Some(cached) = cache.as_ref().filter(|cached| cached.stamps == stamps) {
            return Ok(Arc::clone(&cached.ruleset));
        }
        let created = self.build()?;
        let ruleset: Option<OwnedFd> = created.into();
        let ruleset = Arc::new(ruleset.ok_or_else(|| landlock_error("no ruleset was created"))?);
        *cache = Some(Cached {
            stamps,
            ruleset: Arc::clone(&ruleset),
        });
        Ok(ruleset)
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
        // Signals too, where the kernel has that scope (Landlock ABI 6; dropped silently on
        // an older one): a child may signal its own descendants, never the server, its window
        // or another call's child (a SIGSTOP to the server would freeze every time limit).
        let mut ruleset = Ruleset::default()
            .handle_access(dir_rights())
            .and_then(|ruleset| ruleset.scope(Scope::Signal))
            .and_then(|ruleset| ruleset.create())
            .map_err(landlock_error)?;
        let boundary = &self.boundary;
        for (dir, kept_apart) in &boundary.levels {
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

    fn start(rules: &Rules, script: &str) -> std::process::Child {
        let mut command = std::process::Command::new("/bin/sh");
        command
            .args(["-c", script])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let _held = rules.prepare(&mut command).unwrap();
        command.spawn().unwrap()
    }

    fn run(rules: &Rules, script: &str) -> std::process::Output {
        start(rules, script).wait_with_output().unwrap()
    }

    /// These tests are ignored by default, with that reason, and fail where they run on a
    /// kernel that does not enforce Landlock: they never pass without testing anything.
    fn require_landlock() {
        if let Support::Unavailable { reason } = probe() {
            panic!("Landlock is not enforced on this kernel ({reason})");
        }
    }

    fn rules(root: &Path, read_only: &[PathBuf]) -> Rules {
        Rules::new(Boundary::new(root, read_only))
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
        assert_eq!(stdout, "public\ny\n", "{stderr}");
        assert_eq!(stderr.matches("Permission denied").count(), 4, "{stderr}");
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
        assert!(!Boundary::new(&root, &[]).incomplete);
        let deep = (0..=MAX_SCAN_DEPTH).fold(root.join("providers"), |dir, level| {
            dir.join(level.to_string())
        });
        std::fs::create_dir_all(deep.join("below")).unwrap();
        assert!(Boundary::new(&root, &[]).incomplete);
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
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            ".venv\nsrc\nx\nrefused\nunlisted\n"
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
        let unprivileged = if as_root {
            "setpriv --reuid=65534 --regid=65534 --clear-groups"
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
        let script = format!(
            "{unprivileged} sh -c 'cat /proc/{pid}/environ; cat /proc/{me}/environ; \
             for task in /proc/{me}/task/*; do head -c 1 $task/mem; done' 2>&1",
            pid = holder.id(),
            me = std::process::id()
        );
        let unconfined = std::process::Command::new("/bin/sh")
            .args(["-c", &script])
            .output()
            .unwrap();
        let reader = run(&rules, &script);
        let mut holder = holder;
        let _ = holder.kill();
        let _ = holder.wait();
        // Without confinement the same user reads the other child: the test can tell.
        let control = String::from_utf8_lossy(&unconfined.stdout);
        assert!(control.contains("held-by-a"), "{control}");
        let seen = String::from_utf8_lossy(&reader.stdout);
        assert!(!seen.contains("held-by-a"), "{seen}");
        assert!(!seen.contains("PATH="), "{seen}");
    }
}

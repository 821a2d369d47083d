//! Resolution of a provider's bare command name (`aws`, `kubectl`) to an absolute executable.
//!
//! Only `PATH` is searched, entry by entry, in order. Entries that could point at a directory an
//! agent may write to are skipped: empty entries, `.` and every other relative entry (they resolve
//! against the current directory), the current directory and every directory under it (a
//! project's `.venv/bin` or `node_modules/.bin`), and the directory of the Torii binary. A file
//! dropped in any of those must never shadow the provider CLI. The result is an absolute path,
//! so the launched child is never searched for again under another `PATH`.
//!
//! One exception keeps Torii usable when a client starts it in `/` or in the home directory
//! (or above it): then only the current directory itself is skipped, not the tree under it,
//! which would be every CLI installed in `~/.local/bin` or `/usr/bin`.
//!
//! On Windows each directory is combined with the `PATHEXT` extensions in order, so `az` finds
//! `az.cmd`, which is all the Azure CLI installs.

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use super::RunError;

/// Resolves `command` in the process's `PATH`, excluding the current directory (and what is under
/// it) and the directory of the running executable (see [`default_excluded`]). The exclusions
/// are worked out once per process: Torii never changes its current directory, its executable
/// or `HOME`.
pub fn resolve(command: &str) -> Result<PathBuf, RunError> {
    static EXCLUDED: std::sync::OnceLock<Excluded> = std::sync::OnceLock::new();
    static SEARCHED: std::sync::Mutex<SearchedDirs> = std::sync::Mutex::new(SearchedDirs::new());
    let excluded = match EXCLUDED.get() {
        Some(excluded) => excluded,
        None => {
            let excluded = default_excluded()?;
            EXCLUDED.get_or_init(|| excluded)
        }
    };
    check_bare_name(command)?;
    let path = std::env::var_os("PATH").unwrap_or_default();
    // A poisoned lock only means another call panicked mid-update; the value is replaced whole,
    // never left half-written, so it is still one PATH's complete answer.
    let dirs = SEARCHED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .for_path(&path, excluded);
    find_first(&dirs, command)
}

/// The directories of one `PATH` value that may be searched, kept for the next call.
///
/// Working them out canonicalizes every entry (a `readlink` per component), which would be most
/// of a trivial call's own work if done each time. Keeping the answer cannot let a call find
/// anything it could not find otherwise:
/// - it is keyed by the `PATH` value, so a different `PATH` is worked out afresh;
/// - the exclusions it was computed against are fixed for the process (see [`resolve`]);
/// - a `PATH` entry whose symlinks are later pointed somewhere else could only become excluded
///   by pointing into the current directory's tree, and whoever can retarget an entry can
///   already put an executable in the directory it names, kept or not;
/// - the executable itself is looked up again in these directories on every call, and the
///   launcher is handed its absolute path.
#[derive(Debug)]
struct SearchedDirs {
    computed: Option<(std::ffi::OsString, Arc<[PathBuf]>)>,
}

impl SearchedDirs {
    const fn new() -> Self {
        Self { computed: None }
    }

    fn for_path(&mut self, path: &OsStr, excluded: &Excluded) -> Arc<[PathBuf]> {
        match &self.computed {
            Some((computed_for, dirs)) if computed_for == path => Arc::clone(dirs),
            _ => {
                let dirs: Arc<[PathBuf]> = searchable_dirs(Some(path), excluded).into();
                self.computed = Some((path.to_os_string(), Arc::clone(&dirs)));
                dirs
            }
        }
    }
}

/// `PATH` directories that are never searched, each as given and canonicalized.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Excluded {
    /// Skipped themselves.
    dirs: Vec<PathBuf>,
    /// Skipped with everything under them.
    trees: Vec<PathBuf>,
}

impl Excluded {
    /// `dirs` skipped themselves and `trees` skipped with everything under them, compared as
    /// given and after canonicalization (a symlink to an excluded directory is excluded too).
    pub fn new(dirs: Vec<PathBuf>, trees: Vec<PathBuf>) -> Self {
        let both = |paths: Vec<PathBuf>| -> Vec<PathBuf> {
            paths
                .into_iter()
                .flat_map(|path| {
                    let real = canonical(&path);
                    [path, real]
                })
                .collect()
        };
        Self {
            dirs: both(dirs),
            trees: both(trees),
        }
    }

    /// The directories skipped themselves (as given and canonicalized).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The directories skipped with their trees (as given and canonicalized).
    pub fn trees(&self) -> &[PathBuf] {
        &self.trees
    }
}

/// What [`resolve`] never searches: the current directory and the directory of the running
/// executable, and the tree under the current directory unless that is `/`, the home directory
/// or one of its ancestors. If either directory cannot be determined the search is refused,
/// not widened.
pub fn default_excluded() -> Result<Excluded, RunError> {
    let (current_dir, exe_dir) = current_and_exe_dirs()?;
    // `HOME` on Unix, the profile directory (`USERPROFILE`) on Windows: a client started in
    // `C:\Users\me` must still find the CLIs installed under `AppData`.
    let home = std::env::home_dir().filter(|home| !home.as_os_str().is_empty());
    let trees = tree_below(&current_dir, home.as_deref())
        .into_iter()
        .collect();
    Ok(Excluded::new(vec![current_dir, exe_dir], trees))
}

/// The current directory as an excluded tree, unless it holds the home directory (or is `/`).
fn tree_below(current_dir: &Path, home: Option<&Path>) -> Option<PathBuf> {
    let current = canonical(current_dir);
    // `/` holds everything.
    current.parent()?;
    let holds_home = home.is_some_and(|home| canonical(home).starts_with(&current));
    (!holds_home).then_some(current)
}

fn current_and_exe_dirs() -> Result<(PathBuf, PathBuf), RunError> {
    let current_dir = std::env::current_dir().map_err(|source| RunError::ExclusionUnknown {
        what: "the current directory",
        source,
    })?;
    let exe_dir = std::env::current_exe()
        .and_then(|exe| match exe.parent() {
            Some(dir) => Ok(dir.to_path_buf()),
            None => Err(io::Error::other(
                "the executable path has no parent directory",
            )),
        })
        .map_err(|source| RunError::ExclusionUnknown {
            what: "the directory of the Torii executable",
            source,
        })?;
    Ok((current_dir, exe_dir))
}

/// Finds `command` in the directories of `path` (a `PATH`-style list), skipping relative and
/// empty entries, any entry that is (before or after canonicalization) one of `excluded.dirs`,
/// and any entry under one of `excluded.trees`. Returns the absolute path of the first match.
pub fn resolve_executable(
    command: &str,
    path: Option<&OsStr>,
    excluded: &Excluded,
) -> Result<PathBuf, RunError> {
    check_bare_name(command)?;
    find_first(&searchable_dirs(path, excluded), command)
}

fn check_bare_name(command: &str) -> Result<(), RunError> {
    if is_bare_name(command) {
        Ok(())
    } else {
        Err(RunError::InvalidCommand {
            command: command.to_string(),
        })
    }
}

/// The entries of `path`, in order, that [`is_searchable`] keeps.
fn searchable_dirs(path: Option<&OsStr>, excluded: &Excluded) -> Vec<PathBuf> {
    path.into_iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| is_searchable(dir, &excluded.dirs, &excluded.trees))
        .collect()
}

fn find_first(dirs: &[PathBuf], command: &str) -> Result<PathBuf, RunError> {
    dirs.iter()
        .find_map(|dir| find_in_dir(dir, command))
        .ok_or_else(|| RunError::NotFound {
            command: command.to_string(),
        })
}

/// A bare name is a single normal path component: no separator, no root or drive, not `..`.
/// Anything else would make `dir.join(command)` escape the `PATH` directory.
fn is_bare_name(command: &str) -> bool {
    let mut components = Path::new(command).components();
    matches!(
        (components.next(), components.next()),
        (Some(Component::Normal(name)), None) if name == OsStr::new(command)
    )
}

fn is_searchable(dir: &Path, dirs: &[PathBuf], trees: &[PathBuf]) -> bool {
    // Empty entries, `.` and other relative entries all resolve against the current directory.
    if !dir.is_absolute() {
        return false;
    }
    let canonical = canonical(dir);
    let is_excluded_dir = dirs.iter().any(|skip| skip == dir || *skip == canonical);
    let is_in_excluded_tree = trees
        .iter()
        .any(|tree| dir.starts_with(tree) || canonical.starts_with(tree));
    !is_excluded_dir && !is_in_excluded_tree
}

/// The canonical form when it exists; otherwise the path as given (it is compared as well).
fn canonical(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

#[cfg(unix)]
fn find_in_dir(dir: &Path, command: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;

    let candidate = dir.join(command);
    // `metadata` follows symlinks: what matters is the file that would be executed.
    let metadata = std::fs::metadata(&candidate).ok()?;
    let executable = metadata.is_file() && metadata.permissions().mode() & 0o111 != 0;
    executable.then_some(candidate)
}

#[cfg(windows)]
fn find_in_dir(dir: &Path, command: &str) -> Option<PathBuf> {
    // The server's own PATHEXT, read once: it never changes while the process runs.
    static EXTENSIONS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let extensions =
        EXTENSIONS.get_or_init(|| path_extensions(std::env::var("PATHEXT").ok().as_deref()));
    windows_candidates(dir, command, extensions)
        .find(|candidate| std::fs::metadata(candidate).is_ok_and(|metadata| metadata.is_file()))
}

/// What Windows would run for `command` in `dir`, in the order tried: the name with each
/// `PATHEXT` extension, never the bare name (CreateProcess cannot run a file without one).
/// A plain function, so that the order is tested on every system.
#[cfg_attr(not(windows), allow(dead_code))]
fn windows_candidates<'a>(
    dir: &'a Path,
    command: &'a str,
    extensions: &'a [String],
) -> impl Iterator<Item = PathBuf> + 'a {
    extensions
        .iter()
        .map(move |extension| dir.join(format!("{command}{extension}")))
}

/// The extensions of a `PATHEXT` value in order (`.COM;.EXE;.BAT;.CMD` when unset). An entry
/// must look like an extension, so it cannot add a path component to the candidate.
#[cfg_attr(not(windows), allow(dead_code))]
fn path_extensions(pathext: Option<&str>) -> Vec<String> {
    pathext
        .unwrap_or(".COM;.EXE;.BAT;.CMD")
        .split(';')
        .filter(|extension| {
            extension.len() > 1
                && extension.starts_with('.')
                && !extension.contains(['/', '\\', ':'])
        })
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pathext_is_tried_in_its_order_and_only_extensions_count() {
        let strings = |values: &[&str]| {
            values
                .iter()
                .map(|value| value.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            path_extensions(None),
            strings(&[".COM", ".EXE", ".BAT", ".CMD"])
        );
        // Empty entries, names without a dot, a lone dot and anything with a separator or a
        // drive are dropped.
        assert_eq!(
            path_extensions(Some(".EXE;;.CMD;cmd;.;..\\x;./x;C:.x;.PS1")),
            strings(&[".EXE", ".CMD", ".PS1"])
        );
        let dir = Path::new("bin");
        let extensions = path_extensions(Some(".EXE;.CMD"));
        let candidates: Vec<PathBuf> = windows_candidates(dir, "az", &extensions).collect();
        assert_eq!(candidates, [dir.join("az.EXE"), dir.join("az.CMD")]);
    }

    /// The Azure CLI installs `az.cmd` only; one in the current directory is never run.
    #[test]
    #[cfg(windows)]
    fn az_finds_az_cmd_through_pathext_and_never_in_the_current_directory() {
        let temp = tempfile::tempdir().unwrap();
        let (current, bin) = (temp.path().join("project"), temp.path().join("bin"));
        for dir in [&current, &bin] {
            std::fs::create_dir(dir).unwrap();
            std::fs::write(dir.join("az.cmd"), "@echo off\r\n").unwrap();
        }
        std::fs::write(bin.join("az"), "not a program").unwrap();
        let path = std::env::join_paths([&current, &bin]).unwrap();
        let excluded = Excluded::new(vec![current.clone()], vec![current.clone()]);
        let found = resolve_executable("az", Some(&path), &excluded).unwrap();
        assert_eq!(canonical(&found), canonical(&bin.join("az.cmd")));
    }

    #[test]
    fn only_bare_names_are_accepted() {
        for name in ["aws", "kubectl", "az", "snow.cli", "a-b_c"] {
            assert!(is_bare_name(name), "{name}");
        }
        for name in [
            "", ".", "..", "/bin/sh", "bin/sh", "./aws", "aws/", "../aws",
        ] {
            assert!(!is_bare_name(name), "{name:?}");
        }
    }

    #[test]
    fn a_path_as_command_is_refused_before_any_lookup() {
        let error = resolve_executable(
            "/bin/sh",
            Some(OsStr::new("/usr/bin")),
            &Excluded::default(),
        );
        assert!(matches!(error, Err(RunError::InvalidCommand { .. })));
    }

    #[test]
    fn the_tree_under_the_current_directory_is_excluded_unless_it_holds_home() {
        let home = Path::new("/home/u");
        assert_eq!(
            tree_below(Path::new("/nonexistent/project"), Some(home)),
            Some(PathBuf::from("/nonexistent/project"))
        );
        assert_eq!(tree_below(Path::new("/"), Some(home)), None);
        assert_eq!(tree_below(Path::new("/home/u"), Some(home)), None);
        assert_eq!(tree_below(Path::new("/home"), Some(home)), None);
        assert_eq!(
            tree_below(Path::new("/home/u/project"), Some(home)),
            Some(PathBuf::from("/home/u/project"))
        );
        assert_eq!(
            tree_below(Path::new("/srv"), None),
            Some(PathBuf::from("/srv"))
        );
    }

    /// The kept directories follow `PATH`: a new value is worked out afresh, and an excluded
    /// entry stays excluded through the cache.
    #[test]
    fn the_searched_directories_are_worked_out_again_when_path_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b, project) = (
            dir.path().join("a"),
            dir.path().join("b"),
            dir.path().join("p"),
        );
        let excluded = Excluded::new(Vec::new(), vec![project.clone()]);
        let join = |dirs: &[&Path]| std::env::join_paths(dirs).unwrap();
        let mut searched = SearchedDirs::new();

        let mut dirs = |path: &OsStr| searched.for_path(path, &excluded).to_vec();
        assert_eq!(dirs(&join(&[&a, &project])), vec![a.clone()]);
        assert_eq!(dirs(&join(&[&b])), vec![b.clone()]);
        assert_eq!(
            dirs(&join(&[&project.join("bin"), &a, &b])),
            [a.clone(), b.clone()]
        );
        assert_eq!(dirs(OsStr::new("")), Vec::<PathBuf>::new());
    }

    /// The executable is looked up on every call, not kept: one that appears, or stops being
    /// executable, after the directories were worked out is seen at once.
    #[cfg(unix)]
    #[test]
    fn the_executable_is_looked_up_again_on_every_call() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let mut searched = SearchedDirs::new();
        let path = bin.clone().into_os_string();
        let excluded = Excluded::default();

        let lookup = |searched: &mut SearchedDirs| {
            find_first(&searched.for_path(&path, &excluded), "tool").ok()
        };
        assert_eq!(lookup(&mut searched), None);
        let tool = bin.join("tool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(lookup(&mut searched), Some(tool.clone()));
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(lookup(&mut searched), None);
    }

    #[test]
    fn no_path_means_not_found() {
        let error =
            resolve_executable("sh", None, &Excluded::default()).map_err(|error| error.to_string());
        assert_eq!(
            error,
            Err(String::from("could not find the executable `sh` in PATH"))
        );
    }
}

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

use super::RunError;

/// Resolves `command` in the process's `PATH`, excluding the current directory (and what is under
/// it) and the directory of the running executable (see [`default_excluded`]). The exclusions
/// are worked out once per process: Torii never changes its current directory, its executable
/// or `HOME`.
pub fn resolve(command: &str) -> Result<PathBuf, RunError> {
    static EXCLUDED: std::sync::OnceLock<Excluded> = std::sync::OnceLock::new();
    let excluded = match EXCLUDED.get() {
        Some(excluded) => excluded,
        None => {
            let excluded = default_excluded()?;
            EXCLUDED.get_or_init(|| excluded)
        }
    };
    resolve_executable(command, std::env::var_os("PATH").as_deref(), excluded)
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
    let home = std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from);
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
    if !is_bare_name(command) {
        return Err(RunError::InvalidCommand {
            command: command.to_string(),
        });
    }
    let found = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| is_searchable(dir, &excluded.dirs, &excluded.trees))
        .find_map(|dir| find_in_dir(&dir, command));
    found.ok_or_else(|| RunError::NotFound {
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
    path_extensions().into_iter().find_map(|extension| {
        let candidate = dir.join(format!("{command}{extension}"));
        let metadata = std::fs::metadata(&candidate).ok()?;
        metadata.is_file().then_some(candidate)
    })
}

/// `PATHEXT` entries in order (`.COM;.EXE;.BAT;.CMD` when unset). An entry must look like an
/// extension, so it cannot add a path component to the candidate.
#[cfg(windows)]
fn path_extensions() -> Vec<String> {
    let value = std::env::var("PATHEXT").unwrap_or_else(|_| String::from(".COM;.EXE;.BAT;.CMD"));
    value
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

//! Resolution of a provider's bare command name (`aws`, `kubectl`) to an absolute executable.
//!
//! Only `PATH` is searched, entry by entry, in order. Entries that could point at a directory an
//! agent may write to are skipped: empty entries, `.` and every other relative entry (they resolve
//! against the current directory), the current directory itself and the directory of the Torii
//! binary. A file dropped in any of those must never shadow the provider CLI. The result is an
//! absolute path, so the launched child is never searched for again under another `PATH`.
//!
//! On Windows each directory is combined with the `PATHEXT` extensions in order, so `az` finds
//! `az.cmd`, which is all the Azure CLI installs.

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::RunError;

/// Resolves `command` in the process's `PATH`, excluding the current directory and the directory
/// of the running executable (see [`default_excluded_dirs`]).
pub fn resolve(command: &str) -> Result<PathBuf, RunError> {
    let excluded = default_excluded_dirs()?;
    resolve_executable(command, std::env::var_os("PATH").as_deref(), &excluded)
}

/// The directories [`resolve`] never searches: the current directory and the directory of the
/// running executable. If either cannot be determined the search is refused, not widened.
pub fn default_excluded_dirs() -> Result<Vec<PathBuf>, RunError> {
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
    Ok(vec![current_dir, exe_dir])
}

/// Finds `command` in the directories of `path` (a `PATH`-style list), skipping relative and
/// empty entries and any entry that is, before or after canonicalization, one of
/// `excluded_dirs`. Returns the absolute path of the first match.
pub fn resolve_executable(
    command: &str,
    path: Option<&OsStr>,
    excluded_dirs: &[PathBuf],
) -> Result<PathBuf, RunError> {
    if !is_bare_name(command) {
        return Err(RunError::InvalidCommand {
            command: command.to_string(),
        });
    }
    let excluded: Vec<PathBuf> = excluded_dirs
        .iter()
        .flat_map(|dir| [dir.clone(), canonical(dir)])
        .collect();
    let found = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .filter(|dir| is_searchable(dir, &excluded))
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

fn is_searchable(dir: &Path, excluded: &[PathBuf]) -> bool {
    // Empty entries, `.` and other relative entries all resolve against the current directory.
    if !dir.is_absolute() {
        return false;
    }
    let canonical = canonical(dir);
    !excluded
        .iter()
        .any(|skip| skip == dir || *skip == canonical)
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
        let error = resolve_executable("/bin/sh", Some(OsStr::new("/usr/bin")), &[]);
        assert!(matches!(error, Err(RunError::InvalidCommand { .. })));
    }

    #[test]
    fn no_path_means_not_found() {
        let error = resolve_executable("sh", None, &[]).map_err(|error| error.to_string());
        assert_eq!(
            error,
            Err(String::from("could not find the executable `sh` in PATH"))
        );
    }
}

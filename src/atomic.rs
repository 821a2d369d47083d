//! Atomic replacement of state files: write a temporary file beside the target, flush it to
//! disk, then rename it over the target. A reader sees the old file or the new one, never half.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writing a state file failed; the previous file, if any, is untouched.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

impl WriteError {
    pub fn new(path: &Path, source: std::io::Error) -> Self {
        Self {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The directory holding `path` (`.` for a bare file name).
pub fn containing_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Who may read the new file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// Owner read/write only (credentials, sessions, leases, settings).
    Private,
    /// The permissions of the file being replaced (a client's own configuration file).
    Keep(std::fs::Permissions),
}

/// Replaces `path` with `contents` atomically (temp file in the same directory, fsync, rename,
/// fsync of the directory).
pub fn write(path: &Path, contents: &[u8], access: Access) -> Result<(), WriteError> {
    let fail = |source| WriteError::new(path, source);
    let dir = containing_dir(path);
    let mut temp = tempfile::Builder::new()
        .prefix(".torii-tmp-")
        .tempfile_in(dir)
        .map_err(fail)?;
    set_access(temp.as_file(), access).map_err(fail)?;
    temp.write_all(contents).map_err(fail)?;
    temp.as_file().sync_all().map_err(fail)?;
    temp.persist(path).map_err(|error| fail(error.error))?;
    sync_directory(dir);
    Ok(())
}

/// Makes the rename itself survive a power loss. Best effort on purpose: the new file is
/// already in place, so reporting an error here would tell the caller that the old state
/// stands when it does not.
#[cfg(unix)]
fn sync_directory(dir: &Path) {
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(not(unix))]
fn sync_directory(_dir: &Path) {}

#[cfg(unix)]
fn set_access(file: &std::fs::File, access: Access) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    match access {
        Access::Private => file.set_permissions(std::fs::Permissions::from_mode(0o600)),
        Access::Keep(permissions) => file.set_permissions(permissions),
    }
}

#[cfg(not(unix))]
fn set_access(file: &std::fs::File, access: Access) -> std::io::Result<()> {
    match access {
        Access::Private => Ok(()),
        Access::Keep(permissions) => file.set_permissions(permissions),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_contents_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.yaml");
        write(&path, b"one", Access::Private).unwrap();
        write(&path, b"two", Access::Private).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn private_files_are_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret");
        write(&path, b"x", Access::Private).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn missing_directory_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("absent").join("state.yaml");
        let error = write(&path, b"x", Access::Private).unwrap_err();
        assert!(error.to_string().contains("state.yaml"), "{error}");
    }
}

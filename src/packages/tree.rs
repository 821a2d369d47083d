//! A package given as a directory: copied into staging under the same rules as an archive
//! (regular files and directories only, no links or special files, same limits), and the
//! digest recorded for it in the lock.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::PackageError;
use super::limits::{Budget, entry_path};

/// Copies the package directory `source` into the empty directory `dest`.
pub fn copy_tree(source: &Path, dest: &Path) -> Result<(), PackageError> {
    let location = source.display().to_string();
    let mut budget = Budget::default();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let dir = source.join(&relative);
        let entries = std::fs::read_dir(&dir).map_err(|error| PackageError::read(&dir, error))?;
        let mut children = Vec::new();
        for entry in entries {
            children.push(entry.map_err(|error| PackageError::read(&dir, error))?);
        }
        children.sort_by_key(std::fs::DirEntry::file_name);
        for entry in children {
            let child = relative.join(entry.file_name());
            let name = child.to_string_lossy().replace('\\', "/");
            let fail = |reason: String| PackageError::Archive {
                location: location.clone(),
                reason: format!("entry {name:?}: {reason}"),
            };
            budget.entry().map_err(fail)?;
            let Some(name_str) = entry.file_name().to_str().map(str::to_string) else {
                return Err(fail("the name is not UTF-8".into()));
            };
            entry_path(&name_str).map_err(fail)?;
            // `DirEntry::file_type` does not follow links.
            let kind = entry
                .file_type()
                .map_err(|error| PackageError::read(entry.path(), error))?;
            if kind.is_symlink() {
                return Err(fail("symbolic links are not allowed".into()));
            } else if kind.is_dir() {
                budget.create_dir(dest, &child).map_err(fail)?;
                pending.push(child);
            } else if kind.is_file() {
                let path = entry.path();
                let file =
                    std::fs::File::open(&path).map_err(|error| PackageError::read(&path, error))?;
                // The entry could have been swapped for a link since it was listed.
                let listed = entry
                    .metadata()
                    .map_err(|error| PackageError::read(&path, error))?;
                let opened = file
                    .metadata()
                    .map_err(|error| PackageError::read(&path, error))?;
                if !same_file(&listed, &opened) {
                    return Err(fail("changed while it was being copied".into()));
                }
                budget.write_file(dest, &child, file).map_err(fail)?;
            } else {
                return Err(fail(
                    "special files (devices, FIFOs, sockets) are not allowed".into(),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
fn same_file(listed: &std::fs::Metadata, opened: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    opened.is_file() && listed.dev() == opened.dev() && listed.ino() == opened.ino()
}

#[cfg(not(unix))]
fn same_file(_listed: &std::fs::Metadata, opened: &std::fs::Metadata) -> bool {
    opened.is_file()
}

/// SHA-256 over the files of `dir` in path order: for each file its `/`-separated relative
/// path, a NUL byte, its length as 8 big-endian bytes, then its bytes. Directories contribute
/// only through their files. Used for packages installed from a directory.
pub fn tree_digest(dir: &Path) -> Result<String, PackageError> {
    let mut files = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        let path = dir.join(&relative);
        for entry in std::fs::read_dir(&path).map_err(|error| PackageError::read(&path, error))? {
            let entry = entry.map_err(|error| PackageError::read(&path, error))?;
            let child = relative.join(entry.file_name());
            let kind = entry
                .file_type()
                .map_err(|error| PackageError::read(entry.path(), error))?;
            if kind.is_dir() {
                pending.push(child);
            } else {
                files.push(child.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    let mut hasher = Sha256::new();
    for name in files {
        let path = dir.join(&name);
        let bytes = std::fs::read(&path).map_err(|error| PackageError::read(&path, error))?;
        hasher.update(name.as_bytes());
        hasher.update([0u8]);
        hasher.update((bytes.len() as u64).to_be_bytes());
        hasher.update(&bytes);
    }
    Ok(crate::digest::hex(&hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_depends_on_names_and_contents_only() {
        let one = tempfile::tempdir().unwrap();
        let two = tempfile::tempdir().unwrap();
        for dir in [one.path(), two.path()] {
            std::fs::create_dir_all(dir.join("setups/readonly")).unwrap();
            std::fs::write(dir.join("manifest.yaml"), "a").unwrap();
            std::fs::write(dir.join("setups/readonly/rules.yaml"), "b").unwrap();
        }
        assert_eq!(
            tree_digest(one.path()).unwrap(),
            tree_digest(two.path()).unwrap()
        );
        std::fs::write(two.path().join("manifest.yaml"), "c").unwrap();
        assert_ne!(
            tree_digest(one.path()).unwrap(),
            tree_digest(two.path()).unwrap()
        );
    }
}

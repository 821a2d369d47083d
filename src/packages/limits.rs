//! What a package may contain, enforced while its files are written into staging: how many
//! entries, how many bytes in all, how deep, and which names. Sizes are counted on the bytes
//! actually written, never taken from archive headers (a zip bomb lies in its headers).

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::files::create_private_dir_all;

/// Entries (files and directories) in one package.
pub const MAX_ENTRIES: usize = 1_000;
/// Bytes of all files of one package, once unpacked.
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
/// Bytes of one downloaded or local archive, and of a catalog index.
pub const MAX_ARTEFACT_BYTES: u64 = 32 * 1024 * 1024;
/// Directory levels of one entry path.
pub const MAX_DEPTH: usize = 16;

/// The running count of entries and bytes written into one staging directory.
#[derive(Debug, Default)]
pub struct Budget {
    entries: usize,
    bytes: u64,
}

impl Budget {
    /// Counts one more entry.
    pub fn entry(&mut self) -> Result<(), String> {
        self.entries += 1;
        if self.entries > MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} entries"));
        }
        Ok(())
    }

    /// Creates the new file `dest/relative` with the bytes of `reader`, counting them against
    /// the total. Parents are created as needed; an existing file is an error (a duplicate).
    pub fn write_file(
        &mut self,
        dest: &Path,
        relative: &Path,
        reader: impl Read,
    ) -> Result<(), String> {
        let path = dest.join(relative);
        if let Some(parent) = path.parent() {
            create_private_dir_all(parent)
                .map_err(|error| format!("cannot create its directory: {error}"))?;
        }
        let remaining = MAX_TOTAL_BYTES - self.bytes;
        let mut limited = reader.take(remaining + 1);
        let mut options = crate::files::private_file_options();
        options.write(true).create_new(true);
        let mut file = options.open(&path).map_err(|error| {
            if error.kind() == std::io::ErrorKind::AlreadyExists {
                "duplicate entry".to_string()
            } else {
                format!("cannot create it: {error}")
            }
        })?;
        let written = std::io::copy(&mut limited, &mut file)
            .map_err(|error| format!("cannot unpack it: {error}"))?;
        if written > remaining {
            return Err(format!(
                "the package expands to more than {MAX_TOTAL_BYTES} bytes"
            ));
        }
        self.bytes += written;
        Ok(())
    }

    /// Creates the directory `dest/relative`.
    pub fn create_dir(&mut self, dest: &Path, relative: &Path) -> Result<(), String> {
        create_private_dir_all(&dest.join(relative))
            .map_err(|error| format!("cannot create it: {error}"))
    }
}

/// The relative path an entry name stands for, or `None` for the root itself (`./`).
///
/// Names use `/`. Refused: empty names, control characters, backslashes, absolute paths, `..`
/// anywhere, `:` (drives, alternate streams) and more than [`MAX_DEPTH`] levels. Empty and `.`
/// segments are dropped.
pub fn entry_path(name: &str) -> Result<Option<PathBuf>, String> {
    if name.is_empty() {
        return Err("empty name".into());
    }
    if name.chars().any(char::is_control) {
        return Err("control character in the name".into());
    }
    if name.contains('\\') {
        return Err("backslash in the name (paths use `/`)".into());
    }
    if name.starts_with('/') {
        return Err("absolute path".into());
    }
    let mut path = PathBuf::new();
    let mut depth = 0;
    for segment in name.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err("path traversal (`..`)".into()),
            _ if segment.contains(':') => {
                return Err("`:` in the name (drive or stream)".into());
            }
            _ => {
                depth += 1;
                path.push(segment);
            }
        }
    }
    if depth > MAX_DEPTH {
        return Err(format!("more than {MAX_DEPTH} directory levels"));
    }
    Ok((depth > 0).then_some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_become_relative_paths() {
        assert_eq!(
            entry_path("aws/setups/readonly/rules.yaml").unwrap(),
            Some(PathBuf::from("aws/setups/readonly/rules.yaml"))
        );
        assert_eq!(entry_path("./a//b/").unwrap(), Some(PathBuf::from("a/b")));
        assert_eq!(entry_path("./").unwrap(), None);
    }

    #[test]
    fn unsafe_names_are_refused() {
        for (name, reason) in [
            ("", "empty"),
            ("../etc/passwd", "traversal"),
            ("a/../../b", "traversal"),
            ("/etc/passwd", "absolute"),
            ("C:/x", "drive"),
            ("a\\..\\b", "backslash"),
            ("a\nb", "control"),
            ("a/b\0", "control"),
        ] {
            let error = entry_path(name).unwrap_err();
            assert!(error.contains(reason), "{name:?}: {error}");
        }
        let deep = vec!["d"; MAX_DEPTH + 1].join("/");
        assert!(entry_path(&deep).unwrap_err().contains("levels"));
    }

    #[test]
    fn the_total_is_counted_on_written_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mut budget = Budget::default();
        let big = std::io::repeat(0).take(MAX_TOTAL_BYTES - 10);
        budget.write_file(dir.path(), Path::new("a"), big).unwrap();
        let error = budget
            .write_file(dir.path(), Path::new("b"), std::io::repeat(0).take(11))
            .unwrap_err();
        assert!(error.contains("expands to more than"), "{error}");
    }
}

//! Small file-system helpers for staging packages: files that must not exist yet. (Private
//! directories and capped reads are `crate::files`'.)

use std::io::Write;
use std::path::Path;

/// Creates the new file `path` (an existing one is an error) with owner-only permissions
/// and writes `contents`, flushed to disk.
pub fn write_new_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut file = crate::files::private_file_options()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

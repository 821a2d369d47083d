//! Small file-system helpers for staging packages: private directories, files that must not
//! exist yet, and reads with a size cap.

use std::io::{Read, Write};
use std::path::Path;

/// Creates `path` and any missing parents, owner-only on Unix (the config root holds sessions
/// and credentials).
pub fn create_private_dir_all(path: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(path)
}

/// Creates the new file `path` (an existing one is an error) with owner-only permissions
/// and writes `contents`, flushed to disk.
pub fn write_new_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

/// Why a capped read failed.
#[derive(Debug)]
pub enum CappedReadError {
    Io(std::io::Error),
    TooLarge,
}

/// The whole content of `reader`, refusing more than `limit` bytes.
pub fn read_capped(reader: impl Read, limit: u64) -> Result<Vec<u8>, CappedReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(CappedReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(CappedReadError::TooLarge);
    }
    Ok(bytes)
}

/// Lowercase hexadecimal SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    use std::fmt::Write as _;
    let mut hex = String::with_capacity(64);
    for byte in Sha256::digest(bytes) {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

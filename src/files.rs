//! Reading Torii's own files (configuration, policy, environment, state): one way for all of
//! them, so that none can hang the server or be silently skipped.
//!
//! - Only a regular file is read. A FIFO, a device or a directory where a file is expected is
//!   an error, and opening never blocks on a FIFO that has no writer.
//! - Every read is bounded: a file larger than its limit is an error, not a partial read.
//! - "Absent" means nothing at all is at the path. A symbolic link whose target is missing is
//!   something that exists and cannot be read, so it is an error: on the decision path a file
//!   that cannot be read must deny, never fall back to a default.
//! - So a read waits for nothing but the disk, and a call's task reads its policy and `.env`
//!   files itself: handing so small a read to a blocking thread cost more than the read (two
//!   thread wake-ups, about a tenth of a millisecond per call; see the performance page).
//!
//! It also holds the one capped read of any reader ([`read_capped`]) and the one way to make
//! a private directory ([`create_private_dir_all`]).

use std::fs::File;
use std::io::{self, ErrorKind, Read};
use std::path::Path;

/// Configuration and state files: far above any real provider, target, settings, lease or
/// `.env` file, and far below what would hurt the server.
pub const SMALL_FILE_BYTES: u64 = 1024 * 1024;

/// The file's bytes, or `None` when nothing exists at `path` (nor its parent directory).
pub fn read_optional(path: &Path, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let Some((file, len)) = open_if_present(path)? else {
        return Ok(None);
    };
    // Sized from the file's length, the read takes one call and the end of file one more.
    let capacity = usize::try_from(len.min(limit).saturating_add(1)).unwrap_or(0);
    match read_capped_into(Vec::with_capacity(capacity), file, limit) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(CappedReadError::Io(error)) => Err(error),
        Err(CappedReadError::TooLarge) => Err(io::Error::new(
            ErrorKind::FileTooLarge,
            format!("larger than {limit} bytes"),
        )),
    }
}

/// Why a capped read failed.
#[derive(Debug)]
pub enum CappedReadError {
    Io(io::Error),
    /// There was more than the limit.
    TooLarge,
}

/// The whole content of `reader`, refusing more than `limit` bytes: the one bounded read of
/// everything Torii takes whole (its files, a download, a request on stdin), so that none is
/// ever silently cut short or read without bound. One byte past the limit is read to tell "at
/// the limit" from "over it".
pub fn read_capped(reader: impl Read, limit: u64) -> Result<Vec<u8>, CappedReadError> {
    read_capped_into(Vec::new(), reader, limit)
}

fn read_capped_into(
    mut bytes: Vec<u8>,
    reader: impl Read,
    limit: u64,
) -> Result<Vec<u8>, CappedReadError> {
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(CappedReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(CappedReadError::TooLarge);
    }
    Ok(bytes)
}

/// Creates the directory `path` and any missing parents, owner-only on Unix: the one way Torii
/// makes a directory of its own, since the config root holds sessions and credentials. An
/// existing directory is fine.
/// Options for opening one of Torii's private files: created owner-only (mode 0600), and never
/// blocking on a FIFO put in its place (regular files ignore `O_NONBLOCK`). The caller adds
/// read, write, append or create as it needs.
pub fn private_file_options() -> std::fs::OpenOptions {
    #[allow(unused_mut)]
    let mut options = std::fs::OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NONBLOCK);
    }
    options
}

/// A file-system operation on one of Torii's paths that failed: the one error type for them,
/// named in the human's language.
#[derive(Debug, thiserror::Error)]
#[error("{}", .op.message(.path))]
pub struct FsError {
    pub op: FsOp,
    pub path: std::path::PathBuf,
    #[source]
    pub source: io::Error,
}

/// What [`FsError`] was doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FsOp {
    CreateDir,
    Remove,
}

impl FsOp {
    fn message(self, path: &Path) -> String {
        let path = path.display().to_string();
        match self {
            FsOp::CreateDir => crate::tr!("cli-cannot-create", path = path.as_str()),
            FsOp::Remove => crate::tr!("cli-cannot-remove", path = path.as_str()),
        }
    }

    /// The error of this operation on `path`.
    pub fn on(self, path: &Path) -> impl FnOnce(io::Error) -> FsError {
        let path = path.to_path_buf();
        move |source| FsError {
            op: self,
            path,
            source,
        }
    }
}

pub fn create_private_dir_all(path: &Path) -> io::Result<()> {
    private_dir_builder(true).create(path)
}

/// Creates the new directory `path`, owner-only on Unix, whose parent must exist; an existing
/// one is an error (`AlreadyExists`).
pub fn create_private_dir(path: &Path) -> io::Result<()> {
    private_dir_builder(false).create(path)
}

fn private_dir_builder(recursive: bool) -> std::fs::DirBuilder {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(recursive);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
}

/// Up to the first `limit` bytes of the regular file at `path` (a program's `#!` line).
#[cfg(target_os = "linux")]
pub fn read_start(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular(path)?.0.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// How often an open is retried when the path changes between the open and the look at what
/// is there (a writer renaming a new file into place).
const OPEN_ATTEMPTS: usize = 3;

fn open_if_present(path: &Path) -> io::Result<Option<(File, u64)>> {
    for _ in 0..OPEN_ATTEMPTS {
        match open_regular(path) {
            Ok(opened) => return Ok(Some(opened)),
            Err(error) if is_absent(&error) => {}
            Err(error) => return Err(error),
        }
        match std::fs::symlink_metadata(path) {
            Err(_) => return Ok(None),
            // The open failed on a missing target, yet the path itself exists.
            Ok(link) if link.file_type().is_symlink() && std::fs::metadata(path).is_err() => {
                return Err(io::Error::other(
                    "is a symbolic link to a file that does not exist",
                ));
            }
            // Something appeared after the open failed: open it.
            Ok(_) => {}
        }
    }
    Err(io::Error::other("keeps changing while it is opened"))
}

/// [`read_optional`] decoded as UTF-8.
pub fn read_optional_text(path: &Path, limit: u64) -> io::Result<Option<String>> {
    read_optional(path, limit)?
        .map(|bytes| {
            String::from_utf8(bytes)
                .map_err(|_| io::Error::new(ErrorKind::InvalidData, "not valid UTF-8"))
        })
        .transpose()
}

/// True when an open failed because the path (or a directory on the way) does not exist.
fn is_absent(error: &io::Error) -> bool {
    matches!(error.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
}

/// Opens `path` for reading if it is a regular file (following symbolic links), with its
/// length when opened.
fn open_regular(path: &Path) -> io::Result<(File, u64)> {
    let file = open_nonblocking(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            ErrorKind::InvalidInput,
            "is not a regular file (a FIFO, device or directory is never read)",
        ));
    }
    Ok((file, metadata.len()))
}

/// `O_NONBLOCK` makes opening a FIFO return at once instead of waiting for a writer; on a
/// regular file it changes nothing.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// A FIFO at `path`, for tests of the readers that must never wait on one.
#[cfg(all(test, unix))]
pub(crate) fn make_fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(
        made.is_ok_and(|status| status.success()),
        "mkfifo {}",
        path.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_files_are_none_and_present_ones_are_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a");
        assert!(read_optional(&path, 10).unwrap().is_none());
        assert!(
            read_optional(&path.join("under-a-file"), 10)
                .unwrap()
                .is_none()
        );
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_optional(&path, 10).unwrap().unwrap(), b"0123456789");
        assert!(
            read_optional(&dir.path().join("a/b"), 10)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn a_file_over_the_limit_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        std::fs::write(&path, "0123456789!").unwrap();
        let error = read_optional(&path, 10).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::FileTooLarge);
        assert_eq!(error.to_string(), "larger than 10 bytes");
    }

    #[test]
    fn a_directory_is_not_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let error = read_optional(dir.path(), 10).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_symlink_is_an_error_not_an_absent_file() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("rules.yaml");
        std::os::unix::fs::symlink(dir.path().join("missing"), &link).unwrap();
        let error = read_optional(&link, 10).unwrap_err();
        assert!(error.to_string().contains("symbolic link"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("provider.yaml");
        make_fifo(&fifo);
        let error = read_optional(&fifo, 10).unwrap_err();
        assert!(error.to_string().contains("not a regular file"), "{error}");
    }

    #[test]
    fn text_must_be_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read_optional_text(&path, 10).unwrap_err().kind(),
            ErrorKind::InvalidData
        );
    }
}

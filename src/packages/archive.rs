//! Unpacking a package archive into an empty staging directory: ZIP, TAR, and gzip-compressed
//! TAR (`.tar.gz`/`.tgz`), recognised by their content, not their name.
//!
//! Only regular files and directories are unpacked. Symbolic links, hard links, devices, FIFOs,
//! sockets, sparse and other special entries, encrypted entries, unsafe names (see
//! [`entry_path`]) and archives beyond the [`limits`](super::limits) refuse the whole archive.
//! Nothing is ever executed, and permissions from the archive are ignored (files are 0600).

use std::io::{Cursor, Read};
use std::path::Path;

use super::PackageError;
use super::limits::{Budget, MAX_ENTRIES, MAX_TOTAL_BYTES, entry_path};

/// The archive formats a package may come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Zip,
    Tar,
    TarGz,
}

/// Recognises an archive by its first bytes.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        Some(Format::Zip)
    } else if bytes.starts_with(&[0x1f, 0x8b]) {
        Some(Format::TarGz)
    } else if bytes.get(257..262) == Some(b"ustar".as_slice()) {
        Some(Format::Tar)
    } else {
        None
    }
}

/// Unpacks `bytes` into the empty directory `dest`. `location` names the archive in errors.
pub fn extract(bytes: &[u8], dest: &Path, location: &str) -> Result<(), PackageError> {
    let fail = |reason: String| PackageError::Archive {
        location: location.to_string(),
        reason,
    };
    match detect(bytes) {
        Some(Format::Zip) => extract_zip(bytes, dest).map_err(fail),
        Some(Format::Tar) => extract_tar(bytes, dest).map_err(fail),
        Some(Format::TarGz) => {
            let stream = StreamCap {
                inner: flate2::read::GzDecoder::new(bytes),
                left: TAR_STREAM_LIMIT,
            };
            extract_tar(stream, dest).map_err(fail)
        }
        None => Err(fail(
            "not a package: expected a directory, or a ZIP, TAR or TAR.GZ archive".into(),
        )),
    }
}

fn extract_zip(bytes: &[u8], dest: &Path) -> Result<(), String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|error| format!("not a readable ZIP archive: {error}"))?;
    if archive.len() > MAX_ENTRIES {
        return Err(format!("more than {MAX_ENTRIES} entries"));
    }
    let mut budget = Budget::default();
    for index in 0..archive.len() {
        let mut file = archive
            .by_index(index)
            .map_err(|error| format!("entry {index}: cannot be read: {error}"))?;
        let name = file
            .name()
            .map_err(|error| format!("entry {index}: unreadable name: {error}"))?
            .into_owned();
        let at = |reason: String| format!("entry {name:?}: {reason}");
        budget.entry().map_err(at)?;
        if file.encrypted() {
            return Err(at("encrypted entries are not supported".into()));
        }
        let kind = zip_kind(file.unix_mode(), file.is_dir(), file.is_symlink());
        let relative = entry_path(&name).map_err(at)?;
        match (kind, relative) {
            (Kind::Directory, Some(relative)) => budget.create_dir(dest, &relative).map_err(at)?,
            (Kind::Directory, None) => {}
            (Kind::File, Some(relative)) => {
                budget.write_file(dest, &relative, &mut file).map_err(at)?
            }
            (Kind::File, None) => return Err(at("a file without a name".into())),
            (Kind::Refused(what), _) => return Err(at(format!("{what} are not allowed"))),
        }
    }
    Ok(())
}

enum Kind {
    File,
    Directory,
    Refused(&'static str),
}

/// The entry type from the Unix mode when the archive records one, else from the name.
fn zip_kind(mode: Option<u32>, is_dir: bool, is_symlink: bool) -> Kind {
    if is_symlink {
        return Kind::Refused("symbolic links");
    }
    match mode.map(|mode| mode & 0o170_000) {
        None | Some(0) if is_dir => Kind::Directory,
        None | Some(0) | Some(0o100_000) => Kind::File,
        Some(0o040_000) => Kind::Directory,
        Some(0o120_000) => Kind::Refused("symbolic links"),
        Some(_) => Kind::Refused("special files (devices, FIFOs, sockets)"),
    }
}

fn extract_tar(reader: impl Read, dest: &Path) -> Result<(), String> {
    let mut archive = tar::Archive::new(reader);
    let mut budget = Budget::default();
    let entries = archive
        .entries()
        .map_err(|error| format!("not a readable TAR archive: {error}"))?;
    for (index, entry) in entries.enumerate() {
        let mut entry = entry.map_err(|error| format!("entry {index}: cannot be read: {error}"))?;
        let kind = entry.header().entry_type();
        // A pax global header (written by `git archive`) is metadata, not a file.
        if kind.is_pax_global_extensions() {
            continue;
        }
        let raw_name = entry.path_bytes().into_owned();
        let name = String::from_utf8_lossy(&raw_name).into_owned();
        let at = |reason: String| format!("entry {name:?}: {reason}");
        budget.entry().map_err(at)?;
        if std::str::from_utf8(&raw_name).is_err() {
            return Err(at("the name is not UTF-8".into()));
        }
        let refused = if kind.is_symlink() {
            Some("symbolic links")
        } else if kind.is_hard_link() {
            Some("hard links")
        } else if kind.is_character_special() || kind.is_block_special() || kind.is_fifo() {
            Some("special files (devices, FIFOs)")
        } else if !kind.is_file() && !kind.is_dir() {
            Some("entries other than files and directories")
        } else {
            None
        };
        if let Some(what) = refused {
            return Err(at(format!("{what} are not allowed")));
        }
        let relative = entry_path(&name).map_err(at)?;
        match (kind.is_dir(), relative) {
            (true, Some(relative)) => budget.create_dir(dest, &relative).map_err(at)?,
            (true, None) => {}
            (false, Some(relative)) => {
                budget.write_file(dest, &relative, &mut entry).map_err(at)?
            }
            (false, None) => return Err(at("a file without a name".into())),
        }
    }
    Ok(())
}

/// Decompressed TAR stream allowed: the files' budget plus room for headers and padding.
const TAR_STREAM_LIMIT: u64 = MAX_TOTAL_BYTES + (MAX_ENTRIES as u64 + 16) * 4 * 512;

/// Stops a decompressing reader after `left` bytes, so metadata (long names, pax headers)
/// cannot make a small archive expand without bound either.
struct StreamCap<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Read for StreamCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            // One more byte would prove the stream is longer than allowed.
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(std::io::Error::other(format!(
                    "the package expands to more than {TAR_STREAM_LIMIT} bytes"
                ))),
            };
        }
        let len = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let read = self.inner.read(&mut buf[..len])?;
        self.left -= read as u64;
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_recognised_by_content() {
        assert_eq!(detect(b"PK\x03\x04rest"), Some(Format::Zip));
        assert_eq!(detect(&[0x1f, 0x8b, 8, 0]), Some(Format::TarGz));
        let mut tar = vec![0u8; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(detect(&tar), Some(Format::Tar));
        assert_eq!(detect(b"#!/bin/sh\n"), None);
    }

    #[test]
    fn zip_kinds_follow_the_unix_mode() {
        assert!(matches!(zip_kind(None, false, false), Kind::File));
        assert!(matches!(zip_kind(None, true, false), Kind::Directory));
        assert!(matches!(
            zip_kind(Some(0o100_644), false, false),
            Kind::File
        ));
        assert!(matches!(
            zip_kind(Some(0o040_755), true, false),
            Kind::Directory
        ));
        assert!(matches!(
            zip_kind(Some(0o120_777), false, false),
            Kind::Refused(_)
        ));
        assert!(matches!(
            zip_kind(Some(0o010_644), false, false),
            Kind::Refused(_)
        ));
        assert!(matches!(
            zip_kind(Some(0o020_644), false, false),
            Kind::Refused(_)
        ));
        assert!(matches!(zip_kind(None, false, true), Kind::Refused(_)));
    }
}

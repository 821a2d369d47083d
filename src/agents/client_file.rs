//! Reading and replacing a client's configuration file.
//!
//! The file belongs to the human and the client: a symbolic link (dotfiles kept in a
//! repository) is edited where it points, not replaced by a regular file; the permissions stay
//! what they were; a new file is owner-only, since clients keep tokens beside their servers.

use crate::files::FsOp;
use std::path::{Path, PathBuf};

use super::document::{Document, DocumentError, Syntax};

/// Larger than any configuration file, and `~/.claude.json` keeps a history that grows.
const MAX_CLIENT_FILE_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum ClientFileError {
    #[error("{}", crate::tr!("cli-cannot-read", path = .path.display().to_string()))]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", path.display())]
    Parse {
        path: PathBuf,
        #[source]
        source: DocumentError,
    },
    #[error("{}", crate::tr!("agent-hard-links", path = .path.display().to_string(), links = *.links))]
    HardLinks { path: PathBuf, links: u64 },
    #[error(transparent)]
    Write(#[from] crate::atomic::WriteError),
    #[error("{}", crate::tr!("agent-owner", path = .path.display().to_string()))]
    #[cfg(unix)]
    Owner {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Fs(#[from] crate::files::FsError),
}

/// One client file, parsed, with what is needed to put it back.
pub struct ClientFile {
    /// The path the client uses.
    pub path: PathBuf,
    /// Where the bytes really are (the target of a symbolic link).
    real: PathBuf,
    pub existed: bool,
    original: String,
    bom: bool,
    metadata: Option<std::fs::Metadata>,
    pub document: Document,
}

#[cfg(unix)]
fn hard_links(metadata: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn hard_links(_metadata: &std::fs::Metadata) -> u64 {
    1
}

impl ClientFile {
    pub fn load(path: &Path, syntax: Syntax) -> Result<Self, ClientFileError> {
        let read_error = |source| ClientFileError::Read {
            path: path.to_path_buf(),
            source,
        };
        let real = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                std::fs::canonicalize(path).map_err(read_error)?
            }
            _ => path.to_path_buf(),
        };
        let text =
            crate::files::read_optional_text(&real, MAX_CLIENT_FILE_BYTES).map_err(read_error)?;
        let existed = text.is_some();
        let original = text.unwrap_or_default();
        // A byte-order mark is kept aside and put back: neither parser reads one.
        let (bom, body) = match original.strip_prefix('\u{feff}') {
            Some(body) => (true, body.to_string()),
            None => (false, original.clone()),
        };
        let metadata = if existed {
            Some(std::fs::metadata(&real).map_err(read_error)?)
        } else {
            None
        };
        if let Some(links) = metadata.as_ref().map(hard_links)
            && links > 1
        {
            return Err(ClientFileError::HardLinks {
                path: path.to_path_buf(),
                links,
            });
        }
        let document = Document::parse(syntax, &body).map_err(|source| ClientFileError::Parse {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(Self {
            path: path.to_path_buf(),
            real,
            existed,
            original: body,
            bom,
            metadata,
            document,
        })
    }

    pub fn parse_error(&self, source: DocumentError) -> ClientFileError {
        ClientFileError::Parse {
            path: self.path.clone(),
            source,
        }
    }

    /// Whether the document now differs from what was read.
    pub fn changed(&self) -> bool {
        let rendered = self.document.render();
        if self.existed {
            rendered != self.original
        } else {
            !self.document.is_empty()
        }
    }

    /// Writes the document back atomically; `remove_if_blank` deletes a file Torii created
    /// once nothing, not even a comment, is left in it.
    pub fn save(&self, remove_if_blank: bool) -> Result<(), ClientFileError> {
        if remove_if_blank && self.document.is_blank() {
            return match std::fs::remove_file(&self.real) {
                Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                    Err(FsOp::Remove.on(&self.path)(error).into())
                }
                _ => Ok(()),
            };
        }
        let dir = crate::atomic::containing_dir(&self.real);
        if !dir.exists() {
            crate::files::create_private_dir_all(dir).map_err(FsOp::CreateDir.on(dir))?;
        }
        let mode = match &self.metadata {
            Some(metadata) => crate::atomic::Access::Keep(metadata.permissions()),
            None => crate::atomic::Access::Private,
        };
        let mut text = String::new();
        if self.bom {
            text.push('\u{feff}');
        }
        text.push_str(&self.document.render());
        if !self.existed && !text.ends_with('\n') {
            text.push('\n');
        }
        crate::atomic::write(&self.real, text.as_bytes(), mode)?;
        self.keep_owner()
    }

    /// The new file belongs to whoever owned the old one (`sudo` with the user's HOME).
    #[cfg(unix)]
    fn keep_owner(&self) -> Result<(), ClientFileError> {
        use std::os::unix::fs::MetadataExt;
        let Some(metadata) = &self.metadata else {
            return Ok(());
        };
        let now = std::fs::metadata(&self.real).map_err(|source| ClientFileError::Read {
            path: self.path.clone(),
            source,
        })?;
        if (now.uid(), now.gid()) == (metadata.uid(), metadata.gid()) {
            return Ok(());
        }
        std::os::unix::fs::chown(&self.real, Some(metadata.uid()), Some(metadata.gid())).map_err(
            |source| ClientFileError::Owner {
                path: self.path.clone(),
                source,
            },
        )
    }

    #[cfg(not(unix))]
    fn keep_owner(&self) -> Result<(), ClientFileError> {
        Ok(())
    }
}

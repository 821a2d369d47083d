//! The exclusive OS lock serializing writers of one provider's lease state.
//!
//! `std::fs::File::lock` is `flock` on Unix and `LockFileEx` on Windows: the lock belongs to
//! the open file and the OS drops it when the file is closed, including when the process dies.
//! So there is no TTL, no stale-lock cleanup, and the lock file is never deleted (deleting it
//! would let two writers lock two different files).

use std::fs::File;
use std::path::Path;

use super::LeaseError;

/// Holds the lock until dropped (closing the file releases it).
#[derive(Debug)]
pub(super) struct LockGuard {
    _file: File,
}

/// Opens (creating, owner-only) and locks `path`, waiting while another writer holds it.
/// Writers hold it only to read and replace one small file.
pub(super) fn acquire(path: &Path) -> Result<LockGuard, LeaseError> {
    let fail = |source| LeaseError::Lock {
        path: path.to_path_buf(),
        source,
    };
    // Never wait on a FIFO put where the lock file belongs.
    let file = crate::files::private_file_options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(fail)?;
    if !file.metadata().map_err(fail)?.is_file() {
        return Err(fail(std::io::Error::other("is not a regular file")));
    }
    file.lock().map_err(fail)?;
    Ok(LockGuard { _file: file })
}

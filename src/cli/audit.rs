//! `torii audit verify`: checks the audit log's hash chain and says where it breaks.

use std::io::Read;
use std::path::PathBuf;

use crate::audit::Settled;
use crate::audit::chain::{self, LogFile, Problem};
use crate::paths::ConfigRoot;

use super::CliError;

/// Why `audit verify` could not give an answer, or its answer: the log was changed.
#[derive(Debug, thiserror::Error)]
pub enum AuditCliError {
    #[error("{}", crate::tr!("audit-unreadable", path = .0.display().to_string()))]
    Unreadable(PathBuf, #[source] std::io::Error),
    #[error("{}", crate::tr!("audit-changed", count = *.0))]
    Changed(usize),
}

/// Checks `rotated` (oldest first) and then the root's `torii.log` as one chain, and the
/// chain's end against the root's head. `continued`: the first file need not start a chain.
pub fn verify(rotated: &[PathBuf], continued: bool, root: &ConfigRoot) -> Result<(), CliError> {
    let unreadable = |path: PathBuf| move |error| AuditCliError::Unreadable(path, error);
    let settled = Settled::read(root).map_err(unreadable(root.audit_log()))?;
    let mut files: Vec<LogFile<Box<dyn Read>>> = Vec::new();
    for path in rotated {
        let file = crate::audit::open_regular(path)
            .and_then(|file| file.ok_or_else(|| std::io::ErrorKind::NotFound.into()))
            .map_err(unreadable(path.clone()))?;
        files.push(LogFile {
            path: path.clone(),
            reader: Box::new(file),
        });
    }
    if let Some(log) = settled.log {
        files.push(LogFile {
            path: root.audit_log(),
            reader: Box::new(log.take(settled.length)),
        });
    }
    let report =
        chain::verify(files, &settled.head, continued).map_err(unreadable(root.audit_log()))?;

    let head = root.audit_head().display().to_string();
    crate::console::data(&crate::tr!("audit-lines", count = report.lines));
    for problem in &report.problems {
        let shown = |file: &std::path::Path| file.display().to_string();
        crate::console::data(&match problem {
            Problem::Broken { file, line } => {
                crate::tr!("audit-broken", file = shown(file), line = *line)
            }
            Problem::Unchained { file, line } => {
                crate::tr!("audit-unchained", file = shown(file), line = *line)
            }
            Problem::TooLong { file, line } => {
                crate::tr!("audit-too-long", file = shown(file), line = *line)
            }
            Problem::StartsMidChain { file } => {
                crate::tr!("audit-mid-chain", file = file.display().to_string())
            }
            Problem::HeadMismatch => crate::tr!("audit-head-mismatch", head = head.clone()),
            Problem::HeadMissing => crate::tr!("audit-head-missing", head = head.clone()),
        });
    }
    match report.problems.len() {
        0 => {
            crate::console::data(&crate::tr!("audit-whole"));
            Ok(())
        }
        count => Err(AuditCliError::Changed(count).into()),
    }
}

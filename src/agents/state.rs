//! `<root>/agents/<agent>.json`: what Torii wrote into a client's files, so that uninstall
//! removes exactly that and stops when the human changed it since.

use crate::files::FsOp;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::clients::{Agent, Place};
use super::document::KeyPath;

/// The managed content of one agent.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct AgentState {
    pub agent: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mcp: Vec<Managed>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hook: Vec<Managed>,
}

impl AgentState {
    pub fn is_empty(&self) -> bool {
        self.mcp.is_empty() && self.hook.is_empty()
    }
}

/// One value Torii placed, exactly as written.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Managed {
    /// The client's file, as the client names it (a symbolic link stays a link).
    pub file: PathBuf,
    pub place: Place,
    pub value: Value,
    /// Objects and arrays that did not exist before, outermost first: removed again when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub created: Vec<KeyPath>,
    /// The file did not exist before: deleted again when nothing else is left in it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub created_file: bool,
    /// Left in place while this path still holds something.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_while: Option<KeyPath>,
}

#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("{}", crate::tr!("cli-cannot-read", path = .path.display().to_string()))]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", crate::tr!("agent-state-invalid", path = .path.display().to_string()))]
    Invalid {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error(transparent)]
    Write(#[from] crate::atomic::WriteError),
    #[error(transparent)]
    Fs(#[from] crate::files::FsError),
}

pub fn state_file(root: &Path, agent: Agent) -> PathBuf {
    root.join("agents").join(format!("{}.json", agent.name()))
}

pub fn load(root: &Path, agent: Agent) -> Result<Option<AgentState>, StateError> {
    let path = state_file(root, agent);
    let text = crate::files::read_optional_text(&path, crate::files::SMALL_FILE_BYTES).map_err(
        |source| StateError::Read {
            path: path.clone(),
            source,
        },
    )?;
    let Some(text) = text else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| StateError::Invalid { path, source })
}

/// Every client file Torii manages for any agent, as recorded under `<root>/agents/`: the
/// MCP entries and hooks that decide which executable and root a client starts. A state file
/// that cannot be read adds nothing (`doctor` reports it). Landlock makes them read-only.
#[cfg(target_os = "linux")]
pub fn managed_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Agent::ALL
        .into_iter()
        .filter_map(|agent| load(root, agent).ok().flatten())
        .flat_map(|state| state.mcp.into_iter().chain(state.hook))
        .map(|managed| managed.file)
        .collect();
    files.sort();
    files.dedup();
    files
}

/// Stores `state`, or deletes the file when nothing is managed any more.
pub fn store(root: &Path, agent: Agent, state: &AgentState) -> Result<(), StateError> {
    let path = state_file(root, agent);
    if state.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                Err(FsOp::Remove.on(&path)(error).into())
            }
            _ => Ok(()),
        };
    }
    let dir = crate::atomic::containing_dir(&path);
    crate::files::create_private_dir_all(dir).map_err(FsOp::CreateDir.on(dir))?;
    let mut text = serde_json::to_string_pretty(state).unwrap_or_default();
    text.push('\n');
    crate::atomic::write(&path, text.as_bytes(), crate::atomic::Access::Private)?;
    Ok(())
}

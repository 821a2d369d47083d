//! `target remove <tool> <alias> --force`: revoke the alias's lease, then delete its directory.
//!
//! The lease goes first: if deleting the directory then fails, the alias is left configured
//! but inactive, never the other way round. The identity provider's credential bucket is not
//! touched, since other targets may share its scope.

use crate::audit::{Event, Reference};
use crate::console;
use crate::leases::{LeaseStore, unix_now};
use crate::paths::ConfigRoot;

use super::super::CliError;
use super::{TargetCliError, audit_log, audit_scope, configured, select};

pub fn run(root: &ConfigRoot, tool: &str, alias: &str, force: bool) -> Result<(), CliError> {
    let (_registry, provider) = select(root, tool)?;
    let target = configured(&provider, alias)?;
    let dir = target.dir();
    if !force {
        return Err(TargetCliError::ForceRequired {
            alias: alias.to_string(),
            dir: dir.to_path_buf(),
        }
        .into());
    }
    LeaseStore::new(&provider).revoke(alias, unix_now()?)?;
    audit_log(root).record(
        &audit_scope(&provider, alias),
        Event::TargetAccessRevoked,
        &Reference::label(alias),
        Some("target-removed"),
    );
    std::fs::remove_dir_all(dir).map_err(crate::files::FsOp::Remove.on(dir))?;
    console::data(&dir.display().to_string());
    console::progress(&crate::tr!(
        "cli-target-removed",
        alias = alias,
        tool = tool,
        restart = super::restart_note()
    ));
    Ok(())
}

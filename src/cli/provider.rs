//! `torii provider …`: the provider commands of the control plane.

use crate::paths::ConfigRoot;
use crate::registry::Registry;

use super::{CliError, ProviderCommand};

/// The book's exact correction for the verb people reach for first.
pub const UPDATE_CORRECTION: &str = "there is no `torii provider update`; changing an installed version is `torii provider upgrade`";

pub fn run(command: ProviderCommand, root: &ConfigRoot) -> Result<(), CliError> {
    match command {
        ProviderCommand::List => list(root),
        ProviderCommand::Update { .. } => Err(CliError::Correction(UPDATE_CORRECTION)),
    }
}

fn list(root: &ConfigRoot) -> Result<(), CliError> {
    let registry = Registry::load(root.dir())?;
    if registry.is_empty() {
        crate::human::progress(&format!(
            "no providers installed in {}",
            root.providers_dir().display()
        ));
        return Ok(());
    }
    let mut rows = vec![["TOOL", "NAME", "EXECUTABLE", "VERSION", "ORIGIN"].map(String::from)];
    for provider in registry.providers() {
        let config = &provider.config;
        // Package metadata (.torii-package/lock.yaml) arrives with packages; until then every
        // install is local.
        rows.push([
            config.tool.clone(),
            config.name.clone(),
            config.command.clone(),
            "local".to_string(),
            "local".to_string(),
        ]);
    }
    for line in crate::human::table(&rows) {
        crate::human::data(&line);
    }
    Ok(())
}

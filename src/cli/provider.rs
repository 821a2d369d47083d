//! `torii provider …`: the provider commands of the control plane.

use crate::packages::{self, catalog};
use crate::paths::ConfigRoot;
use crate::registry::Registry;

use super::lookup::{self, Prefer};
use super::{CliError, ProviderCommand};

/// The book's exact correction for the verb people reach for first.
pub const UPDATE_CORRECTION: &str = "there is no `torii provider update`; changing an installed version is `torii provider upgrade`";

pub fn run(command: ProviderCommand, root: &ConfigRoot) -> Result<(), CliError> {
    match command {
        ProviderCommand::List => list(root),
        ProviderCommand::Search { query } => search(query.as_deref()),
        ProviderCommand::Install { source } => install(root, &source),
        ProviderCommand::Setup { provider, setup } => apply_setup(root, &provider, &setup),
        ProviderCommand::Upgrade { provider } => upgrade(root, &provider),
        ProviderCommand::Update { .. } => Err(CliError::Correction(UPDATE_CORRECTION)),
    }
}

fn list(root: &ConfigRoot) -> Result<(), CliError> {
    let registry = Registry::load(root.dir())?;
    if registry.is_empty() {
        crate::console::progress(&format!(
            "no providers installed in {}",
            root.providers_dir().display()
        ));
        return Ok(());
    }
    let mut rows = vec![["TOOL", "NAME", "EXECUTABLE", "VERSION", "ORIGIN"].map(String::from)];
    for provider in registry.providers() {
        let config = &provider.config;
        let (version, origin) = match packages::read_lock(provider.dir()) {
            None => ("local".to_string(), "local".to_string()),
            Some(Ok(lock)) => (lock.package_version, lock.origin.describe()),
            Some(Err(error)) => {
                crate::console::progress(&format!("warning: {}", crate::errors::chain(&error)));
                ("?".to_string(), "invalid lock".to_string())
            }
        };
        rows.push([
            config.tool.clone(),
            config.name.clone(),
            config.command.clone(),
            version,
            origin,
        ]);
    }
    for line in crate::console::table(&rows) {
        crate::console::data(&line);
    }
    Ok(())
}

fn search(query: Option<&str>) -> Result<(), CliError> {
    let location = catalog::configured()?;
    let catalog = catalog::Catalog::load(location)?;
    let found = catalog.search(query);
    if found.is_empty() {
        let location = catalog.location.describe();
        crate::console::progress(&match query {
            Some(query) => crate::tr!(
                "cli-search-none-matching",
                query = format!("{query:?}"),
                location = location
            ),
            None => crate::tr!("cli-search-none", location = location),
        });
        return Ok(());
    }
    let mut rows = vec![["NAME", "VERSION", "DESCRIPTION"].map(String::from)];
    for entry in found {
        rows.push([
            entry.name.clone(),
            entry.version.clone(),
            entry
                .description
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        ]);
    }
    for line in crate::console::table(&rows) {
        crate::console::data(&line);
    }
    Ok(())
}

fn install(root: &ConfigRoot, source: &str) -> Result<(), CliError> {
    let installed = packages::install(root, source)?;
    crate::console::progress(&crate::tr!(
        "cli-provider-installed",
        name = installed.name.as_str(),
        version = installed.package_version.to_string(),
        tool = installed.tool.as_str(),
        origin = installed.label.to_string(),
        dir = installed.dir.display().to_string()
    ));
    crate::console::progress(&crate::tr!("cli-provider-empty-policy"));
    for setup in &installed.setups {
        crate::console::progress(&format!(
            "  {}",
            crate::tr!(
                "cli-provider-setup-hint",
                name = installed.name.as_str(),
                setup = setup.to_string()
            )
        ));
    }
    crate::console::progress(&crate::tr!("cli-provider-restart"));
    crate::console::data(&installed.dir.display().to_string());
    Ok(())
}

fn apply_setup(root: &ConfigRoot, key: &str, setup: &str) -> Result<(), CliError> {
    let registry = Registry::load(root.dir())?;
    let provider = lookup::provider(&registry, key, Prefer::Name)?;
    let applied = packages::setup(provider, setup)?;
    crate::console::progress(&crate::tr!(
        "cli-provider-applied",
        setup = setup,
        path = applied.path.display().to_string(),
        deny = applied.deny,
        accept = applied.accept,
        examples = applied.examples
    ));
    for rule in &applied.ignored_accepts {
        crate::console::progress(&crate::tr!(
            "cli-provider-narrow",
            rule = format!("{rule:?}")
        ));
    }
    crate::console::progress(&crate::tr!("cli-provider-review"));
    Ok(())
}

fn upgrade(root: &ConfigRoot, key: &str) -> Result<(), CliError> {
    let registry = Registry::load(root.dir())?;
    let provider = lookup::provider(&registry, key, Prefer::Name)?;
    let upgraded = packages::upgrade(root, provider)?;
    crate::console::progress(&crate::tr!(
        "cli-provider-upgraded",
        name = upgraded.name.as_str(),
        from = upgraded.from_version.to_string(),
        to = upgraded.to_version.to_string(),
        origin = upgraded.label.to_string()
    ));
    if upgraded.environment_changed {
        let content = provider
            .dir()
            .join(packages::PACKAGE_DIR)
            .join(packages::CONTENT_DIR);
        crate::console::progress(&crate::tr!(
            "cli-provider-environment-changed",
            path = content.display().to_string()
        ));
    }
    crate::console::progress(&crate::tr!("cli-provider-restart-load"));
    Ok(())
}

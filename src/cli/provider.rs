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
        ProviderCommand::Search { query } => search(root, query.as_deref()),
        ProviderCommand::Install { source } => install(root, &source),
        ProviderCommand::Setup { provider, setup } => apply_setup(root, &provider, &setup),
        ProviderCommand::Upgrade {
            provider,
            accept_key,
        } => upgrade(root, &provider, accept_key),
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
    let mut rows = vec![
        [
            "TOOL",
            "NAME",
            "EXECUTABLE",
            "VERSION",
            "ORIGIN",
            "SIGNATURE",
        ]
        .map(String::from),
    ];
    // Without valid settings the keys trusted are unknown: the column then says only who signed.
    let trust = packages::Trust::load(root).ok();
    for provider in registry.providers() {
        let config = &provider.config;
        let (version, origin, signature) = match packages::read_lock(provider.dir()) {
            None => ("local".to_string(), "local".to_string(), "-".to_string()),
            Some(Ok(lock)) => {
                let mut signature = lock.signature();
                if let (Some(key), Some(trust)) = (lock.signed_by, &trust)
                    && !trust.trusts(key)
                {
                    signature.push_str(" (no longer trusted)");
                }
                (
                    lock.package_version.clone(),
                    lock.origin.describe(),
                    signature,
                )
            }
            Some(Err(error)) => {
                crate::console::progress(&format!("warning: {}", crate::errors::chain(&error)));
                ("?".to_string(), "invalid lock".to_string(), "?".to_string())
            }
        };
        rows.push([
            config.tool.clone(),
            config.name.clone(),
            config.command.clone(),
            version,
            origin,
            signature,
        ]);
    }
    for line in crate::console::table(&rows) {
        crate::console::data(&line);
    }
    Ok(())
}

fn search(root: &ConfigRoot, query: Option<&str>) -> Result<(), CliError> {
    let location = catalog::configured()?;
    let catalog = catalog::Catalog::load(location, &packages::Trust::load(root)?)?;
    if catalog.signed_by.is_none() {
        crate::console::progress(&crate::tr!(
            "cli-search-unsigned",
            location = catalog.location.describe()
        ));
    }
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
    if !installed.built_in {
        signature(installed.signed_by);
    }
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

/// Who vouched for an installed or upgraded package.
fn signature(signed_by: Option<crate::signature::KeyId>) {
    crate::console::progress(&match signed_by {
        Some(key) => crate::tr!("cli-provider-signed", key = key.to_string()),
        None => crate::tr!("cli-provider-unsigned"),
    });
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

fn upgrade(
    root: &ConfigRoot,
    key: &str,
    accept_key: Option<crate::signature::KeyId>,
) -> Result<(), CliError> {
    let registry = Registry::load(root.dir())?;
    let provider = lookup::provider(&registry, key, Prefer::Name)?;
    let upgraded = packages::upgrade(root, provider, accept_key)?;
    crate::console::progress(&crate::tr!(
        "cli-provider-upgraded",
        name = upgraded.name.as_str(),
        from = upgraded.from_version.to_string(),
        to = upgraded.to_version.to_string(),
        origin = upgraded.label.to_string()
    ));
    if !upgraded.built_in {
        signature(upgraded.signed_by);
    }
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

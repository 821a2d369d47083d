//! `target list` and `target show`: aliases with their bindings, for the human only.

use crate::console;
use crate::leases::{LeaseStatus, LeaseStore, unix_now};
use crate::paths::ConfigRoot;
use crate::registry::{Provider, Target};

use super::super::CliError;
use super::{configured, select, time};

pub fn list(root: &ConfigRoot, tool: &str) -> Result<(), CliError> {
    let (_registry, provider) = select(root, tool)?;
    if provider.targets().is_empty() {
        console::progress(&crate::tr!("cli-target-none", tool = tool));
        return Ok(());
    }
    let mut rows = vec![["ALIAS", "BINDING", "EXPECT", "SCOPE", "IDENTITY"].map(String::from)];
    for target in provider.targets().values() {
        rows.push([
            target.alias().to_string(),
            binding(target),
            or_dash(target.config().identity.expect.as_deref()),
            target.scope().to_string(),
            target.identity_provider().to_string(),
        ]);
    }
    for line in console::table(&rows) {
        console::data(&line);
    }
    Ok(())
}

pub fn show(root: &ConfigRoot, tool: &str, alias: &str) -> Result<(), CliError> {
    let (_registry, provider) = select(root, tool)?;
    let target = configured(&provider, alias)?;
    let config = target.config();
    let identity = &config.identity;
    let mut rows = vec![
        ["alias", target.alias()].map(String::from),
        ["tool".into(), provider.tool().to_string()],
        ["provider".into(), provider.name().to_string()],
    ];
    let optional = [
        ("context", &config.context),
        ("profile", &identity.profile),
        ("region", &config.region),
        ("expect", &identity.expect),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            rows.push([name.to_string(), value.clone()]);
        }
    }
    rows.push(["scope".into(), target.scope().to_string()]);
    rows.push([
        "identity provider".into(),
        target.identity_provider().to_string(),
    ]);
    rows.push(["file".into(), target.config_path().display().to_string()]);
    rows.push(["binding sha256".into(), target.binding_digest().to_string()]);
    rows.push(["lease".into(), lease(&provider, target)]);
    for line in console::table(&rows) {
        console::data(&line);
    }
    Ok(())
}

/// What the alias selects: the context, or the profile and region.
pub(super) fn binding(target: &Target) -> String {
    let config = target.config();
    let mut parts = Vec::new();
    if let Some(context) = &config.context {
        parts.push(format!("context={context}"));
    }
    if let Some(profile) = &config.identity.profile {
        parts.push(format!("profile={profile}"));
    }
    if let Some(region) = &config.region {
        parts.push(format!("region={region}"));
    }
    parts.join(" ")
}

/// One line about the alias's lease; `show` describes configuration, so a lease problem is
/// reported here rather than failing the command.
fn lease(provider: &Provider, target: &Target) -> String {
    let status = unix_now().and_then(|now| {
        let status = LeaseStore::new(provider).check(target, now)?;
        Ok((status, now))
    });
    match status {
        Ok((LeaseStatus::Active { expires_at }, now)) => format!(
            "active until {} ({} left)",
            time::utc(expires_at),
            time::remaining(expires_at.saturating_sub(now))
        ),
        Ok((LeaseStatus::Inactive, _)) => "inactive".into(),
        Ok((LeaseStatus::Expired { expired_at }, _)) => {
            format!("inactive (expired {})", time::utc(expired_at))
        }
        Ok((LeaseStatus::BindingChanged, _)) => {
            "inactive (target.yaml changed after the lease was granted)".into()
        }
        Err(error) => format!("unknown: {}", crate::errors::chain(&error)),
    }
}

fn or_dash(value: Option<&str>) -> String {
    value.unwrap_or("-").to_string()
}

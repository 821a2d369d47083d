//! `target activate`, `target status` and `target clear`: the human side of leases.

use crate::audit::{Event, Reference};
use crate::console;
use crate::leases::{Activation, LeaseMinutes, LeaseStatus, LeaseStore, unix_now};
use crate::paths::ConfigRoot;
use crate::settings::Settings;

use super::super::CliError;
use super::{audit_log, audit_scope, configured, select, time};

pub fn activate(
    root: &ConfigRoot,
    tool: &str,
    alias: &str,
    minutes: Option<LeaseMinutes>,
    add: bool,
) -> Result<(), CliError> {
    // A lease is the human's decision: an agent's shell tool, a pipe or a script has no
    // terminal on its standard input.
    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        return Err(super::TargetCliError::ActivateNeedsTerminal.into());
    }
    let minutes = match minutes {
        Some(minutes) => minutes,
        None => LeaseMinutes::new(Settings::load(&root.settings_file())?.default_target_minutes)?,
    };
    let (_registry, provider) = select(root, tool)?;
    let target = configured(&provider, alias)?;
    let mode = if add {
        Activation::Add
    } else {
        Activation::Replace
    };
    let now = unix_now()?;
    let state = LeaseStore::new(&provider).activate(target, minutes, mode, now)?;
    let active = state.active_aliases(now);
    let (event, detail) = match mode {
        Activation::Replace => (
            Event::TargetAccessReplaced,
            format!("for={}min", minutes.get()),
        ),
        Activation::Add => (
            Event::TargetAccessAdded,
            format!("for={}min active={}", minutes.get(), active.len()),
        ),
    };
    audit_log(root).record(
        &audit_scope(&provider, alias),
        event,
        &Reference::label(alias),
        Some(&detail),
    );
    let expires_at = now.saturating_add(minutes.seconds());
    console::data(&crate::tr!(
        "cli-lease-activated",
        alias = alias,
        until = time::utc(expires_at),
        minutes = minutes.get()
    ));
    if active.len() > 1 {
        console::progress(&crate::tr!(
            "cli-lease-several",
            count = active.len(),
            tool = tool,
            aliases = active.join(", ")
        ));
    }
    console::progress(&crate::tr!("cli-lease-in-effect"));
    Ok(())
}

pub fn status(root: &ConfigRoot, tool: &str) -> Result<(), CliError> {
    let (_registry, provider) = select(root, tool)?;
    let state = LeaseStore::new(&provider).read()?;
    let now = unix_now()?;
    let mut rows = vec![["ALIAS", "EXPIRES", "REMAINING", "STATE"].map(String::from)];
    let mut usable = 0;
    for entry in state
        .entries()
        .iter()
        .filter(|entry| !entry.is_expired(now))
    {
        let state_label = match provider.target(entry.alias()) {
            None => "invalid: target removed".to_string(),
            Some(target) => match state.check(target, now)? {
                LeaseStatus::Active { .. } => {
                    usable += 1;
                    "active".to_string()
                }
                LeaseStatus::BindingChanged => "invalid: target.yaml changed".to_string(),
                // Not reached for an unexpired entry; shown honestly if it ever is.
                LeaseStatus::Inactive | LeaseStatus::Expired { .. } => "inactive".to_string(),
            },
        };
        rows.push([
            entry.alias().to_string(),
            time::utc(entry.expires_at()),
            time::remaining(entry.expires_at().saturating_sub(now)),
            state_label,
        ]);
    }
    if rows.len() == 1 {
        console::progress(&crate::tr!("cli-lease-none", tool = tool));
        return Ok(());
    }
    for line in console::table(&rows) {
        console::data(&line);
    }
    if usable > 1 {
        console::progress(&crate::tr!("cli-lease-many", count = usable));
    }
    Ok(())
}

pub fn clear(root: &ConfigRoot, tool: &str) -> Result<(), CliError> {
    let (_registry, provider) = select(root, tool)?;
    let store = LeaseStore::new(&provider);
    store.clear()?;
    audit_log(root).record(
        provider.name(),
        Event::TargetAccessCleared,
        &Reference::none(),
        Some("all"),
    );
    console::progress(&crate::tr!(
        "cli-lease-cleared",
        tool = tool,
        path = store.state_path().display().to_string()
    ));
    Ok(())
}

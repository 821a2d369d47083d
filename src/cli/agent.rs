//! `torii agent list|install|status|uninstall` and the hidden `torii __hook`.

use std::path::{Path, PathBuf};

use super::{AgentCommand, CliError};
use crate::agents::{self, Agent, Install, Locations, Pinned, Uninstall};
use crate::console;
use crate::paths::ConfigRoot;

/// Why a `torii agent` command refused before any client file was touched.
#[derive(Debug, thiserror::Error)]
pub enum AgentCliError {
    #[error("{}", crate::tr!("cli-unknown-agent", name = .name.as_str(), known = known_names()))]
    UnknownAgent { name: String },
    #[error("{}", crate::tr!("cli-agent-not-utf8", path = .path.display().to_string()))]
    NotUtf8 { path: PathBuf },
    /// pi needs an extension to read the entry, so installing asks first; without a terminal
    /// only `--yes` can answer.
    #[error("{}", crate::tr!("cli-pi-needs-yes"))]
    PiNeedsYes,
    /// The human answered no to the confirmation.
    #[error("{}", crate::tr!("cli-nothing-written"))]
    Declined,
}

impl AgentCliError {
    /// A command-line mistake (exit code 2), rather than a refusal of a well-formed command.
    pub fn is_usage(&self) -> bool {
        matches!(self, AgentCliError::UnknownAgent { .. })
    }
}

fn known_names() -> String {
    let names: Vec<_> = Agent::ALL.iter().map(|agent| agent.name()).collect();
    names.join(", ")
}

pub fn run(command: AgentCommand, root: &ConfigRoot) -> Result<(), CliError> {
    let at = Locations::from_env();
    match command {
        AgentCommand::List => list(&at, root),
        AgentCommand::Install {
            agent,
            hook,
            trust,
            headless,
            yes,
        } => {
            let options = agents::EntryOptions { trust, headless };
            install(parse(&agent)?, hook, options, yes, &at, root)
        }
        AgentCommand::Status { agent: Some(agent) } => status(parse(&agent)?, &at, root),
        AgentCommand::Status { agent: None } => overview(&at, root),
        AgentCommand::Uninstall { agent, hook } => {
            let agent = parse(&agent)?;
            let report = Uninstall {
                agent,
                hook_only: hook,
                root: root.dir(),
                at: &at,
            }
            .run()?;
            for line in report {
                console::progress(&format!("{}: {line}", agent.name()));
            }
            console::progress(&crate::tr!("cli-agent-restart", client = agent.client()));
            Ok(())
        }
    }
}

/// `torii __hook <agent> --config-dir <root>`: the client's JSON on stdin, its answer on stdout.
pub fn hook(agent: &str, config_dir: &Path) -> Result<(), CliError> {
    let agent = parse(agent)?;
    agents::hook::serve(agent, config_dir);
    Ok(())
}

fn parse(name: &str) -> Result<Agent, CliError> {
    Agent::from_name(name).ok_or_else(|| {
        AgentCliError::UnknownAgent {
            name: name.to_string(),
        }
        .into()
    })
}

fn pinned(root: &ConfigRoot) -> Result<Pinned, CliError> {
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(CliError::Exe)?;
    // The entry and the hook command are text: a path that is not UTF-8 would be pinned as
    // some other path, and a hook pointed at a root that does not exist protects nothing.
    for path in [exe.as_path(), root.dir()] {
        if path.to_str().is_none() {
            return Err(AgentCliError::NotUtf8 {
                path: path.to_path_buf(),
            }
            .into());
        }
    }
    Ok(Pinned {
        exe,
        root: root.dir().to_path_buf(),
    })
}

fn list(at: &Locations, root: &ConfigRoot) -> Result<(), CliError> {
    let pinned = pinned(root)?;
    let mut rows = vec![[
        "AGENT".to_string(),
        "CLIENT".to_string(),
        "HOOK".to_string(),
        "MCP FILE".to_string(),
    ]];
    for agent in Agent::ALL {
        let file =
            agents::clients::mcp_placement(agent, at, &pinned, agents::EntryOptions::default())
                .map(|placement| placement.file.display().to_string())
                .unwrap_or_else(|error| error.to_string());
        let hook = match agent.hook_event() {
            Some(event) => event.to_string(),
            None => "not supported".to_string(),
        };
        let client = if agent.needs_extension() {
            format!("{} (needs an MCP extension)", agent.client())
        } else {
            agent.client().to_string()
        };
        rows.push([agent.name().to_string(), client, hook, file]);
    }
    for line in console::table(&rows) {
        console::data(&line);
    }
    Ok(())
}

fn install(
    agent: Agent,
    hook: bool,
    options: agents::EntryOptions,
    yes: bool,
    at: &Locations,
    root: &ConfigRoot,
) -> Result<(), CliError> {
    if hook && agent.hook_event().is_none() {
        return Err(agents::AgentError::HookNotSupported(agent).into());
    }
    let pinned = pinned(root)?;
    if agent.needs_extension() {
        let file =
            agents::clients::mcp_placement(agent, at, &pinned, agents::EntryOptions::default())
                .map_err(agents::AgentError::from)?
                .file;
        let extensions = crate::atomic::containing_dir(&file).join("extensions");
        console::progress(&crate::tr!(
            "cli-agent-pi-warning",
            file = file.display().to_string(),
            extensions = extensions.display().to_string()
        ));
        if !yes {
            if !console::interactive() {
                return Err(AgentCliError::PiNeedsYes.into());
            }
            if !console::confirm(&crate::tr!("cli-agent-pi-confirm")) {
                return Err(AgentCliError::Declined.into());
            }
        }
    }
    if agents::clients::is_cargo_build(&pinned.exe) {
        console::progress(&crate::tr!(
            "cli-agent-cargo-warning",
            exe = pinned.exe.display().to_string()
        ));
    }
    let mut install = Install {
        agent,
        hook,
        options,
        switch_root: yes,
        root: root.dir(),
        at,
        pinned: &pinned,
    };
    let report = match install.run() {
        // Another root's entry: moved only when the human says so.
        Err(agents::AgentError::OtherRoot { other, .. })
            if !yes
                && console::interactive()
                && console::confirm(&crate::tr!(
                    "agent-switch-confirm",
                    other = other.display().to_string()
                )) =>
        {
            install.switch_root = true;
            install.run()?
        }
        result => result?,
    };
    for line in report {
        console::progress(&format!("{}: {line}", agent.name()));
    }
    if hook {
        console::progress(&crate::tr!("cli-agent-hook-note"));
        say_what_the_hook_blocks(agent, root);
        if agent == Agent::Codex {
            console::progress(&crate::tr!("cli-agent-codex-trust"));
        }
    } else if agent.hook_event().is_none() {
        console::progress(&crate::tr!("cli-agent-no-hook", client = agent.client()));
    }
    console::progress(&crate::tr!("cli-agent-restart", client = agent.client()));
    Ok(())
}

fn status(agent: Agent, at: &Locations, root: &ConfigRoot) -> Result<(), CliError> {
    let pinned = pinned(root)?;
    let lines = agents::status(agent, root.dir(), at, &pinned)?;
    console::data(&format!("agent  {} ({})", agent.name(), agent.client()));
    for line in lines {
        let text = match (line.standing, line.file, line.place) {
            (Some(standing), Some(file), Some(place)) => {
                format!("{}: {} ({place})", standing.describe(), file.display())
            }
            _ => "hook not supported".to_string(),
        };
        console::data(&format!("{:<5}  {text}", line.part));
    }
    if let Some(coverage) = agents::hook::coverage(agent) {
        console::data(&format!("{:<5}  {coverage}", "guard"));
        if let Ok(registry) = crate::registry::Registry::load(root.dir()) {
            let (blocks, work) = agents::blocked::describe(agent, &registry);
            console::data(&format!("{:<5}  {blocks}", "block"));
            if let Some(work) = work {
                console::data(&format!("{:<5}  {work}", "note"));
            }
        }
    }
    Ok(())
}

/// `torii agent status` without an agent: how the entry and the hook stand in each client.
fn overview(at: &Locations, root: &ConfigRoot) -> Result<(), CliError> {
    let pinned = pinned(root)?;
    let mut rows = vec![["AGENT".to_string(), "MCP".to_string(), "HOOK".to_string()]];
    for agent in Agent::ALL {
        let (mcp, hook) = match agents::status(agent, root.dir(), at, &pinned) {
            Ok(lines) => {
                // A part written in several places (Cursor's hook) stands as its last one,
                // the hook itself.
                let part = |name: &str| {
                    lines
                        .iter()
                        .rfind(|line| line.part == name)
                        .and_then(|line| line.standing)
                        .map_or_else(|| "not supported".to_string(), |s| s.describe())
                };
                (part("mcp"), part("hook"))
            }
            Err(error) => (crate::errors::chain(&error), String::new()),
        };
        rows.push([agent.name().to_string(), mcp, hook]);
    }
    for line in console::table(&rows) {
        console::data(&line);
    }
    Ok(())
}

/// The programs the hook will block in `agent`'s shell, and a warning for those agents need
/// for their own work (the human chooses: keep the provider, or the hook).
fn say_what_the_hook_blocks(agent: Agent, root: &ConfigRoot) {
    match crate::registry::Registry::load(root.dir()) {
        Ok(registry) => {
            let (blocks, work) = agents::blocked::describe(agent, &registry);
            console::progress(&format!("{}: {blocks}", agent.name()));
            if let Some(work) = work {
                console::progress(&format!("{}: {work}", agent.name()));
            }
        }
        Err(error) => console::progress(&crate::tr!(
            "cli-agent-hook-no-registry",
            reason = crate::errors::chain(&error)
        )),
    }
}

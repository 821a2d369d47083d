//! The agent integrations this config root installed (`<root>/agents/*.json`): which binary
//! each client's entry starts, and whether the shell hook is there and, for Codex, trusted.

use super::{Finding, Subject};
use crate::agents::{self, Agent, AgentState, Locations, Pinned, Standing, StatusLine};

pub fn check(subject: &Subject<'_>) -> Vec<Finding> {
    let root = subject.root.dir();
    let at = Locations::from_env();
    let pinned = Pinned {
        exe: subject.exe.to_path_buf(),
        root: root.to_path_buf(),
    };
    // Only for what the hook blocks: the providers' own findings say why one does not load.
    let registry = crate::registry::Registry::load(root).ok();
    let mut findings = Vec::new();
    let mut installed = 0;
    for agent in Agent::ALL {
        let state = match agents::recorded(root, agent) {
            Ok(Some(state)) => state,
            Ok(None) => continue,
            Err(error) => {
                findings.push(Finding::problem(
                    crate::errors::chain(&error),
                    format!("torii agent install {}", agent.name()),
                ));
                continue;
            }
        };
        installed += 1;
        match agents::status(agent, root, &at, &pinned) {
            Ok(lines) => {
                findings.extend(
                    lines
                        .iter()
                        .filter_map(|line| judge(agent, &state, &pinned, line)),
                );
                if let (false, Some(registry)) = (state.hook.is_empty(), &registry) {
                    findings.push(reach(agent, registry));
                }
            }
            Err(error) => findings.push(Finding::problem(
                format!("{}: {}", agent.name(), crate::errors::chain(&error)),
                crate::tr!("doctor-agent-fix-file", agent = agent.name()),
            )),
        }
    }
    if installed == 0 {
        findings.push(Finding::warning(
            crate::tr!("doctor-no-agents"),
            crate::tr!("doctor-no-agents-fix"),
        ));
    }
    findings
}

/// One status line as a finding; `None` for a part the client does not have.
fn judge(agent: Agent, state: &AgentState, pinned: &Pinned, line: &StatusLine) -> Option<Finding> {
    let standing = line.standing?;
    let file = line.file.as_ref()?.display().to_string();
    let file = file.as_str();
    let name = agent.name();
    let install = |hook: bool| {
        format!(
            "torii agent install {name}{}",
            if hook { " --hook" } else { "" }
        )
    };
    Some(match (line.part, standing) {
        ("mcp", Standing::Managed) => entry_binary(agent, pinned, file),
        ("mcp", Standing::ManagedStale) => {
            let recorded = state
                .mcp
                .first()
                .and_then(|managed| agents::clients::entry_exe(&managed.value));
            match recorded {
                Some(exe) if !exe.is_file() => Finding::problem(
                    crate::tr!(
                        "doctor-agent-exe-gone",
                        name = name,
                        file = file,
                        exe = exe.display().to_string()
                    ),
                    install(false),
                ),
                Some(exe) if exe != pinned.exe => Finding::warning(
                    crate::tr!(
                        "doctor-agent-other-exe",
                        name = name,
                        file = file,
                        exe = exe.display().to_string(),
                        this = pinned.exe.display().to_string()
                    ),
                    crate::tr!("doctor-agent-reinstall-fix", command = install(false)),
                ),
                _ => Finding::warning(
                    crate::tr!("doctor-agent-other-root", name = name, file = file),
                    install(false),
                ),
            }
        }
        ("mcp", Standing::PreexistingSame) => Finding::ok(crate::tr!(
            "doctor-agent-preexisting",
            name = name,
            file = file
        )),
        ("mcp", Standing::Absent | Standing::Missing) => Finding::problem(
            crate::tr!("doctor-agent-no-entry", name = name, file = file),
            install(false),
        ),
        ("hook", _) if state.hook.is_empty() => Finding::warning(
            crate::tr!("doctor-agent-no-hook", name = name),
            install(true),
        ),
        // Checked before anything else about the hook: a client whose hook command cannot
        // start runs no hook at all, whatever the file still says.
        ("hook", _) if let Some(exe) = missing_hook_exe(state) => Finding::problem(
            crate::tr!(
                "doctor-agent-hook-exe-gone",
                name = name,
                file = file,
                exe = exe.display().to_string()
            ),
            install(true),
        ),
        ("hook", Standing::Managed) => {
            let mut text = crate::tr!("doctor-agent-hook", name = name, file = file);
            if let Some(coverage) = agents::hook::coverage(agent) {
                text = format!("{text}: {coverage}");
            }
            Finding::ok(text)
        }
        ("hook", Standing::ManagedStale) => Finding::warning(
            crate::tr!("doctor-agent-hook-stale", name = name, file = file),
            install(true),
        ),
        ("hook", Standing::Absent | Standing::Missing) => Finding::problem(
            crate::tr!("doctor-agent-hook-removed", name = name, file = file),
            install(true),
        ),
        ("trust", _) if state.hook.is_empty() => return None,
        ("trust", Standing::Trusted) => {
            Finding::ok(crate::tr!("doctor-agent-trusted", name = name))
        }
        ("trust", _) => Finding::problem(
            crate::tr!("doctor-agent-untrusted", name = name),
            install(true),
        ),
        (part, standing) => Finding::warning(
            format!("{name} {part}: {} ({file})", standing.describe()),
            format!("torii agent status {name}"),
        ),
    })
}

/// What `agent`'s hook blocks in its shell: fine, or a warning when agents commonly need one
/// of those programs for their own work (the human may keep it that way).
fn reach(agent: Agent, registry: &crate::registry::Registry) -> Finding {
    let (blocks, work) = agents::blocked::describe(agent, registry);
    let blocks = format!("{}: {blocks}", agent.name());
    match work {
        Some(work) => Finding::warning(
            format!("{blocks}. {work}"),
            crate::tr!("agent-hook-agent-work-fix"),
        ),
        None => Finding::ok(blocks),
    }
}

/// The executable the recorded hook runs, when it no longer exists.
fn missing_hook_exe(state: &AgentState) -> Option<std::path::PathBuf> {
    state
        .hook
        .iter()
        .find_map(|managed| agents::clients::hook_exe(&managed.value))
        .filter(|exe| !exe.is_file())
}

/// An entry that starts this executable: fine, unless this is a cargo build.
fn entry_binary(agent: Agent, pinned: &Pinned, file: &str) -> Finding {
    let exe = pinned.exe.display().to_string();
    let name = agent.name();
    if agents::clients::is_cargo_build(&pinned.exe) {
        return Finding::warning(
            crate::tr!(
                "doctor-agent-cargo",
                name = name,
                file = file,
                exe = exe.as_str()
            ),
            crate::tr!("doctor-agent-cargo-fix", name = name),
        );
    }
    Finding::ok(crate::tr!(
        "doctor-agent-starts",
        name = name,
        file = file,
        exe = exe.as_str()
    ))
}

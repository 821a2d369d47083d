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
            Ok(lines) => findings.extend(
                lines
                    .iter()
                    .filter_map(|line| judge(agent, &state, &pinned, line)),
            ),
            Err(error) => findings.push(Finding::problem(
                format!("{}: {}", agent.name(), crate::errors::chain(&error)),
                format!(
                    "fix the file named, then torii agent status {}",
                    agent.name()
                ),
            )),
        }
    }
    if installed == 0 {
        findings.push(Finding::warning(
            "no agent integration is installed from this config root",
            "torii agent install <agent> (torii agent list names them)",
        ));
    }
    findings
}

/// One status line as a finding; `None` for a part the client does not have.
fn judge(agent: Agent, state: &AgentState, pinned: &Pinned, line: &StatusLine) -> Option<Finding> {
    let standing = line.standing?;
    let file = line.file.as_ref()?.display();
    let name = agent.name();
    let install = |hook: bool| {
        format!(
            "torii agent install {name}{}",
            if hook { " --hook" } else { "" }
        )
    };
    Some(match (line.part, standing) {
        ("mcp", Standing::Managed) => entry_binary(agent, pinned, &file.to_string()),
        ("mcp", Standing::ManagedStale) => {
            let recorded = state
                .mcp
                .first()
                .and_then(|managed| agents::clients::entry_exe(&managed.value));
            match recorded {
                Some(exe) if !exe.is_file() => Finding::problem(
                    format!(
                        "{name}: {file} starts {}, which does not exist",
                        exe.display()
                    ),
                    install(false),
                ),
                Some(exe) if exe != pinned.exe => Finding::warning(
                    format!(
                        "{name}: {file} starts {}, not this torii ({})",
                        exe.display(),
                        pinned.exe.display()
                    ),
                    format!("{} with the torii the client should run", install(false)),
                ),
                _ => Finding::warning(
                    format!("{name}: {file} pins another config root"),
                    install(false),
                ),
            }
        }
        ("mcp", Standing::PreexistingSame) => Finding::ok(format!(
            "{name}: {file} has a torii entry for this torii (not managed by torii)"
        )),
        ("mcp", Standing::Absent | Standing::Missing) => {
            Finding::problem(format!("{name}: {file} has no torii entry"), install(false))
        }
        ("hook", _) if state.hook.is_empty() => Finding::warning(
            format!("{name}: no shell hook (the agent's shell can run provider executables)"),
            install(true),
        ),
        ("hook", Standing::Managed) => Finding::ok(format!("{name}: shell hook in {file}")),
        ("hook", Standing::ManagedStale) => Finding::warning(
            format!("{name}: the shell hook in {file} runs another torii or config root"),
            install(true),
        ),
        ("hook", Standing::Absent | Standing::Missing) => Finding::problem(
            format!("{name}: the shell hook was removed from {file}"),
            install(true),
        ),
        ("trust", _) if state.hook.is_empty() => return None,
        ("trust", Standing::Trusted) => Finding::ok(format!("{name}: Codex trusts the hook")),
        ("trust", _) => Finding::problem(
            format!("{name}: Codex does not trust the hook where it is now, and skips it"),
            install(true),
        ),
        (part, standing) => Finding::warning(
            format!("{name} {part}: {} ({file})", standing.describe()),
            format!("torii agent status {name}"),
        ),
    })
}

/// An entry that starts this executable: fine, unless this is a cargo build.
fn entry_binary(agent: Agent, pinned: &Pinned, file: &str) -> Finding {
    let exe = pinned.exe.display();
    if agents::clients::is_cargo_build(&pinned.exe) {
        return Finding::warning(
            format!(
                "{}: {file} starts a cargo build ({exe}), which `cargo build` replaces and \
                 `cargo clean` deletes",
                agent.name()
            ),
            format!(
                "install a release, then torii agent install {} with it",
                agent.name()
            ),
        );
    }
    Finding::ok(format!("{}: {file} starts {exe}", agent.name()))
}

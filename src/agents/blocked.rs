//! Which programs the hook keeps out of an agent's own shell: the installed providers'
//! commands, which the agent must run through Torii's tools. `agent install --hook`, `agent
//! status` and `doctor` say which, and which of them agents commonly need for their own work.

use super::Agent;
use crate::registry::Registry;

/// Commands that run nothing: a provider that only stands for an identity (the `kubeconfig`
/// package runs `true`) has one, and blocking it would only break `… || true` in the agent's
/// shell while protecting nothing.
const PLACEHOLDERS: &[&str] = &["true", "false", ":"];

/// Programs coding agents run for their own work (version control, builds, package managers):
/// blocking one in the agent's shell is a choice the human should make knowingly.
const AGENT_WORK: &[&str] = &[
    "git", "gh", "npm", "npx", "node", "yarn", "pnpm", "python", "python3", "pip", "pip3", "uv",
    "cargo", "go", "make", "curl",
];

/// The guard the hook checks shell lines with: every installed provider's command but the
/// placeholders.
pub fn guard(registry: &Registry) -> shell_guard::Guard {
    shell_guard::Guard::new(
        registry
            .iter()
            .map(|provider| provider.config().command.as_str())
            .filter(|command| !is_placeholder(command)),
    )
}

/// The programs the hook blocks, by the names it compares (sorted, once each).
pub fn programs(registry: &Registry) -> Vec<String> {
    let mut names: Vec<String> = guard(registry).programs().map(str::to_string).collect();
    names.sort();
    names
}

/// Those of `programs` that agents commonly need for their own work.
pub fn agent_work(programs: &[String]) -> Vec<String> {
    programs
        .iter()
        .filter(|name| AGENT_WORK.contains(&name.as_str()))
        .cloned()
        .collect()
}

/// What the hook's reach means for `agent`: the programs it blocks, and a warning when agents
/// commonly need some of them for their own work.
pub fn describe(agent: Agent, registry: &Registry) -> (String, Option<String>) {
    let programs = programs(registry);
    if programs.is_empty() {
        return (crate::tr!("agent-hook-blocks-nothing"), None);
    }
    let blocks = crate::tr!("agent-hook-blocks", programs = programs.join(", "));
    let work = agent_work(&programs);
    let warning = (!work.is_empty()).then(|| {
        crate::tr!(
            "agent-hook-agent-work",
            programs = work.join(", "),
            client = agent.client()
        )
    });
    (blocks, warning)
}

fn is_placeholder(command: &str) -> bool {
    let name = std::path::Path::new(command)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or(command);
    PLACEHOLDERS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_command_is_not_a_protected_program() {
        for command in ["true", "/bin/true", "/usr/bin/false", ":"] {
            assert!(is_placeholder(command), "{command}");
        }
        for command in ["kubectl", "/usr/bin/aws", "truest", "git"] {
            assert!(!is_placeholder(command), "{command}");
        }
    }

    #[test]
    fn git_is_named_as_work_an_agent_needs() {
        let programs = ["aws", "git", "kubectl"].map(String::from);
        assert_eq!(agent_work(&programs), ["git"]);
    }
}

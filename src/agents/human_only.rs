//! Which `torii` command lines an agent's own shell may run.
//!
//! The commands that widen what the agent may do or change the human's decisions (leases,
//! targets, policy, providers, sessions, agent integrations, the executable itself) belong to
//! the human. The hook lets the agent's shell run only the commands that change nothing;
//! everything else, including a `torii` line whose arguments are computed and the MCP server
//! itself, is denied. A list of what is allowed, rather than of what is not, keeps a command
//! added later on the human's side until someone decides otherwise.

/// The command paths an agent's shell may run, each with whatever arguments follow.
const READ_ONLY: &[&[&str]] = &[
    &["--version"],
    &["-V"],
    &["--help"],
    &["-h"],
    &["help"],
    &["config-dir"],
    &["doctor"],
    &["policy", "show"],
    &["policy", "check"],
    &["target", "list"],
    &["target", "status"],
    &["target", "show"],
    &["provider", "list"],
    &["provider", "search"],
    &["agent", "list"],
    &["agent", "status"],
];

/// The gate the hook gives `shell_guard::Guard::gated` for `torii`: blocked unless every
/// argument is known and they start with a read-only command.
pub fn blocked(args: &[Option<String>]) -> bool {
    let Some(args) = args
        .iter()
        .map(Option::as_deref)
        .collect::<Option<Vec<&str>>>()
    else {
        return true;
    };
    !READ_ONLY
        .iter()
        .any(|command| args.len() >= command.len() && args[..command.len()] == **command)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<Option<String>> {
        words.iter().map(|w| Some((*w).to_string())).collect()
    }

    #[test]
    fn read_only_commands_pass() {
        for line in [
            &["--version"][..],
            &["doctor"],
            &["config-dir"],
            &["policy", "show", "kubectl"],
            &["policy", "check", "aws", "--", "s3", "ls"],
            &["target", "list", "kubectl"],
            &["target", "status", "kubectl"],
            &["agent", "status", "claude"],
            &["help", "target"],
        ] {
            assert!(!blocked(&args(line)), "{line:?}");
        }
    }

    #[test]
    fn the_humans_commands_are_blocked() {
        for line in [
            &[][..],
            &["target", "activate", "kubectl", "prod", "--for", "1440"],
            &["target", "add", "kubectl", "prod"],
            &["target", "clear", "kubectl"],
            &["policy", "edit", "kubectl"],
            &["provider", "install", "aws"],
            &["agent", "uninstall", "claude", "--hook"],
            &["console"],
            &["reauth", "aws"],
            &["self", "upgrade"],
            &["init"],
            &["demo"],
            &["__prompt"],
            &["__hook", "claude", "--config-dir", "/tmp/x"],
            &["target"],
            &["target", "--help"],
            &["--config-dir", "x", "doctor"],
        ] {
            assert!(blocked(&args(line)), "{line:?}");
        }
        assert!(blocked(&[Some("target".into()), None]));
        assert!(blocked(&[Some("doctor".into()), None]));
    }
}

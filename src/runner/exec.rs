//! Launching a resolved provider CLI and collecting its result.
//!
//! The program is started directly, never through a shell: each argument reaches the child as
//! one argv item, whatever characters it holds. The child inherits Torii's environment (there is
//! no `env_clear`) except Torii's own `TORII_*` variables; the listed variables are removed,
//! then the overlay is applied, so an injected value always wins over an inherited one. Stdin
//! is null, so a CLI that prompts fails instead of waiting forever. The child is started under
//! the launch's [`Confinement`], so it cannot read or write the config root.

use std::io;
use std::path::PathBuf;
use std::process::Stdio;

use serde::Serialize;
use tokio::process::{Child, Command};

use super::RunError;
use super::capture::capture;
use crate::confine::Confinement;
use crate::secret::EnvVars;

/// The prefix of Torii's own environment variables, which never reach a provider child: they
/// name the config root and test hooks, nothing a CLI needs.
pub const TORII_ENV_PREFIX: &str = "TORII_";

/// Exit code reported when the child ended without one (killed by a signal): 128 + SIGTERM.
pub const SIGNALLED_EXIT_CODE: i32 = 143;

/// Everything needed to start one provider CLI. Overlay values are [`Secret`]s, so `Debug`
/// shows their names only.
#[derive(Debug, Clone)]
pub struct Launch {
    /// Absolute path of the executable, as returned by [`super::resolve`].
    pub program: PathBuf,
    /// Provider `args_prefix`, target prefix and the request's args, already in that order.
    pub args: Vec<String>,
    /// Variables set on the child after removal; a later entry wins over an earlier one.
    pub env_overlay: EnvVars,
    /// Inherited variables the child must not see (unless the overlay sets them again).
    pub env_remove: Vec<String>,
    /// Budget of output bytes kept from stdout and stderr together.
    pub max_output_bytes: usize,
    /// Keeps the child out of the config root.
    pub confinement: Confinement,
}

/// The result of a finished child, as returned to the agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Execution {
    /// The child's exit code, or [`SIGNALLED_EXIT_CODE`] when it had none.
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
    /// Whether output was dropped because stdout and stderr together exceeded the budget.
    pub truncated: bool,
}

/// Starts `launch.program` with `launch.args`, captures its output within the budget and waits
/// for it to exit. A non-zero exit code is a normal result, not an error.
pub async fn run(launch: Launch) -> Result<Execution, RunError> {
    let mut command = build_command(&launch)?;
    let _prepared = launch
        .confinement
        .prepare(command.as_std_mut())
        .map_err(|source| RunError::Confine {
            program: launch.program.clone(),
            source,
        })?;
    let child = command.spawn().map_err(|source| RunError::Spawn {
        program: launch.program.clone(),
        source,
    })?;
    collect(child, launch.max_output_bytes)
        .await
        .map_err(|source| RunError::Collect {
            program: launch.program,
            source,
        })
}

fn build_command(launch: &Launch) -> Result<Command, RunError> {
    if !launch.program.is_absolute() {
        return Err(RunError::RelativeProgram {
            program: launch.program.clone(),
        });
    }
    let overlay_names = launch.env_overlay.iter().map(|(name, _)| name);
    let mut names = launch.env_remove.iter().chain(overlay_names);
    if let Some(name) = names.find(|name| !is_env_name(name)) {
        return Err(RunError::InvalidEnvName { name: name.clone() });
    }

    let mut command = Command::new(&launch.program);
    command
        .args(&launch.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, _) in std::env::vars_os() {
        if name
            .as_encoded_bytes()
            .starts_with(TORII_ENV_PREFIX.as_bytes())
        {
            command.env_remove(name);
        }
    }
    for name in &launch.env_remove {
        command.env_remove(name);
    }
    for (name, value) in &launch.env_overlay {
        command.env(name, value.expose());
    }
    Ok(command)
}

/// Captures the child's output, then waits for its exit status.
async fn collect(mut child: Child, max_output_bytes: usize) -> io::Result<Execution> {
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(io::Error::other("the output pipes were not created"));
    };
    let captured = match capture(stdout, stderr, max_output_bytes).await {
        Ok(captured) => captured,
        Err(error) => {
            // Output that cannot be read cannot be returned: do not leave the child running.
            let _ = child.kill().await;
            return Err(error);
        }
    };
    let status = child.wait().await?;
    let truncated = captured.truncated();
    Ok(Execution {
        exit_code: status.code().unwrap_or(SIGNALLED_EXIT_CODE),
        stdout: captured.stdout.into_text(),
        stderr: captured.stderr.into_text(),
        truncated,
    })
}

/// A name the operating system can carry as one variable: not empty, no `=` and no NUL. (A
/// name with `=` would silently become another variable with a different value.)
fn is_env_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['=', '\0'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names_that_would_change_meaning_are_refused() {
        assert!(is_env_name("AWS_REGION"));
        assert!(is_env_name("ProgramFiles(x86)"));
        for name in ["", "A=B", "A\0B"] {
            assert!(!is_env_name(name), "{name:?}");
        }
    }

    #[test]
    fn debug_hides_overlay_values() {
        let launch = Launch {
            program: PathBuf::from("/usr/bin/aws"),
            args: vec![String::from("sts")],
            env_overlay: vec![(String::from("AWS_SECRET_ACCESS_KEY"), "hunter2".into())],
            env_remove: vec![],
            max_output_bytes: 10,
            confinement: Confinement::new(
                std::path::Path::new("/nonexistent"),
                Default::default(),
                &[],
            ),
        };
        let shown = format!("{launch:?}");
        assert!(shown.contains("AWS_SECRET_ACCESS_KEY"));
        assert!(!shown.contains("hunter2"));
    }
}

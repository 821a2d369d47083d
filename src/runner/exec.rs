//! Launching a resolved provider CLI and collecting its result.
//!
//! The program is started directly, never through a shell: each argument reaches the child as
//! one argv item, whatever characters it holds. The child inherits Torii's environment (as read
//! at the first launch) except Torii's own `TORII_*` variables; the listed variables are removed,
//! then the overlay is applied, so an injected value always wins over an inherited one. Stdin
//! is null, so a CLI that prompts fails instead of waiting forever. The child is started under
//! the launch's [`Confinement`], so it cannot read or write the config root (see `child.rs`).

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::Serialize;

use super::RunError;
use super::capture::Capture;
use super::child::{self, Child};
use super::group::{ProcessGroup, TERM_GRACE};
use crate::confine::Confinement;
use crate::secret::EnvVars;

/// The prefix of Torii's own environment variables, which never reach a provider child: they
/// name the config root and test hooks, nothing a CLI needs.
pub const TORII_ENV_PREFIX: &str = "TORII_";

/// The prefix of the OTLP exporter's variables (endpoint, headers that often hold an API key):
/// they configure where Torii's audit goes, and never reach a provider child.
pub const OTLP_ENV_PREFIX: &str = "OTEL_EXPORTER_OTLP_";

/// The server's environment without Torii's own variables and the audit exporter's, read once.
///
/// It cannot change while the server runs: changing a process's environment (`set_var`) is
/// `unsafe`, which this crate denies, so what the first call saw is what every call inherits.
/// Reading and filtering it anew was a tenth of a trivial call's own work.
pub(super) fn inherited_env() -> &'static [(std::ffi::OsString, std::ffi::OsString)] {
    static INHERITED: std::sync::OnceLock<Vec<(std::ffi::OsString, std::ffi::OsString)>> =
        std::sync::OnceLock::new();
    INHERITED.get_or_init(|| {
        std::env::vars_os()
            .filter(|(name, _)| {
                let name = name.as_encoded_bytes();
                !name.starts_with(TORII_ENV_PREFIX.as_bytes())
                    && !name.starts_with(OTLP_ENV_PREFIX.as_bytes())
            })
            .collect()
    })
}

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
    /// How long the child may run; `None` for no limit.
    pub timeout: Option<Duration>,
}

/// The result of a finished child, as returned to the agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Execution {
    /// The child's exit code, or [`SIGNALLED_EXIT_CODE`] when it had none.
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
    /// Whether output was dropped because stdout and stderr together exceeded the budget.
    pub truncated: bool,
    /// Whether the child was stopped because it ran past its time limit (then `exit_code` is
    /// [`SIGNALLED_EXIT_CODE`]). Only present in the JSON when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
}

/// Starts `launch.program` with `launch.args`, captures its output within the budget and waits
/// for it to exit. A non-zero exit code is a normal result, not an error.
///
/// Dropping the returned future (a cancelled call, a server shutting down) kills the child's
/// whole process group. Past `launch.timeout` the group gets SIGTERM, then SIGKILL after
/// [`TERM_GRACE`], and the result keeps what was captured, with `timed_out`.
pub async fn run(launch: Launch) -> Result<Execution, RunError> {
    check(&launch)?;
    launch.confinement.ready().await;
    let child = child::start(&launch)?;
    let group = ProcessGroup::led_by(&child);
    collect(child, group, launch.max_output_bytes, launch.timeout)
        .await
        .map_err(|source| RunError::Collect {
            program: launch.program,
            source,
        })
}

/// Refuses a launch the system would not carry as given: a relative program (which would be
/// searched for again), an argument a batch file cannot receive, a variable name that is not
/// one.
fn check(launch: &Launch) -> Result<(), RunError> {
    if !launch.program.is_absolute() {
        return Err(RunError::RelativeProgram {
            program: launch.program.clone(),
        });
    }
    if cfg!(windows)
        && let Some(position) = batch_argument_refused(&launch.program, &launch.args)
    {
        return Err(RunError::BatchArgument {
            program: launch.program.clone(),
            position,
        });
    }
    let overlay_names = launch.env_overlay.iter().map(|(name, _)| name);
    let mut names = launch.env_remove.iter().chain(overlay_names);
    if let Some(name) = names.find(|name| !can_carry_env_name(name)) {
        return Err(RunError::InvalidEnvName { name: name.clone() });
    }
    Ok(())
}

/// The first argument (1-based) that a batch file cannot receive, when `program` is one.
///
/// Windows cannot start a `.bat` or `.cmd` file without cmd.exe, so the standard library
/// writes a cmd.exe command line for it, quoting every argument so that `&`, `|`, `^`, `>`,
/// `%VAR%` and `!VAR!` arrive as data. A line break (`\r` or `\n`) cannot be quoted there:
/// cmd.exe would end the command at it. The standard library refuses such an argument too;
/// checking first gives an error that names it. A plain function of the path and the
/// arguments, so that the rule is tested on every system; it applies on Windows only.
pub fn batch_argument_refused(program: &Path, args: &[String]) -> Option<usize> {
    // Windows ignores trailing dots and spaces in a file name: `az.cmd.` is `az.cmd`.
    let name = program
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("")
        .trim_end_matches(['.', ' ']);
    let is_batch = Path::new(name)
        .extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| {
            extension.eq_ignore_ascii_case("bat") || extension.eq_ignore_ascii_case("cmd")
        });
    if !is_batch {
        return None;
    }
    args.iter()
        .position(|arg| arg.contains(['\r', '\n']))
        .map(|index| index + 1)
}

/// Captures the child's output, then waits for its exit status; past `timeout`, stops it.
async fn collect(
    mut child: Child,
    group: ProcessGroup,
    max_output_bytes: usize,
    timeout: Option<Duration>,
) -> io::Result<Execution> {
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(io::Error::other("the output pipes were not created"));
    };
    let mut capture = Capture::new(stdout, stderr, max_output_bytes);
    // Output that cannot be read cannot be returned: on an error `group` is dropped, which
    // kills the child. The limit covers the wait too: a child may close its output and run on.
    let finished = async {
        capture.read_until_closed().await?;
        child.wait().await
    };
    let (status, timed_out) = match timeout {
        None => (finished.await?, false),
        Some(limit) => match tokio::time::timeout(limit, finished).await {
            Ok(status) => (status?, false),
            Err(_elapsed) => {
                stop(&mut child, &group, &mut capture).await;
                (child.wait().await?, true)
            }
        },
    };
    group.finished();
    let captured = capture.into_captured();
    let truncated = captured.truncated();
    let exit_code = match (timed_out, status.code()) {
        (false, Some(code)) => code,
        _ => SIGNALLED_EXIT_CODE,
    };
    Ok(Execution {
        exit_code,
        stdout: captured.stdout.into_text(),
        stderr: captured.stderr.into_text(),
        truncated,
        timed_out,
    })
}

/// How long the output of a killed group is still read: a process that left the group may
/// hold the pipes open forever.
const DRAIN_AFTER_KILL: Duration = Duration::from_secs(1);

/// Stops a child that ran out of time: SIGTERM to its group, what it writes meanwhile is still
/// captured, and SIGKILL if the child has not exited after [`TERM_GRACE`].
async fn stop<O, E>(child: &mut Child, group: &ProcessGroup, capture: &mut Capture<O, E>)
where
    O: tokio::io::AsyncRead + Unpin,
    E: tokio::io::AsyncRead + Unpin,
{
    group.terminate();
    let _ = tokio::time::timeout(TERM_GRACE, async {
        let _ = capture.read_until_closed().await;
        child.wait().await
    })
    .await;
    // Whether or not the leader is gone, what is left of its group (a grandchild that ignores
    // SIGTERM and let go of the pipes) is killed. Once the leader is reaped, its number stays
    // the group's for as long as any member lives, so this reaches only the group; with no
    // member left it reaches nothing (Linux does not hand out a pid again within moments).
    group.kill();
    let _ = tokio::time::timeout(DRAIN_AFTER_KILL, capture.read_until_closed()).await;
}

/// A name the operating system can carry as one variable: not empty, no `=` and no NUL. (A
/// name with `=` would silently become another variable with a different value.) Looser than
/// [`crate::text::is_env_name`] on purpose: an inherited name to remove may be anything the
/// system allows (`ProgramFiles(x86)`).
fn can_carry_env_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['=', '\0'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_file_cannot_receive_a_line_break_and_takes_everything_else() {
        let args = |values: &[&str]| {
            values
                .iter()
                .map(|value| value.to_string())
                .collect::<Vec<_>>()
        };
        let data = args(&["&", "|", "^", ">", "%PATH%", "!PATH!", "a b", "\"", "é"]);
        for program in [
            "C:\\az\\az.cmd",
            "C:\\x\\y.BAT",
            "run.Cmd",
            "az.cmd.",
            "az.cmd . ",
        ] {
            let program = Path::new(program);
            assert_eq!(batch_argument_refused(program, &data), None);
            assert_eq!(
                batch_argument_refused(program, &args(&["ok", "a\nb"])),
                Some(2)
            );
            assert_eq!(batch_argument_refused(program, &args(&["a\rb"])), Some(1));
        }
        // Programs that are not batch files take a line break (as every program on Unix).
        for program in ["C:\\az\\az.exe", "/usr/bin/az", "az.cmd.exe", "cmd"] {
            assert_eq!(
                batch_argument_refused(Path::new(program), &args(&["a\nb"])),
                None
            );
        }
    }

    #[test]
    fn env_names_that_would_change_meaning_are_refused() {
        assert!(can_carry_env_name("AWS_REGION"));
        assert!(can_carry_env_name("ProgramFiles(x86)"));
        for name in ["", "A=B", "A\0B"] {
            assert!(!can_carry_env_name(name), "{name:?}");
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
            timeout: None,
        };
        let shown = format!("{launch:?}");
        assert!(shown.contains("AWS_SECRET_ACCESS_KEY"));
        assert!(!shown.contains("hunter2"));
    }
}

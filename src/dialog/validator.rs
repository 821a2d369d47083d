//! Validating a candidate on a background thread of the prompt process, so the window keeps
//! repainting (progress, Cancel) while the provider's validator runs.
//!
//! The validator is the server's own ([`ValidatorSpec::validator`]) and runs through the
//! server's launcher ([`crate::auth::Validator::launch`], [`runner::run`]): without a shell,
//! by the absolute path the server resolved, with a null stdin and its output discarded, none
//! of Torii's `TORII_*` variables, confined out of the config root, in a process group of its
//! own and within [`runner::CHECK_TIMEOUT`]. Its environment is the one the server gives the
//! command. Nothing it prints reaches the window, the server or the agent. Cancelling (or
//! dropping the job, when the window closes) kills its whole process group.

use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;

use tokio::sync::oneshot;

use crate::prompt::ValidatorSpec;
use crate::runner::{self, Execution, Launch, RunError};
use crate::secret::Secret;

/// The validator's decision on a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validation {
    Accepted,
    /// Refused, with why (never the validator's output).
    Refused(Refusal),
}

/// Why a candidate was refused. It is put into words by the window, in its language: the
/// validation runs on a thread of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The validator ran and exited with this code.
    Exit(i32),
    /// It ran past its time limit, in seconds.
    TimedOut(u64),
    /// It could not be started, and why (the runner's own message).
    NotStarted(String),
    Cancelled,
    /// The validation thread ended without a verdict.
    Stopped,
}

impl Refusal {
    /// The reason for the human, in the current language.
    pub fn text(&self) -> String {
        match self {
            Refusal::Exit(code) => crate::tr!("auth-validator-exit", code = *code),
            Refusal::TimedOut(seconds) => {
                crate::tr!("auth-validator-timeout", seconds = *seconds)
            }
            Refusal::NotStarted(why) => {
                crate::tr!("auth-validator-not-started", why = why.as_str())
            }
            Refusal::Cancelled => crate::tr!("auth-validator-cancelled"),
            Refusal::Stopped => crate::tr!("auth-validator-stopped"),
        }
    }
}

/// A running validation.
pub struct Job {
    verdict: Receiver<Validation>,
    /// Sending (or dropping) it stops the validation.
    cancel: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Job {
    /// Starts `spec` with `candidate` injected; `wake` is called (from the thread) when the
    /// verdict is ready, so the window repaints.
    pub fn start(
        spec: &ValidatorSpec,
        candidate: &BTreeMap<String, Secret>,
        wake: impl Fn() + Send + 'static,
    ) -> Job {
        let (sender, verdict) = mpsc::channel();
        let (cancel, cancelled) = oneshot::channel();
        let launch = spec.validator().launch(candidate);
        let thread = std::thread::Builder::new()
            .name("validator".into())
            .spawn(move || {
                // The window may be gone already: nobody to tell then.
                let _ = sender.send(check(launch, cancelled));
                wake();
            });
        match thread {
            Ok(thread) => Job {
                verdict,
                cancel: Some(cancel),
                thread: Some(thread),
            },
            Err(error) => {
                let (sender, verdict) = mpsc::channel();
                let _ = sender.send(Validation::Refused(Refusal::NotStarted(error.to_string())));
                Job {
                    verdict,
                    cancel: None,
                    thread: None,
                }
            }
        }
    }

    /// The verdict, once there is one.
    pub fn poll(&self) -> Option<Validation> {
        match self.verdict.try_recv() {
            Ok(verdict) => Some(verdict),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Validation::Refused(Refusal::Stopped)),
        }
    }

    /// Kills the validator if it still runs and waits for the thread.
    pub fn cancel(&mut self) {
        if let Some(cancel) = self.cancel.take() {
            // The thread may have finished already: nothing to stop then.
            let _ = cancel.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Runs `launch` until it ends or `cancelled` fires, on a runtime of this thread's own.
fn check(launch: Launch, cancelled: oneshot::Receiver<()>) -> Validation {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => return Validation::Refused(Refusal::NotStarted(error.to_string())),
    };
    runtime.block_on(async {
        tokio::select! {
            finished = runner::run(launch) => verdict(finished),
            // Dropping the run kills the validator's process group.
            _ = cancelled => Validation::Refused(Refusal::Cancelled),
        }
    })
}

/// Accepted on exit code 0, as the server decides ([`crate::auth::Validator::accepts`]).
fn verdict(finished: Result<Execution, RunError>) -> Validation {
    match finished {
        Ok(execution) if execution.exit_code == 0 => Validation::Accepted,
        Ok(execution) if execution.timed_out => {
            Validation::Refused(Refusal::TimedOut(runner::CHECK_TIMEOUT.as_secs()))
        }
        Ok(execution) => Validation::Refused(Refusal::Exit(execution.exit_code)),
        Err(error) => Validation::Refused(Refusal::NotStarted(crate::errors::chain(&error))),
    }
}

// The validators these tests run are `sh` scripts.
#[cfg(all(test, unix))]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::confine::Confinement;

    fn sh(script: &str, inject: &[(&str, &str)]) -> ValidatorSpec {
        ValidatorSpec {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            base_env: vec![("FROM_DOTENV".into(), Secret::from("dotenv"))],
            inject: inject
                .iter()
                .map(|(variable, field)| (variable.to_string(), field.to_string()))
                .collect(),
            removed_env: vec!["HOME".into()],
            confine_root: "/nonexistent/torii-root".into(),
            confine_programs: Vec::new(),
            confinement: crate::confine::Mode::BestEffort,
        }
    }

    fn wait(job: &Job) -> Validation {
        for _ in 0..500 {
            if let Some(verdict) = job.poll() {
                return verdict;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the validator did not finish");
    }

    fn candidate(token: &str) -> BTreeMap<String, Secret> {
        BTreeMap::from([("TOKEN_FIELD".to_string(), Secret::from(token))])
    }

    #[test]
    fn the_candidate_is_injected_over_a_clean_overlay() {
        let spec = sh(
            r#"[ "$API_TOKEN" = good ] && [ "$FROM_DOTENV" = dotenv ] && [ -z "${HOME+set}" ]"#,
            &[("API_TOKEN", "TOKEN_FIELD")],
        );
        assert_eq!(
            wait(&Job::start(&spec, &candidate("good"), || {})),
            Validation::Accepted
        );
        assert_eq!(
            wait(&Job::start(&spec, &candidate("bad"), || {})),
            Validation::Refused(Refusal::Exit(1))
        );
    }

    #[test]
    fn refuses_relative_programs_and_bad_names() {
        let mut relative = sh("true", &[]);
        relative.program = "sh".into();
        assert!(matches!(
            wait(&Job::start(&relative, &candidate("x"), || {})),
            Validation::Refused(Refusal::NotStarted(reason)) if reason.contains("absolute")
        ));
        let bad_name = sh("true", &[("A=B", "TOKEN_FIELD")]);
        assert!(matches!(
            wait(&Job::start(&bad_name, &candidate("x"), || {})),
            Validation::Refused(Refusal::NotStarted(reason)) if reason.contains("`A=B`")
        ));
    }

    /// Issue 15: the window's validator had a launcher of its own, which left an injected
    /// variable unset when its field was empty where the server sets it (empty), for its own
    /// validation and for the command. A candidate is validated under exactly the environment
    /// the server gives it.
    #[tokio::test]
    async fn the_window_validates_a_candidate_under_the_servers_environment() {
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("env");
        let validator = crate::auth::Validator {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), format!("env | sort > '{}'", record.display())],
            base_env: vec![("FROM_DOTENV".into(), Secret::from("dotenv"))],
            inject: vec![
                ("CLI_TOKEN".into(), "TOKEN".into()),
                ("CLI_EXTRA".into(), "EXTRA".into()),
            ],
            removed_env: vec!["HOME".into()],
            confinement: Confinement::new(
                std::path::Path::new("/nonexistent/torii-root"),
                crate::confine::Mode::BestEffort,
                &[],
            ),
        };
        let candidate = BTreeMap::from([
            ("TOKEN".to_string(), Secret::from("token")),
            ("EXTRA".to_string(), Secret::from("")),
        ]);
        // What the server sends the window.
        let spec = ValidatorSpec::from(&validator);
        assert_eq!(
            wait(&Job::start(&spec, &candidate, || {})),
            Validation::Accepted
        );
        let in_the_window = std::fs::read_to_string(&record).unwrap();
        assert!(validator.accepts(&candidate).await.unwrap());
        let in_the_server = std::fs::read_to_string(&record).unwrap();
        assert!(
            in_the_server.lines().any(|line| line == "CLI_EXTRA="),
            "{in_the_server}"
        );
        assert!(!in_the_server.lines().any(|line| line.starts_with("HOME=")));
        assert_eq!(in_the_window, in_the_server);
    }

    #[test]
    fn cancel_kills_a_running_validator() {
        let spec = sh("sleep 30", &[]);
        let mut job = Job::start(&spec, &candidate("x"), || {});
        let started = std::time::Instant::now();
        job.cancel();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(job.poll(), Some(Validation::Refused(Refusal::Cancelled)));
    }
}

//! Validating a candidate on a background thread of the prompt process, so the window keeps
//! repainting (progress, Cancel) while the provider's validator runs.
//!
//! The validator is started without a shell, by absolute path, with null stdin, stdout and
//! stderr: nothing it prints can reach the window, the server or the agent. Like every provider
//! child it gets none of Torii's `TORII_*` variables and is confined out of the config root.
//! Cancelling (or dropping the job, when the window closes) kills it.

use std::collections::BTreeMap;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::confine::Confinement;
use crate::prompt::ValidatorSpec;
use crate::runner::TORII_ENV_PREFIX;
use crate::secret::Secret;

/// How often the thread checks whether the validator ended or was cancelled.
const POLL: Duration = Duration::from_millis(20);

/// The validator's decision on a candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    /// Refused, with a reason for the human (never the validator's output).
    Refused(String),
}

/// A running validation.
pub struct Job {
    verdict: Receiver<Verdict>,
    cancel: Arc<AtomicBool>,
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
        let cancel = Arc::new(AtomicBool::new(false));
        let command = command(spec, candidate);
        let confinement =
            Confinement::new(&spec.confine_root, spec.confinement, &spec.confine_programs);
        let cancelled = Arc::clone(&cancel);
        let thread = std::thread::Builder::new()
            .name("validator".into())
            .spawn(move || {
                let verdict = match command {
                    Ok(command) => run(command, &confinement, &cancelled),
                    Err(reason) => Verdict::Refused(reason),
                };
                // The window may be gone already: nobody to tell then.
                let _ = sender.send(verdict);
                wake();
            });
        match thread {
            Ok(thread) => Job {
                verdict,
                cancel,
                thread: Some(thread),
            },
            Err(error) => {
                let (sender, verdict) = mpsc::channel();
                let _ = sender.send(Verdict::Refused(format!(
                    "cannot start a thread for the validator: {error}"
                )));
                Job {
                    verdict,
                    cancel,
                    thread: None,
                }
            }
        }
    }

    /// The verdict, once there is one.
    pub fn poll(&self) -> Option<Verdict> {
        match self.verdict.try_recv() {
            Ok(verdict) => Some(verdict),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Verdict::Refused(
                "the validation stopped unexpectedly".into(),
            )),
        }
    }

    /// Kills the validator if it still runs and waits for the thread.
    pub fn cancel(&mut self) {
        self.cancel.store(true, Ordering::SeqCst);
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

/// The validator's command: inherited environment minus `removed_env`, plus `base_env`, plus
/// the candidate's values for the injected variables (an empty optional field is not set).
fn command(spec: &ValidatorSpec, candidate: &BTreeMap<String, Secret>) -> Result<Command, String> {
    if !spec.program.is_absolute() {
        return Err(format!(
            "the validator {} is not an absolute path",
            spec.program.display()
        ));
    }
    let injected = spec
        .inject
        .iter()
        .filter_map(|(variable, field)| Some((variable, candidate.get(field)?.expose())))
        .filter(|(_, value)| !value.is_empty());
    let names = spec
        .removed_env
        .iter()
        .chain(spec.base_env.iter().map(|(name, _)| name))
        .chain(spec.inject.iter().map(|(name, _)| name));
    if let Some(name) = names.into_iter().find(|name| !is_env_name(name)) {
        return Err(format!("`{name}` is not a valid environment variable name"));
    }
    let mut command = Command::new(&spec.program);
    command
        .args(&spec.args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (name, _) in std::env::vars_os() {
        if name
            .as_encoded_bytes()
            .starts_with(TORII_ENV_PREFIX.as_bytes())
        {
            command.env_remove(name);
        }
    }
    for name in &spec.removed_env {
        command.env_remove(name);
    }
    command.envs(
        spec.base_env
            .iter()
            .map(|(name, value)| (name, value.expose())),
    );
    command.envs(injected);
    Ok(command)
}

fn is_env_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['=', '\0'])
}

fn run(mut command: Command, confinement: &Confinement, cancel: &AtomicBool) -> Verdict {
    let _prepared = match confinement.prepare(&mut command) {
        Ok(prepared) => prepared,
        Err(error) => {
            return Verdict::Refused(format!(
                "cannot start the validator: {}",
                crate::errors::chain(&error)
            ));
        }
    };
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => return Verdict::Refused(format!("cannot start the validator: {error}")),
    };
    loop {
        match child.try_wait() {
            Ok(Some(status)) if status.success() => return Verdict::Accepted,
            Ok(Some(status)) => return Verdict::Refused(describe(status)),
            Ok(None) if cancel.load(Ordering::SeqCst) => {
                stop(&mut child);
                return Verdict::Refused("the validation was cancelled".into());
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(error) => {
                stop(&mut child);
                return Verdict::Refused(format!("cannot wait for the validator: {error}"));
            }
        }
    }
}

fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

fn describe(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("the validator exited with code {code}"),
        None => "the validator was stopped by a signal".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn wait(job: &Job) -> Verdict {
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
            Verdict::Accepted
        );
        assert_eq!(
            wait(&Job::start(&spec, &candidate("bad"), || {})),
            Verdict::Refused("the validator exited with code 1".into())
        );
    }

    #[test]
    fn refuses_relative_programs_and_bad_names() {
        let mut relative = sh("true", &[]);
        relative.program = "sh".into();
        assert!(matches!(
            wait(&Job::start(&relative, &candidate("x"), || {})),
            Verdict::Refused(reason) if reason.contains("absolute")
        ));
        let bad_name = sh("true", &[("A=B", "TOKEN_FIELD")]);
        assert!(matches!(
            wait(&Job::start(&bad_name, &candidate("x"), || {})),
            Verdict::Refused(reason) if reason.contains("`A=B`")
        ));
    }

    #[test]
    fn cancel_kills_a_running_validator() {
        let spec = sh("sleep 30", &[]);
        let mut job = Job::start(&spec, &candidate("x"), || {});
        let started = std::time::Instant::now();
        job.cancel();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(
            job.poll(),
            Some(Verdict::Refused("the validation was cancelled".into()))
        );
    }
}

//! Starting a provider child, and the started child: its output pipes, its number, its exit.
//!
//! On Linux the confinement's launcher starts it (see `confine::launcher`): the child is
//! Torii's own, waited for on SIGCHLD. Elsewhere tokio starts it, unconfined
//! (where `child_confinement: required` allows that at all).

#[cfg(target_os = "linux")]
use std::ffi::OsStr;

#[cfg(target_os = "linux")]
use super::exec::{Launch, inherited_env};

/// The child's whole environment: the inherited one, the listed variables removed, then the
/// overlay (a later entry wins).
#[cfg(target_os = "linux")]
fn environment(launch: &Launch) -> Vec<(&OsStr, &OsStr)> {
    let mut env: std::collections::BTreeMap<&OsStr, &OsStr> = inherited_env()
        .iter()
        .map(|(name, value)| (name.as_os_str(), value.as_os_str()))
        .collect();
    for name in &launch.env_remove {
        env.remove(OsStr::new(name));
    }
    for (name, value) in &launch.env_overlay {
        env.insert(OsStr::new(name), OsStr::new(value.expose()));
    }
    env.into_iter().collect()
}

#[cfg(target_os = "linux")]
pub(crate) use linux::{Child, start};
#[cfg(not(target_os = "linux"))]
pub(crate) use tokio_child::{Child, start};

#[cfg(target_os = "linux")]
mod linux {
    use std::io;
    use std::os::fd::{AsFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::process::ExitStatus;

    use tokio::net::unix::pipe;

    use super::super::RunError;
    use super::super::exec::Launch;
    use crate::confine::launcher::{Start, StartError, Started};

    /// A child started by the launcher. Dropped before it was waited for (a cancelled call),
    /// it is killed, and reaped in the background.
    #[derive(Debug)]
    pub(crate) struct Child {
        started: Option<Started>,
        status: Option<ExitStatus>,
        pid: u32,
        pub(crate) stdout: Option<pipe::Receiver>,
        pub(crate) stderr: Option<pipe::Receiver>,
    }

    /// Starts `launch` through its confinement, with stdin from `/dev/null` and stdout and
    /// stderr into pipes.
    pub(crate) fn start(launch: &Launch) -> Result<Child, RunError> {
        let spawn_error = |source: io::Error| RunError::Spawn {
            program: launch.program.clone(),
            source,
        };
        let pipe = || -> io::Result<(pipe::Receiver, OwnedFd)> {
            let (ours, theirs) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
            Ok((pipe::Receiver::from_owned_fd(ours)?, theirs))
        };
        let (stdout, stdout_end) = pipe().map_err(spawn_error)?;
        let (stderr, stderr_end) = pipe().map_err(spawn_error)?;
        // Opened once: every child reads the same nothing.
        static NULL: std::sync::OnceLock<std::fs::File> = std::sync::OnceLock::new();
        let null = match NULL.get() {
            Some(null) => null,
            None => {
                let opened = std::fs::File::open("/dev/null").map_err(spawn_error)?;
                NULL.get_or_init(|| opened)
            }
        };
        let env: Vec<Vec<u8>> = super::environment(launch)
            .into_iter()
            .map(|(name, value)| [name.as_bytes(), b"=", value.as_bytes()].concat())
            .collect();
        let started = launch
            .confinement
            .start(&Start {
                program: &launch.program,
                args: &launch.args,
                env: &env,
                stdio: [null.as_fd(), stdout_end.as_fd(), stderr_end.as_fd()],
            })
            .map_err(|error| match error {
                StartError::Confine(source) => RunError::Confine {
                    program: launch.program.clone(),
                    source,
                },
                StartError::Program(source) => spawn_error(source),
            })?;
        let pid = started.pid.as_raw_nonzero().get() as u32;
        Ok(Child {
            started: Some(started),
            status: None,
            pid,
            stdout: Some(stdout),
            stderr: Some(stderr),
        })
    }

    /// Waits until `started` has ended, and reaps it. A child's end is a SIGCHLD to Torii
    /// (the launcher started it as Torii's own): each one is a reason to look again. Listening
    /// starts before the first look, so an end between the two is not missed.
    async fn reaped(started: &Started) -> io::Result<ExitStatus> {
        let mut ended = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::child())?;
        loop {
            if let Some(status) = started.reap(false)? {
                return Ok(status);
            }
            if ended.recv().await.is_none() {
                return Err(io::Error::other("the runtime is shutting down"));
            }
        }
    }

    impl Child {
        pub(crate) fn id(&self) -> Option<u32> {
            Some(self.pid)
        }

        /// Waits for the child to end (again: the same status).
        pub(crate) async fn wait(&mut self) -> io::Result<ExitStatus> {
            if let Some(status) = self.status {
                return Ok(status);
            }
            let started = self
                .started
                .as_ref()
                .ok_or_else(|| io::Error::other("the child is no longer watched"))?;
            let status = reaped(started).await?;
            self.status = Some(status);
            Ok(status)
        }

        /// The inode numbers of the output pipes (the child's ends are the same pipes).
        pub(crate) fn output_pipes(&self) -> Vec<u64> {
            [self.stdout.as_ref(), self.stderr.as_ref()]
                .into_iter()
                .flatten()
                .filter_map(|end| rustix::fs::fstat(end.as_fd()).ok())
                .map(|stat| stat.st_ino)
                .collect()
        }
    }

    impl Drop for Child {
        fn drop(&mut self) {
            let Some(started) = self.started.take() else {
                return;
            };
            if self.status.is_some() {
                return;
            }
            started.kill();
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => {
                    runtime.spawn(async move {
                        let _ = reaped(&started).await;
                    });
                }
                // Killed, it ends at once.
                Err(_) => {
                    let _ = started.reap(true);
                }
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod tokio_child {
    use std::process::Stdio;

    use super::super::RunError;
    use super::super::exec::{Launch, inherited_env};

    pub(crate) type Child = tokio::process::Child;

    /// Starts `launch` with tokio, unconfined, with stdin from the null device and stdout and
    /// stderr into pipes.
    pub(crate) fn start(launch: &Launch) -> Result<Child, RunError> {
        launch
            .confinement
            .check_unconfined()
            .map_err(|source| RunError::Confine {
                program: launch.program.clone(),
                source,
            })?;
        let mut command = tokio::process::Command::new(&launch.program);
        command
            .args(&launch.args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_clear()
            .envs(inherited_env().iter().map(|(name, value)| (name, value)));
        // The standard library compares names as the system does (on Windows, whatever
        // their case).
        for name in &launch.env_remove {
            command.env_remove(name);
        }
        for (name, value) in &launch.env_overlay {
            command.env(name, value.expose());
        }
        // Its own process group, so that stopping the call stops what it started too.
        #[cfg(unix)]
        command.process_group(0);
        command.spawn().map_err(|source| RunError::Spawn {
            program: launch.program.clone(),
            source,
        })
    }
}

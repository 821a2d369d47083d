//! The process group of one provider child: the child and everything it starts (unless that
//! leaves the group on purpose, with `setsid` or `setpgid`).
//!
//! Each child is started as the leader of a new group, so that stopping a call stops its
//! grandchildren too (`kubectl` plugins, `aws` credential helpers, a `sh -c` pipeline). The
//! group is killed when its [`ProcessGroup`] is dropped before the call finished: the call was
//! cancelled, the server is shutting down, or reading the child failed.

use std::time::Duration;

/// How long a timed-out child has between SIGTERM and SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_secs(2);

#[derive(Debug)]
pub(crate) struct ProcessGroup {
    #[cfg(unix)]
    id: Option<rustix::process::Pid>,
}

impl ProcessGroup {
    /// The group `child` leads (it was started with `process_group(0)`).
    pub(crate) fn led_by(child: &tokio::process::Child) -> Self {
        #[cfg(unix)]
        {
            let id = child
                .id()
                .and_then(|pid| i32::try_from(pid).ok())
                .and_then(rustix::process::Pid::from_raw);
            Self { id }
        }
        #[cfg(not(unix))]
        {
            let _ = child;
            Self {}
        }
    }

    /// Asks every process of the group to stop.
    pub(crate) fn terminate(&self) {
        #[cfg(unix)]
        self.signal(rustix::process::Signal::TERM);
    }

    /// Stops every process of the group now.
    pub(crate) fn kill(&self) {
        #[cfg(unix)]
        self.signal(rustix::process::Signal::KILL);
    }

    #[cfg(unix)]
    fn signal(&self, signal: rustix::process::Signal) {
        if let Some(id) = self.id {
            // ESRCH (the group is already gone) is the expected end; nothing else can fail for
            // a group of our own child.
            let _ = rustix::process::kill_process_group(id, signal);
        }
    }

    /// The call is over and its leader was reaped: the group number may be reused from now
    /// on, so it is never signalled again. (Processes the child left running in the
    /// background stay, as they would after a call from a terminal.)
    pub(crate) fn finished(mut self) {
        #[cfg(unix)]
        {
            self.id = None;
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}

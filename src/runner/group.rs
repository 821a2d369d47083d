//! The processes of one provider child: its process group, and on Linux every descendant.
//!
//! Each child is started as the leader of a new group, so that stopping a call stops its
//! grandchildren too (`kubectl` plugins, `aws` credential helpers, a `sh -c` pipeline). A
//! process that leaves the group (`setsid`, `setpgid`) is still the child's descendant: on
//! Linux the child reaps its own orphans (see `confine::sys::start_child`), so while it
//! lives its whole tree stays under it, and stopping the call signals every descendant found
//! in `/proc` as well as the group, and so is any process that still holds the child's output
//! pipes (a descendant that outlived the child and was re-parented elsewhere). Processes seen
//! when the call is asked to stop are remembered, so the final kill still reaches one that
//! outlived the leader. Everything is killed when the [`ProcessGroup`] is dropped before the
//! call finished: the call was cancelled, the server is shutting down, or reading the child
//! failed.

use std::time::Duration;

/// How long a timed-out child has between SIGTERM and SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_secs(2);

#[derive(Debug)]
pub(crate) struct ProcessGroup {
    #[cfg(unix)]
    id: Option<rustix::process::Pid>,
    /// The leader as it was started (read once per call, right after the spawn, while nothing
    /// can have reaped it): its descendants are looked for only while its number is still its
    /// own (once it is reaped, the number may name another process).
    #[cfg(target_os = "linux")]
    leader: Option<tree::Process>,
    /// Descendants seen so far, with their start times (a reused number is never signalled).
    #[cfg(target_os = "linux")]
    seen: std::sync::Mutex<Vec<tree::Process>>,
    /// The pipes of the child's output: a process holding one belongs to the call, wherever it
    /// was re-parented (a descendant that outlived the child).
    #[cfg(target_os = "linux")]
    pipes: Vec<u64>,
}

impl ProcessGroup {
    /// The group `child` leads (it was started as the leader of a group of its own).
    pub(crate) fn led_by(child: &super::child::Child) -> Self {
        #[cfg(unix)]
        {
            let id = child
                .id()
                .and_then(|pid| i32::try_from(pid).ok())
                .and_then(rustix::process::Pid::from_raw);
            Self {
                id,
                #[cfg(target_os = "linux")]
                leader: id.and_then(tree::Process::of),
                #[cfg(target_os = "linux")]
                seen: std::sync::Mutex::default(),
                #[cfg(target_os = "linux")]
                pipes: child.output_pipes(),
            }
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
        let Some(id) = self.id else { return };
        #[cfg(target_os = "linux")]
        self.signal_descendants(id, signal);
        // ESRCH (the group is already gone) is the expected end; nothing else can fail for
        // a group of our own child.
        let _ = rustix::process::kill_process_group(id, signal);
    }

    /// Signals every descendant of the leader, those seen before included. A kill takes a few
    /// rounds, since a process may start others meanwhile (they are re-parented to the leader
    /// as their parents die, so the next round finds them).
    #[cfg(target_os = "linux")]
    fn signal_descendants(&self, leader: rustix::process::Pid, signal: rustix::process::Signal) {
        let rounds = if signal == rustix::process::Signal::KILL {
            8
        } else {
            1
        };
        let Ok(mut seen) = self.seen.lock() else {
            return;
        };
        for _ in 0..rounds {
            // A reaped leader's number may belong to another process by now: its children
            // are not this call's.
            let own = self.leader.is_some_and(|l| l.pid == leader && l.is_same());
            let descendants = if own {
                tree::descendants(leader)
            } else {
                Vec::new()
            };
            for process in descendants.into_iter().chain(tree::holding(&self.pipes)) {
                if !seen.contains(&process) {
                    seen.push(process);
                }
            }
            let alive: Vec<tree::Process> = seen.iter().filter(|p| p.is_alive()).copied().collect();
            if alive.is_empty() {
                break;
            }
            for process in alive {
                let _ = rustix::process::kill_process(process.pid, signal);
            }
        }
    }

    /// The call is over and its leader was reaped: the group number may be reused from now
    /// on, so it is never signalled again. (Processes the child left running in the
    /// background stay, as they would after a call from a terminal.)
    #[cfg_attr(not(unix), allow(unused_mut))]
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

/// The process tree under a leader, read from `/proc`.
#[cfg(target_os = "linux")]
mod tree {
    use rustix::process::Pid;

    /// One process, told apart from a later one with the same number by its start time.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) struct Process {
        pub(super) pid: Pid,
        start: u64,
    }

    impl Process {
        /// The process `pid` is now.
        pub(super) fn of(pid: Pid) -> Option<Process> {
            let stat = stat(pid.as_raw_nonzero().get())?;
            Some(Process {
                pid,
                start: stat.start,
            })
        }

        /// Whether the number still names this process (alive or a zombie not yet reaped).
        pub(super) fn is_same(&self) -> bool {
            stat(self.pid.as_raw_nonzero().get()).is_some_and(|stat| stat.start == self.start)
        }

        /// Whether this very process still exists (and is not a zombie).
        pub(super) fn is_alive(&self) -> bool {
            stat(self.pid.as_raw_nonzero().get())
                .is_some_and(|stat| stat.start == self.start && stat.state != 'Z')
        }
    }

    struct Stat {
        state: char,
        parent: i32,
        start: u64,
    }

    /// State, parent and start time from `/proc/<pid>/stat` (the command name, in
    /// parentheses, may hold spaces and parentheses: the fields follow its last `)`).
    fn stat(pid: i32) -> Option<Stat> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (_, rest) = text.rsplit_once(") ")?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        Some(Stat {
            state: fields.first()?.chars().next()?,
            parent: fields.get(1)?.parse().ok()?,
            // Field 22 of the file, 20th after the name.
            start: fields.get(19)?.parse().ok()?,
        })
    }

    /// Every live process of this user that holds one of `pipes` open (found through
    /// `/proc/<pid>/fd`, which other users' processes do not show).
    pub(super) fn holding(pipes: &[u64]) -> Vec<Process> {
        if pipes.is_empty() {
            return Vec::new();
        }
        let names: Vec<String> = pipes
            .iter()
            .map(|inode| format!("pipe:[{inode}]"))
            .collect();
        let own = std::process::id();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
            .filter(|pid| u32::try_from(*pid).ok() != Some(own))
            .filter(|pid| {
                std::fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
                    fds.flatten().any(|fd| {
                        std::fs::read_link(fd.path()).is_ok_and(|target| {
                            names.iter().any(|name| target.as_os_str() == name.as_str())
                        })
                    })
                })
            })
            .filter_map(|pid| {
                let stat = stat(pid).filter(|stat| stat.state != 'Z')?;
                Some(Process {
                    pid: Pid::from_raw(pid)?,
                    start: stat.start,
                })
            })
            .collect()
    }

    /// Every live descendant of `leader`.
    pub(super) fn descendants(leader: Pid) -> Vec<Process> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        let all: Vec<(i32, Stat)> = entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| Some((pid, stat(pid)?)))
            .collect();
        let mut found = Vec::new();
        let mut parents = vec![leader.as_raw_nonzero().get()];
        while let Some(parent) = parents.pop() {
            for (pid, stat) in &all {
                if stat.parent == parent && stat.state != 'Z' {
                    parents.push(*pid);
                    if let Some(pid) = Pid::from_raw(*pid) {
                        found.push(Process {
                            pid,
                            start: stat.start,
                        });
                    }
                }
            }
        }
        found
    }
}

//! The only unsafe code in Torii: what a child does to itself between `fork` and `exec`.
//!
//! Each child must get a Landlock domain of its own. A domain shared with a thread of Torii's
//! would let the child reach that thread (`/proc/<torii>/task/<tid>/mem` is allowed within one
//! domain), and through it all of Torii's memory, and a domain shared with another child would
//! let them read each other. So Torii's own threads are never restricted: the child restricts
//! itself just before it runs the program, with a ruleset Torii built beforehand.

#![allow(unsafe_code)]

use std::os::fd::RawFd;
use std::os::unix::process::CommandExt;

/// Makes the child of `command` restrict itself with the Landlock ruleset `ruleset` (and set
/// `no_new_privs`, which Landlock requires) before it executes the program. If either call
/// fails, the child never runs the program and the spawn fails.
///
/// `ruleset` must stay open until the spawn has returned: the caller holds it.
pub(super) fn restrict_before_exec(command: &mut std::process::Command, ruleset: RawFd) {
    // SAFETY: the closure runs in the forked child before `exec`, where only
    // async-signal-safe functions may be called. It makes two raw system calls (`prctl` and
    // `landlock_restrict_self`) with plain integer arguments, allocates nothing, takes no lock
    // and touches no memory but its own stack and the copied `ruleset` number. The descriptor
    // is open in the child, since close-on-exec closes it only at `exec`.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Makes the child of `command` the reaper of its own orphans before it executes the program:
/// a process its descendants leave behind (a double fork, `setsid`) is re-parented to the
/// child instead of to init, so while the child lives its whole tree stays under it, where a
/// timeout or a cancellation finds and ends it. The setting survives `exec`.
pub(crate) fn reap_orphans_before_exec(command: &mut std::process::Command) {
    // SAFETY: the closure runs in the forked child before `exec`, where only
    // async-signal-safe functions may be called. It makes one raw system call (`prctl`) with
    // plain integer arguments, allocates nothing, takes no lock and touches no memory but its
    // own stack.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

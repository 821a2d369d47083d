//! The only unsafe code in Torii: what a child does to itself between `fork` and `exec`
//! (enter a mount namespace where it can, restrict itself with Landlock, reap its orphans).
//!
//! Each child must get a Landlock domain of its own. A domain shared with a thread of Torii's
//! would let the child reach that thread (`/proc/<torii>/task/<tid>/mem` is allowed within one
//! domain), and through it all of Torii's memory, and a domain shared with another child would
//! let them read each other. So Torii's own threads are never restricted: the child restricts
//! itself just before it runs the program, with a ruleset Torii built beforehand.

#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
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

/// What a child sets up in a mount namespace of its own before it restricts itself, so that
/// the directories above the root can take new entries: the root hidden under an empty
/// read-only file system, the paths children must not change bound read-only over themselves.
/// Everything is a C string built beforehand: the child allocates nothing.
#[derive(Debug)]
pub(super) struct MountPlan {
    /// `"<uid> <uid> 1"` and `"<gid> <gid> 1"`: the child stays who it is.
    pub(super) uid_map: CString,
    pub(super) gid_map: CString,
    /// Directories that get an empty read-only `tmpfs` over them.
    pub(super) hidden_dirs: Vec<CString>,
    /// Files that get `/dev/null`, read-only, over them.
    pub(super) hidden_files: Vec<CString>,
    /// Paths bound read-only over themselves, with everything mounted beneath them.
    pub(super) read_only: Vec<CString>,
    /// The working directory, entered again once the mounts are in place (a directory the
    /// child was in before stays reachable through it otherwise).
    pub(super) cwd: CString,
}

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;

/// Makes the child of `command` enter a mount namespace set up by `plan` and then restrict
/// itself with `open`; when any step of the namespace fails (user namespaces not allowed, a
/// mount refused), with `closed` instead, which keeps the root out of reach without a
/// namespace. Either way `no_new_privs` is set, and a child whose restriction fails never runs
/// the program.
///
/// `plan`, `open` and `closed` must stay alive until the spawn has returned: the caller holds
/// them.
pub(super) fn enter_namespace_then_restrict(
    command: &mut std::process::Command,
    plan: std::sync::Arc<MountPlan>,
    open: RawFd,
    closed: RawFd,
) {
    // SAFETY: the closure runs in the forked child before `exec`, where only
    // async-signal-safe functions may be called. It makes raw system calls (`prctl`,
    // `unshare`, `open`, `write`, `close`, `mount`, `mount_setattr`, `chdir`,
    // `landlock_restrict_self`) with
    // integer arguments and pointers to C strings that `plan` owns, built before the fork;
    // it allocates nothing, takes no lock and touches no memory but its stack and `plan`,
    // which the parent keeps alive (and unchanged) until the spawn returned.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            let ruleset = if enter(&plan) { open } else { closed };
            if libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// The namespace of `plan`; `false` at the first step that fails.
///
/// The mounts are made in a first user and mount namespace, then sealed by entering a second
/// pair: mounts that come from a more privileged namespace are locked together, so neither
/// `open_tree` nor `mount_setattr` can take the tmpfs off a copy of the tree or make a
/// read-only bind writable again, even for a child that is root in its namespace (Landlock
/// forbids `mount` and `umount`, not those). The capability bounding set is emptied last, so
/// that a child running as root keeps no capability through `exec` either.
///
/// # Safety
/// Called only in a forked child before `exec` (see [`enter_namespace_then_restrict`]).
unsafe fn enter(plan: &MountPlan) -> bool {
    const NONE: *const libc::c_char = std::ptr::null();
    let read_only = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: every pointer is null, a C string `plan` owns or `read_only` on this stack; the
    // calls only read them.
    unsafe {
        let make_read_only = |path: &CStr| {
            libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                path.as_ptr(),
                libc::AT_RECURSIVE,
                &read_only as *const MountAttr,
                std::mem::size_of::<MountAttr>(),
            ) == 0
        };
        enter_user_namespace(plan)
            // Nothing mounted here reaches the rest of the system.
            && libc::mount(NONE, c"/".as_ptr(), NONE, libc::MS_REC | libc::MS_PRIVATE, std::ptr::null()) == 0
            && plan.hidden_dirs.iter().all(|dir| {
                libc::mount(
                    c"torii".as_ptr(),
                    dir.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    c"size=4k,mode=000".as_ptr().cast(),
                ) == 0
            })
            && plan.hidden_files.iter().all(|file| {
                libc::mount(c"/dev/null".as_ptr(), file.as_ptr(), NONE, libc::MS_BIND, std::ptr::null()) == 0
                    && make_read_only(file)
            })
            && plan.read_only.iter().all(|path| {
                libc::mount(path.as_ptr(), path.as_ptr(), NONE, libc::MS_BIND | libc::MS_REC, std::ptr::null()) == 0
                    && make_read_only(path)
            })
            && enter_user_namespace(plan)
            && (0..64).all(|capability| {
                libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0) == 0
                    || std::io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL)
            })
            && libc::chdir(plan.cwd.as_ptr()) == 0
    }
}

/// A new user namespace where the child keeps its own user and group, with a mount namespace
/// of its own.
///
/// # Safety
/// Called only in a forked child before `exec`.
unsafe fn enter_user_namespace(plan: &MountPlan) -> bool {
    // SAFETY: plain system calls on constant and `plan`'s C strings.
    unsafe {
        libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS) == 0
            && write_file(c"/proc/self/setgroups", b"deny")
            && write_file(c"/proc/self/uid_map", plan.uid_map.as_bytes())
            && write_file(c"/proc/self/gid_map", plan.gid_map.as_bytes())
    }
}

/// Writes `bytes` to the file at `path` in one `write`; `false` if any call fails.
///
/// # Safety
/// Async-signal-safe: usable between `fork` and `exec`.
unsafe fn write_file(path: &CStr, bytes: &[u8]) -> bool {
    // SAFETY: `path` is a C string and `bytes` a live slice; the descriptor is closed here.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        libc::close(fd);
        written == bytes.len() as isize
    }
}

/// Makes the child of `command` enter the namespace of `plan`, and fail to start if it cannot:
/// how Torii learns whether this system lets children have one.
pub(super) fn enter_namespace_before_exec(
    command: &mut std::process::Command,
    plan: std::sync::Arc<MountPlan>,
) {
    // SAFETY: as in `enter_namespace_then_restrict`: raw system calls on C strings `plan` owns,
    // built before the fork; nothing is allocated in the child.
    unsafe {
        command.pre_exec(move || {
            if enter(&plan) {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

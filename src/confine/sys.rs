//! The only unsafe code in Torii's confinement: what the launcher does to enter a mount
//! namespace, and how it starts a child that restricts itself before `exec` (see
//! `launcher.rs`).
//!
//! Each child must get a Landlock domain of its own. A domain shared with a thread of Torii's
//! would let the child reach that thread (`/proc/<torii>/task/<tid>/mem` is allowed within one
//! domain), and through it all of Torii's memory, and a domain shared with another child would
//! let them read each other. So no thread of Torii or of the launcher is ever restricted: the
//! child restricts itself just before it runs the program, with a ruleset Torii built
//! beforehand.

#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};

use rustix::process::Pid;

/// The step at which a child failed before it ran its program (sent to the server, so that
/// the error says what failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub(super) enum Step {
    Announce = 1,
    Stdio = 2,
    ProcessGroup = 3,
    Reaper = 4,
    Restrict = 5,
    Exec = 6,
}

impl Step {
    pub(super) fn from_raw(raw: u32) -> Option<Step> {
        [
            Step::Announce,
            Step::Stdio,
            Step::ProcessGroup,
            Step::Reaper,
            Step::Restrict,
            Step::Exec,
        ]
        .into_iter()
        .find(|step| *step as u32 == raw)
    }
}

/// What one child is started with: everything is built before the fork, so the child only
/// makes system calls on memory that already exists.
pub(super) struct ChildSetup<'a> {
    /// The absolute path of the program.
    pub(super) program: &'a CStr,
    /// `argv` and `envp` as `execve` takes them: pointers into strings the caller holds,
    /// each list ending with a null pointer.
    pub(super) argv: &'a [*const libc::c_char],
    pub(super) envp: &'a [*const libc::c_char],
    /// The child's stdin, stdout and stderr, in that order (close-on-exec descriptors of the
    /// launcher, numbered 3 or above).
    pub(super) stdio: [BorrowedFd<'a>; 3],
    /// The server's socket, where the child first writes its own number (`P` and an `i32`,
    /// little-endian), so that the server knows it even if the launcher ends before it answers.
    pub(super) announce: BorrowedFd<'a>,
    /// The Landlock ruleset the child restricts itself with; `None` for an unconfined child.
    pub(super) ruleset: Option<BorrowedFd<'a>>,
}

/// How much stack the child has until `execve`: it only makes system calls.
const CHILD_STACK: usize = 64 * 1024;

/// What the child of [`start_child`] needs, on the launcher's stack, and where it leaves the
/// step and `errno` it failed at (the memory is shared until `execve`).
struct ChildArgs<'a, 'b> {
    setup: &'a ChildSetup<'b>,
    failed: std::sync::atomic::AtomicU64,
}

/// Starts a child of the launcher's parent (Torii, which waits for it and reaps it) that sets
/// itself up as `setup` says and runs the program (the child tells Torii its number itself).
/// Returns its number and the step and `errno` at which it failed if it ended before its
/// program ran (Torii still reaps it).
///
/// The child shares the launcher's memory until its `execve`, as `posix_spawn`'s child does,
/// so that starting it copies no page table (a `fork` of even the small launcher cost about
/// as much as the rest of the start on a virtual machine); the launcher is suspended
/// meanwhile. Must be called in a single-threaded process (the launcher), which installs no
/// signal handler of its own (the one Rust's runtime sets for a stack overflow only reads
/// memory, then restores the default and lets the signal end the process).
pub(super) fn start_child(setup: &ChildSetup<'_>) -> std::io::Result<(Pid, Option<(Step, i32)>)> {
    if setup.argv.last() != Some(&std::ptr::null()) || setup.envp.last() != Some(&std::ptr::null())
    {
        return Err(std::io::Error::other(
            "argv and envp must end with a null pointer",
        ));
    }
    let mut stack = vec![0u8; CHILD_STACK];
    let args = ChildArgs {
        setup,
        failed: std::sync::atomic::AtomicU64::new(0),
    };
    // SAFETY: the child runs `child_main` on `stack` (its top, 16-byte aligned as every ABI
    // wants) with a pointer to `args`; both live on until `clone` returns, which with
    // `CLONE_VFORK` is after the child's `execve` or `_exit`, the launcher being suspended
    // until then. `CLONE_PARENT` makes the child Torii's, with the launcher's own exit signal
    // (SIGCHLD). The child gets its own descriptors and signal dispositions (no
    // `CLONE_FILES`, no `CLONE_SIGHAND`), so what it changes there stays its own.
    let pid = unsafe {
        let top = stack.as_mut_ptr().add(CHILD_STACK);
        let top = top.sub(top as usize % 16);
        libc::clone(
            child_main,
            top.cast(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PARENT | libc::SIGCHLD,
            (&args as *const ChildArgs<'_, '_>).cast_mut().cast(),
        )
    };
    drop(stack);
    let pid = Pid::from_raw(pid).ok_or_else(std::io::Error::last_os_error)?;
    // `clone` returned after the child's `execve` or `_exit` (`CLONE_VFORK`): what it left is
    // all it will ever write.
    let failed = args.failed.load(std::sync::atomic::Ordering::Acquire);
    if failed == 0 {
        return Ok((pid, None));
    }
    let step = Step::from_raw((failed >> 32) as u32).unwrap_or(Step::Exec);
    Ok((pid, Some((step, failed as u32 as i32))))
}

/// Where the child of [`start_child`] starts.
extern "C" fn child_main(args: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `args` is the `ChildArgs` that `start_child` keeps alive until the child has
    // called `execve` or `_exit` (see there); `run_child` never returns.
    unsafe {
        let args = &*args.cast::<ChildArgs<'_, '_>>();
        run_child(args.setup, &args.failed)
    }
}

/// The child's side: its number to the server, its stdio, its own process group, the reaper
/// of its orphans, its restriction, then the program. On any failure it leaves the step and
/// `errno` in `failed` and exits with 127.
///
/// # Safety
/// Called only in the child of [`start_child`], which shares the suspended launcher's memory:
/// it allocates nothing and writes only its own stack, `failed`, and `errno` (which the
/// launcher does not read before it resumes).
unsafe fn run_child(setup: &ChildSetup<'_>, failed: &std::sync::atomic::AtomicU64) -> ! {
    // SAFETY: plain system calls with integer arguments, C strings and pointer arrays that
    // `setup` owns, and a buffer on this stack.
    unsafe {
        let fail = |step: Step| -> ! {
            let errno = *libc::__errno_location() as u32;
            failed.store(
                (u64::from(step as u32) << 32) | u64::from(errno),
                std::sync::atomic::Ordering::Release,
            );
            libc::_exit(127)
        };
        let mut announcement = [b'P', 0, 0, 0, 0];
        announcement[1..].copy_from_slice(&libc::getpid().to_le_bytes());
        let announced = libc::send(
            setup.announce.as_raw_fd(),
            announcement.as_ptr().cast(),
            announcement.len(),
            libc::MSG_NOSIGNAL,
        );
        if announced != announcement.len() as isize {
            fail(Step::Announce);
        }
        for (target, fd) in setup.stdio.iter().enumerate() {
            // `dup2` clears close-on-exec on the copy; the launcher's own 0, 1 and 2 (its
            // socket among them) are replaced.
            if libc::dup2(fd.as_raw_fd(), target as libc::c_int) < 0 {
                fail(Step::Stdio);
            }
        }
        // Rust's runtime ignores SIGPIPE in the launcher; a program expects the default.
        if libc::signal(libc::SIGPIPE, libc::SIG_DFL) == libc::SIG_ERR {
            fail(Step::Stdio);
        }
        // Its own process group, so that stopping the call stops what it started too.
        if libc::setpgid(0, 0) != 0 {
            fail(Step::ProcessGroup);
        }
        // What leaves the group (`setsid`, a double fork) is re-parented to the child rather
        // than to init, so its whole tree stays under it, where stopping the call finds it.
        // The setting survives `exec`.
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
            fail(Step::Reaper);
        }
        if let Some(ruleset) = setup.ruleset {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                fail(Step::Restrict);
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, ruleset.as_raw_fd(), 0) != 0 {
                fail(Step::Restrict);
            }
        }
        libc::execve(
            setup.program.as_ptr(),
            setup.argv.as_ptr(),
            setup.envp.as_ptr(),
        );
        fail(Step::Exec)
    }
}

/// The mount namespace the launcher sets up once for all its children, so that the
/// directories above the root can take new entries: the root hidden under an empty read-only
/// file system, the paths children must not change bound read-only over themselves.
#[derive(Debug)]
pub(super) struct MountPlan {
    /// `"<uid> <uid> 1"` and `"<gid> <gid> 1"`: the launcher and its children stay who they
    /// are.
    pub(super) uid_map: CString,
    pub(super) gid_map: CString,
    /// Directories that get an empty read-only `tmpfs` over them.
    pub(super) hidden_dirs: Vec<CString>,
    /// Files that get `/dev/null`, read-only, over them.
    pub(super) hidden_files: Vec<CString>,
    /// Paths bound read-only over themselves, with everything mounted beneath them.
    pub(super) read_only: Vec<CString>,
    /// The working directory, entered again once the mounts are in place (a directory the
    /// launcher was in before stays reachable through it otherwise).
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

/// The namespace of `plan`; `false` at the first step that fails.
///
/// The mounts are made in a first user and mount namespace, then sealed by entering a second
/// pair: mounts that come from a more privileged namespace are locked together, so neither
/// `open_tree` nor `mount_setattr` can take the tmpfs off a copy of the tree or make a
/// read-only bind writable again, even for a child that is root in its namespace (Landlock
/// forbids `mount` and `umount`, not those). The capability bounding set is emptied last, so
/// that a child running as root keeps no capability through `exec` either (the launcher then
/// gives up its own: see [`drop_capabilities`]).
///
/// Only a single-threaded process can enter a user namespace (in any other the first step
/// fails): the launcher calls this first thing.
pub(super) fn enter_namespace(plan: &MountPlan) -> bool {
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

/// Marks every descriptor from 3 up close-on-exec: those the server inherited from its client
/// without the flag (and so the launcher from the server) would otherwise reach every child.
pub(super) fn close_inherited_on_exec() -> std::io::Result<()> {
    // SAFETY: a system call with integer arguments; it closes nothing.
    let marked = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if marked == 0 {
        return Ok(());
    }
    // Before Linux 5.11: one descriptor at a time.
    for entry in std::fs::read_dir("/proc/self/fd")? {
        let Some(fd) = entry?
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<RawFd>().ok())
        else {
            continue;
        };
        if fd < 3 {
            continue;
        }
        // SAFETY: `fcntl` on a number that may or may not be open (the directory's own
        // descriptor is closed by now): it changes only that descriptor's flag, or fails.
        unsafe {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    Ok(())
}

/// Gives up every capability of the calling thread (those a user namespace grants its
/// creator): what the launcher's children inherit.
pub(super) fn drop_capabilities() -> std::io::Result<()> {
    let none = rustix::thread::CapabilitySet::empty();
    rustix::thread::set_capabilities(
        None,
        rustix::thread::CapabilitySets {
            effective: none,
            permitted: none,
            inheritable: none,
        },
    )?;
    Ok(())
}

/// A new user namespace where the launcher keeps its own user and group, with a mount
/// namespace of its own.
///
/// # Safety
/// Plain system calls; safe in any process (they fail in a threaded one).
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
/// Plain system calls on a C string and a live slice.
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

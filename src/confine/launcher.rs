//! The launcher: a small process that starts every provider child, so that a start costs the
//! same whatever the size of the server.
//!
//! A child must restrict itself between `fork` and `exec`, with a Landlock domain of its own
//! (see `sys.rs`). From the server that takes a `fork` of the whole server: its page tables
//! copied and every private page write-protected, then a page fault on the server's next write
//! to each, a cost that grows with the server's memory (a large policy doubled the cost of a
//! call). The launcher is Torii's own executable started once as `torii __launcher`, with
//! `posix_spawn` (which copies nothing) and an empty environment. It does nothing else, is
//! single-threaded, and starts each child sharing its memory until `exec`, as `posix_spawn`
//! does (see `sys::start_child`): the child can restrict itself, and nothing is copied. Its
//! children are started with `CLONE_PARENT`, so they are the server's children: the server
//! waits for them, signals them and reaps them as before.
//!
//! Where children get a mount namespace (see `sys::MountPlan`), the launcher enters it once,
//! then gives up the capabilities it had there; its children share it (they cannot change it:
//! Landlock forbids mounts, and they start without capabilities). Each child still restricts
//! itself with a domain of its own. A launcher serves one set of rules: when the rules change
//! (a directory on the way to the root changed), the next child gets a new launcher, and the old
//! one ends when its socket closes.
//!
//! The launcher listens on its standard input, one end of a socket pair that only the server
//! holds; nothing else can reach it, and a confined child cannot read its memory (Landlock
//! forbids tracing a process outside the child's domain). Each message is a length, then
//! sections of strings, with descriptors passed alongside (`SCM_RIGHTS`).

use std::ffi::{CStr, CString};
use std::io::{self, IoSlice, IoSliceMut, Read, Write};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, ReturnFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags,
};
use rustix::process::{Pid, WaitOptions};

use super::ConfineError;
use super::sys::{self, ChildSetup, MountPlan, Step};

/// The hidden subcommand that runs [`serve`].
pub const SUBCOMMAND: &str = "__launcher";

/// The most a message may hold: far above what `execve` accepts (`ARG_MAX`).
const MAX_MESSAGE: usize = 16 << 20;
/// The most descriptors one message carries (a child's stdin, stdout and stderr).
const MAX_FDS: usize = 3;
/// How long a start may take (an `execve` can hang on a dead network file system): past it
/// the call fails and the next one gets a new launcher, rather than every call waiting.
const START_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// How the launcher's children are restricted, as asked by the server.
pub(super) enum Setup<'a> {
    /// Not at all: this system cannot confine them, and the settings allow that.
    Unconfined,
    /// With the `closed` ruleset, or in the mount namespace of `plan` with the `open` one when
    /// the launcher can enter it.
    Confined {
        closed: BorrowedFd<'a>,
        namespace: Option<(BorrowedFd<'a>, &'a MountPlan)>,
    },
}

/// How the launcher's children are restricted, as it reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Restriction {
    Unconfined,
    /// The directories above the root closed, no namespace.
    Closed,
    /// In the launcher's mount namespace, with the directories above the root open.
    Namespace,
}

impl Restriction {
    fn byte(self) -> u8 {
        match self {
            Restriction::Unconfined => b'u',
            Restriction::Closed => b'c',
            Restriction::Namespace => b'n',
        }
    }

    fn from_byte(byte: u8) -> Option<Self> {
        [
            Restriction::Unconfined,
            Restriction::Closed,
            Restriction::Namespace,
        ]
        .into_iter()
        .find(|restriction| restriction.byte() == byte)
    }
}

/// One child to start: the absolute program, its arguments (after `argv[0]`, which is the
/// program), its whole environment (`NAME=VALUE`) and its stdin, stdout and stderr.
pub struct Start<'a> {
    pub program: &'a Path,
    pub args: &'a [String],
    pub env: &'a [Vec<u8>],
    pub stdio: [BorrowedFd<'a>; 3],
}

/// A child that runs its program: the server's own child. The server alone reaps it (nothing
/// in Torii waits for any child but a named one), so until then its number names it and no
/// other process: signalling and waiting by number is safe.
#[derive(Debug)]
pub struct Started {
    pub pid: Pid,
}

/// Why a child was not started.
#[derive(Debug)]
pub enum StartError {
    /// It could not be confined, or the launcher failed: nothing runs (a child the launcher
    /// had started is stopped).
    Confine(ConfineError),
    /// The program itself could not be run (not found, not executable, an argument with a
    /// NUL byte, too long a command line).
    Program(io::Error),
}

impl From<ConfineError> for StartError {
    fn from(error: ConfineError) -> Self {
        StartError::Confine(error)
    }
}

/// A running launcher, for the server.
#[derive(Debug)]
pub(super) struct Launcher {
    process: std::process::Child,
    socket: Mutex<UnixStream>,
    restriction: Restriction,
    /// A conversation with it failed: the next child gets a new launcher.
    broken: AtomicBool,
}

fn launcher_error(what: &str, source: io::Error) -> ConfineError {
    ConfineError::Restrict {
        source: io::Error::new(source.kind(), format!("{what}: {source}")),
    }
}

impl Launcher {
    /// Starts `program` (a Torii executable: see [`default_program`]) as a launcher whose
    /// children are restricted as `setup` says.
    pub(super) fn new(program: &Path, setup: Setup<'_>) -> io::Result<Self> {
        let (ours, theirs) = UnixStream::pair()?;
        ours.set_read_timeout(Some(START_TIMEOUT))?;
        let process = std::process::Command::new(program)
            .arg(SUBCOMMAND)
            .env_clear()
            .stdin(OwnedFd::from(theirs))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!("cannot start Torii's launcher: {error}"),
                )
            })?;
        // From here on, dropping it ends the process.
        let mut launcher = Launcher {
            process,
            socket: Mutex::new(ours),
            restriction: Restriction::Unconfined,
            broken: AtomicBool::new(false),
        };
        let mut body = Body::default();
        let fds: Vec<BorrowedFd<'_>> = match setup {
            Setup::Unconfined => {
                body.section([b"unconfined".as_slice()])?;
                Vec::new()
            }
            Setup::Confined {
                closed,
                namespace: None,
            } => {
                body.section([b"closed".as_slice()])?;
                vec![closed]
            }
            Setup::Confined {
                closed,
                namespace: Some((open, plan)),
            } => {
                body.section([b"namespace".as_slice()])?;
                body.section([plan.uid_map.as_bytes()])?;
                body.section([plan.gid_map.as_bytes()])?;
                body.section(plan.hidden_dirs.iter().map(|path| path.as_bytes()))?;
                body.section(plan.hidden_files.iter().map(|path| path.as_bytes()))?;
                body.section(plan.read_only.iter().map(|path| path.as_bytes()))?;
                body.section([plan.cwd.as_bytes()])?;
                vec![closed, open]
            }
        };
        let socket = launcher.socket.get_mut().unwrap_or_else(|p| p.into_inner());
        send(socket, &body.0, &fds)?;
        let mut reply = [0u8; 1];
        socket.read_exact(&mut reply).map_err(|error| {
            io::Error::new(error.kind(), "Torii's launcher ended during its setup")
        })?;
        launcher.restriction = Restriction::from_byte(reply[0])
            .ok_or_else(|| io::Error::other("Torii's launcher answered its setup wrongly"))?;
        Ok(launcher)
    }

    pub(super) fn restriction(&self) -> Restriction {
        self.restriction
    }

    pub(super) fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }

    /// The launcher's process number, for tests that look at it from a child.
    #[cfg(test)]
    pub(super) fn id(&self) -> u32 {
        self.process.id()
    }

    /// Starts one child. A failure to talk with the launcher breaks it (the next child gets
    /// a new one) and fails this start: nothing runs unconfined.
    pub(super) fn start(&self, start: &Start<'_>) -> Result<Started, StartError> {
        let body = request(start).map_err(StartError::Program)?;
        let (pid, step, errno) = match self.exchange(&body, &start.stdio) {
            Ok(Answer::NotStarted { errno }) => {
                // Nothing was started (no process left, too many processes, no memory).
                return Err(StartError::Program(io::Error::from_raw_os_error(errno)));
            }
            Ok(Answer::Started { pid, step, errno }) if own_child(pid) => {
                (pid, step, io::Error::from_raw_os_error(errno))
            }
            Ok(Answer::Started { .. }) => {
                self.broken.store(true, Ordering::Relaxed);
                return Err(launcher_error(
                    "Torii's launcher",
                    io::Error::other("it named a process that is not a child of this server"),
                )
                .into());
            }
            Err((error, orphan)) => {
                // Stopped once the conversation is over, so that a child that will not die
                // holds no other call.
                let stopped = orphan.is_some_and(stop_unwatched);
                let what = if stopped {
                    "Torii's launcher (after it started the child, which was stopped)"
                } else {
                    "Torii's launcher"
                };
                return Err(launcher_error(what, error).into());
            }
        };
        let started = Started { pid };
        if step == 0 {
            return Ok(started);
        }
        // It ended before its program ran: reap it, and say at which step.
        let _ = started.reap(true);
        Err(match Step::from_raw(step) {
            Some(Step::Exec) => StartError::Program(errno),
            Some(Step::Restrict) => {
                launcher_error("the child could not restrict itself", errno).into()
            }
            Some(Step::Stdio) => {
                launcher_error("the child could not take its output pipes", errno).into()
            }
            Some(Step::ProcessGroup) => {
                launcher_error("the child could not lead a process group", errno).into()
            }
            Some(Step::Reaper) => {
                launcher_error("the child could not reap its orphans", errno).into()
            }
            Some(Step::Announce) => {
                launcher_error("the child could not reach the server", errno).into()
            }
            None => launcher_error("the child failed before its program ran", errno).into(),
        })
    }

    /// Sends one request and reads its answer, one conversation at a time (see [`Reply`]).
    /// Any error breaks the launcher before the next call can read a word of this one, and
    /// gives back the child the launcher started, if the child said so, for the caller to stop.
    fn exchange(
        &self,
        body: &[u8],
        fds: &[BorrowedFd<'_>],
    ) -> Result<Answer, (io::Error, Option<Pid>)> {
        let socket = self.socket.lock().unwrap_or_else(|p| p.into_inner());
        // A call that waited for another one's failed start fails at once too.
        if self.is_broken() {
            return Err((io::Error::other("an earlier start failed"), None));
        }
        let mut announced = None;
        let answer = (|| {
            send(&socket, body, fds)?;
            let reader = &*socket;
            let mut tag = [0u8; 1];
            (&*reader).read_exact(&mut tag)?;
            if tag[0] == b'P' {
                announced = Pid::from_raw(read_i32(reader)?);
                (&*reader).read_exact(&mut tag)?;
            }
            match tag[0] {
                b'N' if announced.is_none() => Ok(Answer::NotStarted {
                    errno: read_i32(reader)?,
                }),
                b'S' => {
                    let pid = Pid::from_raw(read_i32(reader)?);
                    let (step, errno) = (read_i32(reader)?, read_i32(reader)?);
                    match pid {
                        Some(pid) if announced.is_none_or(|said| said == pid) => {
                            Ok(Answer::Started {
                                pid,
                                step: step as u32,
                                errno,
                            })
                        }
                        _ => Err(io::Error::other("the launcher named another child")),
                    }
                }
                _ => Err(io::Error::other("the launcher answered out of turn")),
            }
        })();
        answer.map_err(|error| {
            self.broken.store(true, Ordering::Relaxed);
            (error, announced)
        })
    }
}

/// Whether `pid` is a child of this process that nobody has reaped yet (and not 1, which as
/// a process group is every process of the user).
fn own_child(pid: Pid) -> bool {
    pid.as_raw_nonzero().get() > 1
        && rustix::process::waitid(
            rustix::process::WaitId::Pid(pid),
            rustix::process::WaitIdOptions::EXITED
                | rustix::process::WaitIdOptions::NOHANG
                | rustix::process::WaitIdOptions::NOWAIT,
        )
        .is_ok()
}

/// The launcher's answer to one request.
enum Answer {
    NotStarted { errno: i32 },
    Started { pid: Pid, step: u32, errno: i32 },
}

fn read_i32(mut reader: &UnixStream) -> io::Result<i32> {
    let mut bytes = [0u8; 4];
    reader.read_exact(&mut bytes)?;
    Ok(i32::from_le_bytes(bytes))
}

/// Stops and reaps `child`, a child the server started that no call watches: the leader of
/// its own process group, or about to be. Only a number that is this process's own unreaped
/// child is ever signalled (a number read from a broken conversation may name anything, and
/// `kill` of 1 as a group is every process of the user); `false` when there was none.
fn stop_unwatched(child: Pid) -> bool {
    let own = own_child(child);
    if own {
        let _ = rustix::process::kill_process_group(child, rustix::process::Signal::KILL);
        let started = Started { pid: child };
        started.kill();
        let _ = started.reap(true);
    }
    own
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // Its children are the server's: ending it ends no call.
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The executable that runs the launcher: this very one (the same inode, even if an upgrade
/// has replaced the file since), so that both ends speak the same protocol. It is opened once
/// and run through its descriptor: a process run under valgrind sees its own program when it
/// opens `/proc/self/exe`, but running that path would start valgrind. Unit tests run from a
/// test harness, and use the `torii` built beside it; other programs that start children
/// through the library name it (see [`super::Confinement::with_launcher`]).
pub fn default_program() -> PathBuf {
    #[cfg(not(test))]
    {
        use std::os::fd::AsRawFd;
        static EXECUTABLE: std::sync::OnceLock<Option<std::fs::File>> = std::sync::OnceLock::new();
        match EXECUTABLE.get_or_init(|| std::fs::File::open("/proc/self/exe").ok()) {
            Some(file) => PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd())),
            None => PathBuf::from("/proc/self/exe"),
        }
    }
    #[cfg(test)]
    {
        std::env::current_exe()
            .ok()
            .and_then(|exe| Some(exe.parent()?.parent()?.join("torii")))
            .unwrap_or_default()
    }
}

/// The request for `start`: the program, `argv` (the program first), the environment.
fn request(start: &Start<'_>) -> io::Result<Vec<u8>> {
    let program = start.program.as_os_str().as_bytes();
    if !start.program.is_absolute() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the program path must be absolute",
        ));
    }
    let mut body = Body::default();
    body.section([program])?;
    body.section(std::iter::once(program).chain(start.args.iter().map(|arg| arg.as_bytes())))?;
    body.section(start.env.iter().map(Vec::as_slice))?;
    if body.0.len() > MAX_MESSAGE {
        // What `execve` itself would answer, long before this size.
        return Err(io::Error::from_raw_os_error(libc::E2BIG));
    }
    Ok(body.0)
}

/// A message body: sections, each its number of strings (`u32`, little-endian) and then its
/// strings, each ending with a NUL byte (which no string may hold: `execve` could not carry
/// it).
#[derive(Default)]
struct Body(Vec<u8>);

impl Body {
    fn section<'a>(&mut self, strings: impl IntoIterator<Item = &'a [u8]>) -> io::Result<()> {
        let count_at = self.0.len();
        self.0.extend_from_slice(&[0; 4]);
        let mut count: u32 = 0;
        for string in strings {
            if string.contains(&0) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "an argument or environment entry holds a NUL byte",
                ));
            }
            self.0.extend_from_slice(string);
            self.0.push(0);
            count += 1;
        }
        self.0[count_at..count_at + 4].copy_from_slice(&count.to_le_bytes());
        Ok(())
    }
}

/// The sections of a body, as C strings that borrow it.
fn sections(body: &[u8]) -> io::Result<Vec<Vec<&CStr>>> {
    let malformed = || io::Error::new(io::ErrorKind::InvalidData, "malformed launcher message");
    let mut rest = body;
    let mut sections = Vec::new();
    while !rest.is_empty() {
        let (count, after) = rest.split_first_chunk::<4>().ok_or_else(malformed)?;
        rest = after;
        let count = u32::from_le_bytes(*count) as usize;
        let mut strings = Vec::with_capacity(count.min(rest.len()));
        for _ in 0..count {
            let string = CStr::from_bytes_until_nul(rest).map_err(|_| malformed())?;
            rest = &rest[string.count_bytes() + 1..];
            strings.push(string);
        }
        sections.push(strings);
    }
    Ok(sections)
}

/// Sends a length, `body` and the descriptors `fds` (with the first bytes).
fn send(socket: &UnixStream, body: &[u8], fds: &[BorrowedFd<'_>]) -> io::Result<()> {
    let length = u32::try_from(body.len())
        .ok()
        .filter(|length| *length as usize <= MAX_MESSAGE)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the request is too long"))?;
    let header = length.to_le_bytes();
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    let sent = loop {
        match rustix::net::sendmsg(
            socket,
            &[IoSlice::new(&header), IoSlice::new(body)],
            &mut control,
            SendFlags::NOSIGNAL,
        ) {
            Err(rustix::io::Errno::INTR) => continue,
            sent => break sent?,
        }
    };
    // The rest of a long message follows without descriptors.
    let mut writer = socket;
    if sent < header.len() {
        writer.write_all(&header[sent..])?;
        writer.write_all(body)?;
    } else {
        writer.write_all(&body[sent - header.len()..])?;
    }
    Ok(())
}

/// Receives a message and its descriptors (close-on-exec); `None` at the end of the stream.
fn receive(socket: &UnixStream) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    let mut header = [0u8; 4];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(MAX_FDS))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let received = loop {
        match rustix::net::recvmsg(
            socket,
            &mut [IoSliceMut::new(&mut header)],
            &mut control,
            RecvFlags::CMSG_CLOEXEC,
        ) {
            Err(rustix::io::Errno::INTR) => continue,
            received => break received?,
        }
    };
    let fds: Vec<OwnedFd> = control
        .drain()
        .filter_map(|message| match message {
            RecvAncillaryMessage::ScmRights(fds) => Some(fds),
            _ => None,
        })
        .flatten()
        .collect();
    if received.bytes == 0 {
        return Ok(None);
    }
    if received.flags.contains(ReturnFlags::CTRUNC) {
        return Err(io::Error::other("too many descriptors in a message"));
    }
    let mut reader = socket;
    reader.read_exact(&mut header[received.bytes..])?;
    let length = u32::from_le_bytes(header) as usize;
    if length > MAX_MESSAGE {
        return Err(io::Error::other("a launcher message is too long"));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(Some((body, fds)))
}

/// `torii __launcher`: sets up as the server asks, then starts one child per request until
/// the server closes the socket.
pub fn serve() -> io::Result<()> {
    sys::close_inherited_on_exec()?;
    let stdin = std::io::stdin().as_fd().try_clone_to_owned()?;
    if !rustix::fs::fstat(&stdin)
        .is_ok_and(|stat| rustix::fs::FileType::from_raw_mode(stat.st_mode).is_socket())
    {
        return Err(io::Error::other(
            "`torii __launcher` is started by Torii itself, with a socket for input",
        ));
    }
    let socket = UnixStream::from(stdin);
    let Some((body, fds)) = receive(&socket)? else {
        return Ok(());
    };
    let (ruleset, restriction) = set_up(&body, fds)?;
    (&socket).write_all(&[restriction.byte()])?;
    while let Some((body, fds)) = receive(&socket)? {
        let reply = start_one(
            &body,
            &fds,
            socket.as_fd(),
            ruleset.as_ref().map(AsFd::as_fd),
        );
        // The pipes' write ends close here: the server sees the end of the output when the
        // child (and what it started) closes them.
        drop(fds);
        match reply {
            Reply::NotStarted { errno } => {
                let mut reply = [b'N', 0, 0, 0, 0];
                reply[1..].copy_from_slice(&errno.to_le_bytes());
                (&socket).write_all(&reply)?;
            }
            Reply::Started { pid, step, errno } => {
                let mut reply = [b'S', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
                reply[1..5].copy_from_slice(&pid.as_raw_nonzero().get().to_le_bytes());
                reply[5..9].copy_from_slice(&step.map_or(0, |step| step as u32).to_le_bytes());
                reply[9..].copy_from_slice(&errno.to_le_bytes());
                (&socket).write_all(&reply)?;
            }
        }
    }
    Ok(())
}

/// Applies the setup message: the ruleset children use, and how they are restricted.
fn set_up(body: &[u8], fds: Vec<OwnedFd>) -> io::Result<(Option<OwnedFd>, Restriction)> {
    let malformed = || io::Error::new(io::ErrorKind::InvalidData, "malformed launcher setup");
    let sections = sections(body)?;
    let sections: Vec<&[&CStr]> = sections.iter().map(Vec::as_slice).collect();
    let kind = sections
        .first()
        .and_then(|kind| kind.first())
        .map(|kind| kind.to_bytes())
        .ok_or_else(malformed)?;
    let mut fds = fds.into_iter();
    let (closed, open) = (fds.next(), fds.next());
    let chosen = match (kind, closed, open, sections.as_slice()) {
        (b"unconfined", None, None, [_]) => (None, Restriction::Unconfined),
        (b"closed", Some(closed), None, [_]) => (Some(closed), Restriction::Closed),
        (
            b"namespace",
            Some(closed),
            Some(open),
            [
                _,
                [uid_map],
                [gid_map],
                hidden_dirs,
                hidden_files,
                read_only,
                [cwd],
            ],
        ) => {
            let owned = |strings: &[&CStr]| strings.iter().map(|s| CString::from(*s)).collect();
            let plan = MountPlan {
                uid_map: CString::from(*uid_map),
                gid_map: CString::from(*gid_map),
                hidden_dirs: owned(hidden_dirs),
                hidden_files: owned(hidden_files),
                read_only: owned(read_only),
                cwd: CString::from(*cwd),
            };
            let user_namespace = || std::fs::read_link("/proc/self/ns/user").ok();
            let initial = user_namespace();
            if sys::enter_namespace(&plan) {
                // What the namespaces gave it, its children do not get.
                sys::drop_capabilities()?;
                (Some(open), Restriction::Namespace)
            } else {
                // A step failed after a user namespace was entered: what that one gave is
                // dropped too (a root server's children keep root's own only where none was).
                if initial.is_none() || user_namespace() != initial {
                    sys::drop_capabilities()?;
                }
                (Some(closed), Restriction::Closed)
            }
        }
        _ => return Err(malformed()),
    };
    Ok(chosen)
}

/// What the launcher says about one request, after what the child said itself (`P` and its
/// number, unless it could not): `N` and `errno` when nothing was started, or `S`, the child's
/// number, the step at which it failed before its program ran (0 when it runs) and `errno`.
enum Reply {
    NotStarted {
        errno: i32,
    },
    Started {
        pid: Pid,
        step: Option<Step>,
        errno: i32,
    },
}

/// Starts the child of one request.
fn start_one(
    body: &[u8],
    fds: &[OwnedFd],
    announce: BorrowedFd<'_>,
    ruleset: Option<BorrowedFd<'_>>,
) -> Reply {
    let malformed = Reply::NotStarted {
        errno: libc::EINVAL,
    };
    let Ok(sections) = sections(body) else {
        return malformed;
    };
    let sections: Vec<&[&CStr]> = sections.iter().map(Vec::as_slice).collect();
    let ([[program], argv, env], [stdin, stdout, stderr]) = (sections.as_slice(), fds) else {
        return malformed;
    };
    let pointers = |strings: &[&CStr]| {
        strings
            .iter()
            .map(|string| string.as_ptr())
            .chain(std::iter::once(std::ptr::null()))
            .collect::<Vec<_>>()
    };
    let (argv, envp) = (pointers(argv), pointers(env));
    let setup = ChildSetup {
        program,
        argv: &argv,
        envp: &envp,
        stdio: [stdin.as_fd(), stdout.as_fd(), stderr.as_fd()],
        announce,
        ruleset,
    };
    match sys::start_child(&setup) {
        Ok((pid, None)) => Reply::Started {
            pid,
            step: None,
            errno: 0,
        },
        Ok((pid, Some((step, errno)))) => Reply::Started {
            pid,
            step: Some(step),
            errno,
        },
        Err(error) => Reply::NotStarted {
            errno: error.raw_os_error().unwrap_or(libc::EIO),
        },
    }
}

impl Started {
    /// Reaps the child if it has ended (with `wait`, once it has): its status, or `None` while
    /// it runs.
    pub fn reap(&self, wait: bool) -> io::Result<Option<std::process::ExitStatus>> {
        use std::os::unix::process::ExitStatusExt;
        let options = if wait {
            WaitOptions::empty()
        } else {
            WaitOptions::NOHANG
        };
        loop {
            match rustix::process::waitpid(Some(self.pid), options) {
                Err(rustix::io::Errno::INTR) => continue,
                status => {
                    return Ok(status?
                        .map(|(_, status)| std::process::ExitStatus::from_raw(status.as_raw())));
                }
            }
        }
    }

    /// Stops it at once (nothing if it has ended: it is not reaped yet).
    pub fn kill(&self) {
        let _ = rustix::process::kill_process(self.pid, rustix::process::Signal::KILL);
    }
}

/// Children started the way the runner starts them, for the confinement tests.
#[cfg(test)]
pub(super) mod testing {
    use std::io::Read;
    use std::os::fd::AsFd;
    use std::os::unix::ffi::OsStrExt;

    use super::{Start, StartError, Started};

    pub(in crate::confine) struct TestChild {
        started: Started,
        stdout: std::fs::File,
        stderr: std::fs::File,
    }

    /// Starts `sh -c script` with `start`, this process's environment, stdin from
    /// `/dev/null` and its output in pipes.
    pub(in crate::confine) fn spawn(
        start: impl FnOnce(&Start<'_>) -> Result<Started, StartError>,
        script: &str,
    ) -> Result<TestChild, StartError> {
        let (stdout, stdout_end) =
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).unwrap();
        let (stderr, stderr_end) =
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).unwrap();
        let null = std::fs::File::open("/dev/null").unwrap();
        let env: Vec<Vec<u8>> = std::env::vars_os()
            .map(|(name, value)| [name.as_bytes(), b"=", value.as_bytes()].concat())
            .collect();
        let args = ["-c".to_string(), script.to_string()];
        let started = start(&Start {
            program: std::path::Path::new("/bin/sh"),
            args: &args,
            env: &env,
            stdio: [null.as_fd(), stdout_end.as_fd(), stderr_end.as_fd()],
        })?;
        Ok(TestChild {
            started,
            stdout: stdout.into(),
            stderr: stderr.into(),
        })
    }

    impl TestChild {
        pub(in crate::confine) fn id(&self) -> u32 {
            self.started.pid.as_raw_nonzero().get() as u32
        }

        pub(in crate::confine) fn kill(&self) {
            self.started.kill();
        }

        pub(in crate::confine) fn wait_with_output(mut self) -> std::process::Output {
            let mut stderr = self.stderr;
            let reading = std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = stderr.read_to_end(&mut bytes);
                bytes
            });
            let mut stdout = Vec::new();
            let _ = self.stdout.read_to_end(&mut stdout);
            let stderr = reading.join().unwrap();
            let status = self.started.reap(true).unwrap().unwrap();
            std::process::Output {
                status,
                stdout,
                stderr,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red-team finding (issue 39): a launcher that ended after it started a child but before
    /// it answered left the child running, unwatched, while the call said it never started.
    /// The child tells the server its number itself; the server stops it. Here a stand-in
    /// launcher announces a process of the test's own and ends.
    #[test]
    fn a_child_whose_launcher_ends_before_answering_is_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let escaped: String = pid
            .to_le_bytes()
            .iter()
            .map(|byte| format!("\\{byte:03o}"))
            .collect();
        let stand_in = dir.path().join("launcher");
        std::fs::write(
            &stand_in,
            format!("#!/bin/sh\nprintf 'uP{escaped}' >&0\nexec /bin/sleep 1\n"),
        )
        .unwrap();
        std::fs::set_permissions(
            &stand_in,
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let launcher = Launcher::new(&stand_in, Setup::Unconfined).unwrap();
        let null = std::fs::File::open("/dev/null").unwrap();
        let failed = launcher.start(&Start {
            program: Path::new("/bin/true"),
            args: &[],
            env: &[],
            stdio: [null.as_fd(), null.as_fd(), null.as_fd()],
        });
        let Err(StartError::Confine(error)) = failed else {
            panic!("{failed:?}");
        };
        let message = crate::errors::chain(&error);
        assert!(message.contains("which was stopped"), "{message}");
        assert!(launcher.is_broken());
        // Stopped and reaped: the number names nothing any more.
        assert!(!Path::new(&format!("/proc/{pid}")).exists());
        assert!(child.try_wait().is_err(), "already reaped");
    }

    /// Review finding: a number read from a broken or lying launcher was signalled as a
    /// process group, and 1 as a group is every process of the user. A launcher that names a
    /// process that is not this server's own child (here one of init's, and 1) fails the start
    /// and nothing is signalled.
    #[test]
    fn a_launcher_that_names_another_process_is_not_believed() {
        let dir = tempfile::tempdir().unwrap();
        // A `sleep` whose parent is gone: not a child of this process.
        let output = std::process::Command::new("sh")
            .args(["-c", "sleep 30 >/dev/null 2>&1 & echo $!"])
            .output()
            .unwrap();
        let stranger: i32 = String::from_utf8_lossy(&output.stdout)
            .trim()
            .parse()
            .unwrap();
        for (name, pid) in [("stranger", stranger), ("init", 1)] {
            let mut answer = vec![b'u', b'S'];
            answer.extend(pid.to_le_bytes());
            answer.extend([0u8; 8]);
            let escaped: String = answer.iter().map(|byte| format!("\\{byte:03o}")).collect();
            let stand_in = dir.path().join(name);
            std::fs::write(
                &stand_in,
                format!("#!/bin/sh\nprintf '{escaped}' >&0\nexec /bin/sleep 1\n"),
            )
            .unwrap();
            std::fs::set_permissions(
                &stand_in,
                std::os::unix::fs::PermissionsExt::from_mode(0o755),
            )
            .unwrap();
            let launcher = Launcher::new(&stand_in, Setup::Unconfined).unwrap();
            let null = std::fs::File::open("/dev/null").unwrap();
            let started = launcher.start(&Start {
                program: Path::new("/bin/true"),
                args: &[],
                env: &[],
                stdio: [null.as_fd(), null.as_fd(), null.as_fd()],
            });
            assert!(
                matches!(started, Err(StartError::Confine(_))),
                "{name}: {started:?}"
            );
            assert!(launcher.is_broken(), "{name}");
        }
        assert!(
            Path::new(&format!("/proc/{stranger}")).exists(),
            "the stranger lives"
        );
        let _ = rustix::process::kill_process(
            Pid::from_raw(stranger).unwrap(),
            rustix::process::Signal::KILL,
        );
    }
}

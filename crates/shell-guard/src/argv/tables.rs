//! Pure data: the options of each program that runs other programs, and which programs those
//! are ([`kind`]).
//!
//! A [`Spec`] lists a wrapper's options the way `getopt_long` would be told them, so that
//! [`crate::opts::parse`] can skip them and find the command; an option missing here is an
//! error, since it might take a value.

use super::Kind;
use crate::opts::{Opt, Spec};

/// A shell's options and where its command string is.
#[derive(Debug)]
pub(super) struct ShellSpec {
    pub(super) options: Spec,
    /// `-c` makes the first operand the command string (`sh -c CMD`).
    pub(super) c_operand: bool,
    /// Options whose value is a command string (`fish -c CMD`).
    pub(super) code_options: &'static [Opt],
}

pub(super) const NONE: Spec = Spec {
    flags: "",
    values: "",
    optional: "",
    any_letter: false,
    plus: false,
    numeric: false,
    long_flags: &["help", "version"],
    long_values: &[],
    lenient_long: false,
};

pub(super) const ENV: Spec = Spec {
    flags: "i0v",
    values: "uCSaPLU",
    long_flags: &[
        "ignore-environment",
        "null",
        "debug",
        "list-signal-handling",
        "block-signal",
        "default-signal",
        "ignore-signal",
        "help",
        "version",
    ],
    long_values: &["unset", "chdir", "split-string", "argv0"],
    ..NONE
};

pub(super) const SUDO: Spec = Spec {
    flags: "ABbEeHiKklNnPSsVv",
    values: "acCDgpRrTtUu",
    optional: "h",
    long_flags: &[
        "askpass",
        "bell",
        "background",
        "edit",
        "set-home",
        "login",
        "remove-timestamp",
        "reset-timestamp",
        "list",
        "non-interactive",
        "preserve-groups",
        "preserve-env",
        "stdin",
        "shell",
        "validate",
        "version",
        "help",
        "no-update",
    ],
    long_values: &[
        "auth-type",
        "close-from",
        "login-class",
        "chdir",
        "group",
        "host",
        "prompt",
        "chroot",
        "role",
        "type",
        "command-timeout",
        "other-user",
        "user",
    ],
    ..NONE
};

/// `-s` is left out: it starts the user's shell, which reads its commands from standard input
/// (`doas -s <<< '…'`), so doas -s is refused as an unknown option.
pub(super) const DOAS: Spec = Spec {
    flags: "Ln",
    values: "Cu",
    ..NONE
};

pub(super) const PKEXEC: Spec = Spec {
    long_flags: &["disable-internal-agent", "keep-cwd", "help", "version"],
    long_values: &["user"],
    ..NONE
};

pub(super) const RUN0: Spec = Spec {
    flags: "tPqGdSVh",
    values: "uDgpEMH",
    long_flags: &[
        "no-ask-password",
        "pty",
        "pipe",
        "quiet",
        "collect",
        "same-dir",
        "shell",
        "system",
        "scope",
        "wait",
        "no-block",
        "send-sighup",
        "remain-after-exit",
        "slice-inherit",
        "empower",
        "via-shell",
        "version",
        "help",
    ],
    long_values: &[
        "user",
        "group",
        "chdir",
        "nice",
        "property",
        "description",
        "slice",
        "setenv",
        "machine",
        "host",
        "unit",
        "uid",
        "gid",
        "working-directory",
        "service-type",
        "on-active",
        "on-boot",
        "on-startup",
        "on-unit-active",
        "on-unit-inactive",
        "on-calendar",
        "timer-property",
        "path-property",
        "socket-property",
        "background",
        "area",
        "shell-prompt-prefix",
    ],
    ..NONE
};

pub(super) const SYSTEMD_RUN: Spec = Spec {
    long_flags: &[
        "no-ask-password",
        "pty",
        "pipe",
        "quiet",
        "collect",
        "same-dir",
        "shell",
        "user",
        "system",
        "scope",
        "wait",
        "no-block",
        "send-sighup",
        "remain-after-exit",
        "version",
        "help",
    ],
    long_values: &[
        "uid",
        "gid",
        "nice",
        "property",
        "description",
        "slice",
        "setenv",
        "machine",
        "host",
        "unit",
        "working-directory",
        "service-type",
        "on-active",
        "on-boot",
        "on-startup",
        "on-unit-active",
        "on-unit-inactive",
        "on-calendar",
        "timer-property",
        "path-property",
        "socket-property",
    ],
    ..RUN0
};

pub(super) const GSUDO: Spec = Spec {
    flags: "nwsdkhi",
    values: "u",
    long_flags: &[
        "new",
        "wait",
        "system",
        "direct",
        "keepshell",
        "keepwindow",
        "copyns",
        "ti",
        "loadprofile",
        "help",
        "version",
    ],
    long_values: &["integrity", "user"],
    ..NONE
};

pub(super) const AT: Spec = Spec {
    flags: "mMlrdvcbV",
    values: "fqtuT",
    ..NONE
};

pub(super) const COMMAND: Spec = Spec {
    flags: "pvV",
    ..NONE
};

pub(super) const EXEC: Spec = Spec {
    flags: "cl",
    values: "a",
    ..NONE
};

pub(super) const NICE: Spec = Spec {
    values: "n",
    numeric: true,
    long_values: &["adjustment"],
    ..NONE
};

pub(super) const IONICE: Spec = Spec {
    flags: "tpPu",
    values: "cn",
    long_flags: &["pid", "pgid", "uid", "ignore", "help", "version"],
    long_values: &["class", "classdata"],
    ..NONE
};

pub(super) const TIMEOUT: Spec = Spec {
    flags: "fpv",
    values: "ks",
    long_flags: &[
        "foreground",
        "preserve-status",
        "verbose",
        "help",
        "version",
    ],
    long_values: &["kill-after", "signal"],
    ..NONE
};

pub(super) const TIME: Spec = Spec {
    flags: "apqvlh",
    values: "fo",
    long_flags: &[
        "append",
        "portability",
        "quiet",
        "verbose",
        "help",
        "version",
    ],
    long_values: &["format", "output"],
    ..NONE
};

pub(super) const XARGS: Spec = Spec {
    flags: "0oprtx",
    values: "adEILnPsJRS",
    optional: "eil",
    long_flags: &[
        "null",
        "interactive",
        "no-run-if-empty",
        "verbose",
        "exit",
        "open-tty",
        "show-limits",
        "eof",
        "replace",
        "max-lines",
        "help",
        "version",
    ],
    long_values: &[
        "arg-file",
        "delimiter",
        "max-args",
        "max-procs",
        "max-chars",
        "process-slot-var",
    ],
    ..NONE
};

pub(super) const WATCH: Spec = Spec {
    flags: "bcCeghprtvwx",
    values: "nqs",
    optional: "d",
    long_flags: &[
        "beep",
        "color",
        "no-color",
        "differences",
        "errexit",
        "chgexit",
        "precise",
        "no-rerun",
        "no-title",
        "no-wrap",
        "exec",
        "help",
        "version",
    ],
    long_values: &["interval", "equexit", "shotsdir"],
    ..NONE
};

pub(super) const STDBUF: Spec = Spec {
    values: "ioe",
    long_values: &["input", "output", "error"],
    ..NONE
};

pub(super) const SETSID: Spec = Spec {
    flags: "cfw",
    long_flags: &["ctty", "fork", "wait", "help", "version"],
    ..NONE
};

pub(super) const CHROOT: Spec = Spec {
    long_flags: &["skip-chdir", "help", "version"],
    long_values: &["userspec", "groups"],
    ..NONE
};

pub(super) const CHRT: Spec = Spec {
    flags: "abdefimoprvRVh",
    values: "TPD",
    long_flags: &[
        "all-tasks",
        "batch",
        "deadline",
        "ext",
        "fifo",
        "idle",
        "max",
        "other",
        "pid",
        "rr",
        "reset-on-fork",
        "verbose",
        "help",
        "version",
    ],
    long_values: &["sched-runtime", "sched-period", "sched-deadline"],
    ..NONE
};

pub(super) const TASKSET: Spec = Spec {
    flags: "acpVh",
    long_flags: &["all-tasks", "cpu-list", "pid", "help", "version"],
    ..NONE
};

pub(super) const FLOCK: Spec = Spec {
    flags: "sxeunoFhV",
    values: "wEc",
    long_flags: &[
        "shared",
        "exclusive",
        "unlock",
        "nonblock",
        "close",
        "no-fork",
        "verbose",
        "help",
        "version",
    ],
    long_values: &["timeout", "wait", "conflict-exit-code", "command"],
    ..NONE
};

pub(super) const STRACE: Spec = Spec {
    flags: "cCdDfFhikNnqrtTvVwxyYzZ",
    values: "abeEIoOpPsSuUX",
    long_flags: &[
        "seccomp-bpf",
        "follow-forks",
        "output-separately",
        "summary-only",
        "summary",
        "summary-wall-clock",
        "timestamps",
        "syscall-times",
        "absolute-timestamps",
        "relative-timestamps",
        "instruction-pointer",
        "stack-traces",
        "no-abbrev",
        "verbose",
        "raw",
        "decode-fds",
        "decode-pids",
        "kill-on-exit",
        "daemonize",
        "quiet",
        "debug",
        "help",
        "version",
    ],
    long_values: &[
        "trace",
        "signal",
        "status",
        "output",
        "attach",
        "user",
        "env",
        "string-limit",
        "columns",
        "summary-columns",
        "summary-sort-by",
        "trace-path",
        "inject",
        "fault",
        "argv0",
        "const-print-style",
        "trace-fds",
    ],
    ..NONE
};

pub(super) const LTRACE: Spec = Spec {
    flags: "bcCfhiLrStTV",
    values: "aADeFlnopsuwx",
    long_flags: &["demangle", "help", "version"],
    long_values: &["align", "config", "indent", "library", "output"],
    ..NONE
};

pub(super) const SU: Spec = Spec {
    flags: "flmpPhV",
    values: "cgGsw",
    long_flags: &[
        "fast",
        "login",
        "preserve-environment",
        "pty",
        "help",
        "version",
    ],
    long_values: &[
        "command",
        "session-command",
        "group",
        "supp-group",
        "shell",
        "whitelist-environment",
    ],
    ..NONE
};

pub(super) const RUNUSER: Spec = Spec {
    values: "cgGswu",
    long_values: &[
        "command",
        "session-command",
        "group",
        "supp-group",
        "shell",
        "whitelist-environment",
        "user",
    ],
    ..SU
};

pub(super) const SCRIPT: Spec = Spec {
    flags: "aefqhVk",
    values: "cEIOBTmo",
    optional: "t",
    long_flags: &[
        "append", "return", "flush", "force", "quiet", "help", "version", "timing",
    ],
    long_values: &[
        "command",
        "echo",
        "log-in",
        "log-out",
        "log-io",
        "log-timing",
        "logging-format",
        "output-limit",
    ],
    ..NONE
};

pub(super) const WSL: Spec = Spec {
    flags: "e",
    values: "du",
    long_flags: &[
        "exec", "system", "list", "shutdown", "status", "update", "install", "help", "version",
    ],
    long_values: &["distribution", "user", "cd", "shell-type"],
    ..NONE
};

pub(super) const UNBUFFER: Spec = Spec { flags: "p", ..NONE };

pub(super) const CAFFEINATE: Spec = Spec {
    flags: "dimsu",
    values: "tw",
    ..NONE
};

pub(super) const PROXYCHAINS: Spec = Spec {
    flags: "q",
    values: "f",
    ..NONE
};

pub(super) const TORSOCKS: Spec = Spec {
    flags: "idq6",
    values: "uapP",
    long_flags: &["isolate", "help", "version"],
    long_values: &["user", "pass", "address", "port"],
    ..NONE
};

pub(super) const WINPTY: Spec = Spec {
    optional: "X",
    long_flags: &["mouse", "showkey", "help", "version"],
    ..NONE
};

pub(super) const MAPFILE: Spec = Spec {
    flags: "t",
    values: "dnOsuCc",
    ..NONE
};

pub(super) const UNSHARE: Spec = Spec {
    flags: "muinpUCTfrcl",
    values: "RwSG",
    long_flags: &[
        "mount",
        "uts",
        "ipc",
        "net",
        "pid",
        "user",
        "cgroup",
        "time",
        "fork",
        "map-root-user",
        "map-current-user",
        "kill-child",
        "mount-proc",
        "map-auto",
        "mount-binfmt",
        "keep-caps",
        "load-interp",
        "help",
        "version",
    ],
    long_values: &[
        "propagation",
        "setgroups",
        "map-user",
        "map-group",
        "map-users",
        "map-groups",
        "root",
        "wd",
        "setuid",
        "setgid",
        "monotonic",
        "boottime",
    ],
    ..NONE
};

pub(super) const NSENTER: Spec = Spec {
    flags: "ahVeFZ",
    values: "tSGN",
    optional: "muinpCUTrwW",
    long_flags: &[
        "all",
        "mount",
        "uts",
        "ipc",
        "net",
        "pid",
        "cgroup",
        "user",
        "time",
        "root",
        "wd",
        "wdns",
        "env",
        "no-fork",
        "preserve-credentials",
        "follow-context",
        "keep-caps",
        "help",
        "version",
    ],
    long_values: &["target", "setuid", "setgid", "user-parent", "join-cgroup"],
    ..NONE
};

pub(super) const HASH: Spec = Spec {
    flags: "dlrt",
    values: "p",
    ..NONE
};

pub(super) const POSIX_SHELL: ShellSpec = ShellSpec {
    options: Spec {
        values: "oO",
        any_letter: true,
        plus: true,
        long_values: &["rcfile", "init-file", "emulate"],
        lenient_long: true,
        ..NONE
    },
    c_operand: true,
    code_options: &[],
};

pub(super) const ELVISH: ShellSpec = ShellSpec {
    options: Spec {
        any_letter: true,
        lenient_long: true,
        ..NONE
    },
    c_operand: true,
    code_options: &[],
};

pub(super) const FISH: ShellSpec = ShellSpec {
    options: Spec {
        flags: "hilnNPv",
        values: "cCdofp",
        long_values: &[
            "command",
            "init-command",
            "debug",
            "debug-output",
            "features",
            "profile",
            "profile-startup",
        ],
        lenient_long: true,
        ..NONE
    },
    c_operand: false,
    code_options: &[
        Opt::Short('c'),
        Opt::Long("command"),
        Opt::Short('C'),
        Opt::Long("init-command"),
    ],
};

pub(super) const NU: ShellSpec = ShellSpec {
    options: Spec {
        values: "cemtI",
        any_letter: true,
        long_values: &[
            "commands",
            "execute",
            "table-mode",
            "threads",
            "include-path",
            "config",
            "env-config",
            "plugin-config",
            "plugins",
            "log-level",
            "log-target",
            "log-include",
            "log-exclude",
            "testbin",
            "error-style",
            "experimental-options",
        ],
        lenient_long: true,
        ..NONE
    },
    c_operand: false,
    code_options: &[
        Opt::Short('c'),
        Opt::Long("commands"),
        Opt::Short('e'),
        Opt::Long("execute"),
    ],
};

pub(super) const XONSH: ShellSpec = ShellSpec {
    options: Spec {
        values: "cD",
        any_letter: true,
        lenient_long: true,
        ..NONE
    },
    c_operand: false,
    code_options: &[Opt::Short('c')],
};

/// How the program named `key` (normalised) runs other programs, if it does.
pub(super) fn kind(key: &str) -> Option<Kind> {
    Some(match key {
        "env" | "genv" => Kind::Env,
        "sudo" => Kind::Sudo,
        "doas" => Kind::Exec(&DOAS, 0),
        "pkexec" => Kind::Exec(&PKEXEC, 0),
        "run0" => Kind::Exec(&RUN0, 0),
        "systemd-run" => Kind::Exec(&SYSTEMD_RUN, 0),
        "gsudo" => Kind::Exec(&GSUDO, 0),
        // zsh's `repeat N CMD`.
        "repeat" => Kind::Exec(&NONE, 1),
        "command" => Kind::Command,
        "builtin" | "nocorrect" | "noglob" | "-" | "call" => Kind::Prefix,
        "exec" => Kind::Exec(&EXEC, 0),
        "nohup" | "gnohup" => Kind::Exec(&NONE, 0),
        "nice" | "gnice" => Kind::Exec(&NICE, 0),
        "ionice" => Kind::Ionice,
        "timeout" | "gtimeout" => Kind::Exec(&TIMEOUT, 1),
        "time" | "gtime" => Kind::Exec(&TIME, 0),
        "xargs" | "gxargs" => Kind::Xargs,
        "watch" => Kind::Watch,
        "find" | "gfind" => Kind::Find,
        "fd" | "fdfind" => Kind::Fd,
        "busybox" | "toybox" => Kind::Busybox,
        "stdbuf" | "gstdbuf" => Kind::Exec(&STDBUF, 0),
        "setsid" => Kind::Exec(&SETSID, 0),
        "chroot" | "gchroot" => Kind::Chroot,
        "chrt" => Kind::Chrt,
        "taskset" => Kind::Taskset,
        "flock" => Kind::Flock,
        "strace" => Kind::Exec(&STRACE, 0),
        "ltrace" => Kind::Exec(&LTRACE, 0),
        "su" => Kind::Su,
        "runuser" => Kind::Runuser,
        "sg" => Kind::Sg,
        "script" => Kind::Script,
        "unbuffer" => Kind::Exec(&UNBUFFER, 0),
        "caffeinate" => Kind::Exec(&CAFFEINATE, 0),
        "proxychains" | "proxychains4" => Kind::Exec(&PROXYCHAINS, 0),
        "torsocks" => Kind::Exec(&TORSOCKS, 0),
        "winpty" => Kind::Exec(&WINPTY, 0),
        "wsl" => Kind::Wsl,
        "sh" | "bash" | "rbash" | "dash" | "ash" | "ksh" | "ksh93" | "mksh" | "pdksh" | "oksh"
        | "lksh" | "loksh" | "zsh" | "yash" | "posh" | "bosh" | "hush" | "csh" | "tcsh" | "osh"
        | "ysh" | "oil" => Kind::Shell(&POSIX_SHELL),
        "elvish" => Kind::Shell(&ELVISH),
        "fish" => Kind::Shell(&FISH),
        "nu" => Kind::Shell(&NU),
        "xonsh" => Kind::Shell(&XONSH),
        "pwsh" | "powershell" | "powershell_ise" => Kind::PowerShell,
        "cmd" => Kind::Cmd,
        "eval" => Kind::Eval,
        "source" | "." => Kind::Source,
        "alias" => Kind::Alias,
        "export" | "declare" | "typeset" | "local" | "readonly" => Kind::Declare,
        "trap" => Kind::Trap,
        "hash" => Kind::Hash,
        "let" => Kind::Let,
        "mapfile" | "readarray" => Kind::Mapfile,
        "fc" => Kind::Fc,
        "git" => Kind::Git,
        "unshare" => Kind::Exec(&UNSHARE, 0),
        "nsenter" => Kind::Exec(&NSENTER, 0),
        "iex" | "invoke-expression" => Kind::InvokeExpression,
        "start" | "start-process" | "saps" | "runas" | "open" | "xdg-open" | "invoke-item"
        | "ii" => Kind::AnyProgram,
        // Terminal multiplexers run their string arguments in a shell.
        "parallel" | "tmux" | "screen" | "byobu" | "zellij" => Kind::AnyScript,
        "ssh" | "scp" | "sftp" => Kind::Ssh,
        "rsync" => Kind::Rsync,
        "at" | "batch" => Kind::At,
        "crontab" => Kind::Crontab,
        "node" | "nodejs" | "perl" | "ruby" | "php" | "lua" | "luajit" | "rscript" | "tclsh" => {
            Kind::Interpreter
        }
        k if k.starts_with("python") || k.starts_with("pypy") || k == "py" => Kind::Python,
        "compgen" | "complete" => Kind::Completion,
        // Debuggers, profilers, sandboxes and launchers whose options are not modelled: every
        // argument naming a protected program counts.
        "gdb" | "lldb" | "valgrind" | "perf" | "rr" | "heaptrack" | "fakeroot" | "fakechroot"
        | "prlimit" | "setarch" | "linux32" | "linux64" | "xvfb-run" | "ssh-agent"
        | "dbus-run-session" | "dbus-launch" | "eatmydata" | "catchsegv" | "faketime"
        | "numactl" | "cgexec" | "systemd-inhibit" | "firejail" | "bwrap" | "proot" | "schroot"
        | "sshpass" | "dumb-init" | "tini" | "chpst" | "daemonize" | "rlwrap" | "entr"
        | "chronic" | "ifne" | "torify" | "tsocks" | "cpulimit" | "trickle" | "nocache"
        | "with-contenv" | "s6-setsid" | "setpriv" | "capsh" | "sem" | "lckdo" => Kind::AnyProgram,
        "hyperfine" | "nix-shell" => Kind::AnyScript,
        "flatpak-spawn" | "arch" | "gosu" | "su-exec" | "watchexec" | "systemd-cat" | "k3s"
        | "microk8s" | "minikube" => Kind::AnyProgram,
        // The dynamic loader runs the program it is given.
        k if k.starts_with("ld-linux") || k.starts_with("ld-musl") || k == "ld.so" => {
            Kind::AnyProgram
        }
        "uv" | "poetry" | "pipenv" | "pdm" | "hatch" | "rye" | "pixi" | "devbox" | "conda"
        | "mamba" | "micromamba" | "pipx" => Kind::Runner(&["run"]),
        "bundle" | "asdf" | "rbenv" | "pyenv" | "nodenv" | "goenv" | "direnv" => {
            Kind::Runner(&["exec"])
        }
        "npm" | "mise" | "rtx" => Kind::Runner(&["exec", "x"]),
        "pnpm" | "yarn" => Kind::Runner(&["exec", "dlx"]),
        "bun" => Kind::Runner(&["x"]),
        "npx" | "pnpx" | "bunx" | "uvx" | "dotenv" => Kind::Runner(&[]),
        // Credential injectors, the usual way to run an infrastructure CLI with secrets.
        "aws-vault" | "saml2aws" | "chamber" | "aws-sso" => Kind::Runner(&["exec"]),
        "op" | "doppler" | "infisical" => Kind::Runner(&["run"]),
        "sops" => Kind::Runner(&["exec-env", "exec-file"]),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names;

    #[test]
    fn every_wrapper_name_is_normalised() {
        for name in [
            "env",
            "sudo",
            "sh",
            "pwsh",
            "cmd",
            ".",
            "-",
            "start-process",
        ] {
            assert!(kind(&names::normalize(name)).is_some(), "{name}");
        }
    }
}

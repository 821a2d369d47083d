//! A simple command's words: which program they start, and the programs that program starts.

use std::ops::ControlFlow;

use crate::foreign::{self, Dialect};
use crate::names;
use crate::opts::{self, Spec};
use crate::walk::{Analyzer, Flow, Stdin};
use crate::word::Arg;
use crate::{GuardError, Hit, MAX_NESTING};

mod tables;

use tables::{
    AT, CHROOT, CHRT, COMMAND, ENV, FLOCK, HASH, IONICE, MAPFILE, RUNUSER, SCRIPT, SU, SUDO,
    ShellSpec, TASKSET, WATCH, WSL, XARGS, kind,
};

/// At most this many wrappers around one command (`sudo env nice …`).
const MAX_CHAIN: usize = 32;

/// Placeholder for a computed part of a POSIX command string, analysed for hits only.
const SHELL_PLACEHOLDER: &str = "${__shell_guard_unknown__}";

/// How a command is run.
#[derive(Clone, Debug)]
pub(crate) struct Ctx {
    /// Nesting of the command text it appears in.
    pub(crate) depth: usize,
    pub(crate) stdin: Stdin,
    /// `xargs` and `parallel` add words of their input at the end.
    pub(crate) appended: bool,
    /// Wrappers so far.
    pub(crate) chain: usize,
}

/// The language of a command string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lang {
    Shell,
    Foreign(Dialect),
}

/// How a program runs other programs.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Its options, then this many operands of its own, then the command.
    Exec(&'static Spec, usize),
    /// No options (but `--`); the command follows.
    Prefix,
    Env,
    Sudo,
    Command,
    Ionice,
    Xargs,
    Watch,
    Find,
    Fd,
    Busybox,
    Chroot,
    Chrt,
    Taskset,
    Flock,
    Su,
    Runuser,
    Sg,
    Script,
    Wsl,
    Shell(&'static ShellSpec),
    PowerShell,
    Cmd,
    Eval,
    Source,
    Alias,
    Trap,
    Hash,
    Let,
    Mapfile,
    /// `fc`: re-runs commands from the history.
    Fc,
    /// `git -c key=value` and `git config`: some values are commands.
    Git,
    /// `ssh -o ProxyCommand=…` (and `LocalCommand`, `KnownHostsCommand`) runs locally.
    Ssh,
    /// `rsync -e CMD` / `--rsh=CMD`.
    Rsync,
    /// `at` and `batch` run the commands on their standard input later.
    At,
    /// `crontab` installs the table on its standard input (or in a file).
    Crontab,
    /// A script interpreter: a script named like a protected program is that program (many
    /// CLIs are scripts: `python3 /usr/bin/aws`, `bash ~/.asdf/shims/kubectl`).
    Interpreter,
    /// Python, whose `-m MODULE` runs a CLI too (`python -m awscli` is `aws`).
    Python,
    /// `compgen -C CMD` and `complete -C CMD` run a command.
    Completion,
    InvokeExpression,
    /// Options this crate does not model: every argument naming a protected program counts.
    AnyProgram,
    /// `parallel`: every argument may be a command string.
    AnyScript,
    /// A package runner: after one of these subcommands (or right away when empty), as
    /// [`Kind::AnyProgram`].
    Runner(&'static [&'static str]),
}

/// Paths through which a shell reads its standard input as a script.
pub(crate) fn is_stdin_path(path: &str) -> bool {
    // `/dev/./stdin`, `/dev//stdin`: the same file.
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    path == "-"
        || matches!(
            parts.as_slice(),
            ["dev", "stdin"] | ["dev", "fd", "0"] | ["proc", "self" | "thread-self", "fd", "0"]
        )
}

fn opaque(program: &str, reason: &'static str) -> GuardError {
    GuardError::Opaque {
        program: program.to_owned(),
        reason,
    }
}

/// The words from `i` on.
fn from(args: &[Arg], i: usize) -> &[Arg] {
    args.get(i..).unwrap_or_default()
}

impl Analyzer<'_> {
    /// The protected program `word` names, if any.
    fn protected(&self, word: &str) -> Option<Hit> {
        self.guard.lookup(&names::normalize(word)).map(|p| Hit {
            program: p.name.clone(),
            word: word.to_owned(),
        })
    }

    /// Whether `hit` names a gated program whose gate does not block these arguments.
    fn gate_lets_through(&self, hit: &Hit, args: &[Arg]) -> bool {
        let Some(gate) = self
            .guard
            .lookup(&names::normalize(&hit.program))
            .and_then(|p| p.gate)
        else {
            return false;
        };
        let args: Vec<Option<String>> = args.iter().map(Arg::known).collect();
        !gate(&args)
    }

    /// Which program a command word starts: a hit, its normalised name, or `None` when it
    /// cannot be known (the error is recorded).
    fn resolve(&mut self, arg: &Arg) -> Option<Result<Hit, String>> {
        if let Some(value) = arg.known() {
            // zsh expands `=cmd` to the path of `cmd`.
            let value = match value.strip_prefix('=') {
                Some(rest) if !rest.is_empty() && !rest.starts_with('=') => rest.to_owned(),
                _ => value,
            };
            if let Some(hit) = self.protected(&value) {
                return Some(Ok(hit));
            }
            // `C:\tools\kubectl.exe` unquoted is `C:toolskubectl.exe` to bash, but the agent
            // meant a Windows path (and may run it through a Windows shell).
            if arg.raw.contains('\\') {
                let unquoted: String = arg
                    .raw
                    .chars()
                    .filter(|c| !matches!(c, '\'' | '"'))
                    .collect();
                if let Some(hit) = self.protected(&unquoted) {
                    return Some(Ok(hit));
                }
            }
            return Some(Err(names::normalize(&value)));
        }
        if let Some(tail) = arg.tail().filter(|t| !t.is_empty()) {
            if let Some(mut hit) = self.protected(&tail) {
                hit.word.clone_from(&arg.raw);
                return Some(Ok(hit));
            }
            if !arg.splits() {
                return Some(Err(names::normalize(&tail)));
            }
        }
        self.fail(GuardError::DynamicProgram {
            word: arg.raw.clone(),
        });
        None
    }

    /// Analyses the words of a simple command.
    pub(crate) fn argv(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(first) = args.first() else {
            if ctx.appended {
                self.fail(opaque("xargs", "its input supplies the command"));
            }
            return ControlFlow::Continue(());
        };
        if ctx.chain > MAX_CHAIN {
            self.fail(GuardError::TooDeep {
                what: "wrappers around wrappers",
            });
            return ControlFlow::Continue(());
        }
        // An alias the line defined runs its value with the words after it: a value such as
        // `command ` or `''` makes the next word the command.
        if let Some(name) = first.known() {
            let alias = self
                .aliases
                .borrow()
                .iter()
                .rev()
                .find(|(alias, _)| *alias == name)
                .map(|(_, value)| value.clone());
            match alias {
                Some(Some(value)) => {
                    let rest: Vec<&str> = args[1..].iter().map(|a| a.raw.as_str()).collect();
                    let text = format!("{value} {}", rest.join(" "));
                    return self.command_text(&text, ctx.depth + 1);
                }
                Some(None) => {
                    self.fail(opaque(&name, "it is an alias whose value is computed"));
                    return ControlFlow::Continue(());
                }
                None => {}
            }
        }
        let key = match self.resolve(first) {
            None => return ControlFlow::Continue(()),
            Some(Ok(hit)) if self.gate_lets_through(&hit, from(args, 1)) => {
                return ControlFlow::Continue(());
            }
            Some(Ok(hit)) => return self.found(hit),
            Some(Err(key)) => key,
        };
        let Some(kind) = kind(&key) else {
            return ControlFlow::Continue(());
        };
        let ctx = Ctx {
            chain: ctx.chain + 1,
            ..ctx.clone()
        };
        self.wrapper(kind, &key, args, &ctx)
    }

    /// Reads the options of `program`; `None` when that fails (the error is recorded).
    fn options(
        &mut self,
        program: &str,
        spec: &Spec,
        args: &[Arg],
        start: usize,
    ) -> Option<opts::Parsed> {
        match opts::parse(program, spec, args, start) {
            Ok(parsed) => Some(parsed),
            Err(error) => {
                self.fail(error);
                None
            }
        }
    }

    fn wrapper(&mut self, kind: Kind, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        match kind {
            Kind::Exec(spec, operands) => self.exec(program, spec, operands, args, ctx),
            Kind::Prefix => self.prefix(args, ctx),
            Kind::Env => self.env(args, ctx),
            Kind::Sudo => self.sudo(program, args, ctx),
            Kind::Command => self.command_builtin(program, args, ctx),
            Kind::Ionice => self.ionice(program, args, ctx),
            Kind::Xargs => self.xargs(args, ctx),
            Kind::Watch => self.watch(program, args, ctx),
            Kind::Find => self.find(args, ctx, &["-exec", "-execdir", "-ok", "-okdir"], &["{}"]),
            Kind::Fd => self.find(
                args,
                ctx,
                &["-x", "--exec", "-X", "--exec-batch"],
                &["{}", "{.}", "{/}", "{//}", "{/.}"],
            ),
            Kind::Busybox => self.busybox(args, ctx),
            Kind::Chroot => self.chroot(program, args, ctx),
            Kind::Chrt => self.chrt(program, args, ctx),
            Kind::Taskset => self.taskset(program, args, ctx),
            Kind::Flock => self.flock(program, args, ctx),
            Kind::Su => self.su(program, &SU, args, ctx),
            Kind::Runuser => self.su(program, &RUNUSER, args, ctx),
            Kind::Sg => self.sg(program, args, ctx),
            Kind::Script => self.script_recorder(program, args, ctx),
            Kind::Wsl => self.wsl(program, args, ctx),
            Kind::Shell(spec) => self.shell(program, spec, args, ctx),
            Kind::PowerShell => self.powershell(program, args, ctx),
            Kind::Cmd => self.cmd(program, args, ctx),
            Kind::Eval => self.eval(program, args, ctx),
            Kind::Source => self.source(program, args, ctx),
            Kind::Alias => self.alias(program, args, ctx),
            Kind::Trap => self.trap(program, args, ctx),
            Kind::Hash => self.hash(program, args),
            Kind::Let => self.let_(args, ctx),
            Kind::Mapfile => self.mapfile(program, args, ctx),
            Kind::Fc => self.fc(program, args),
            Kind::Git => self.git(args, ctx),
            Kind::Ssh => self.ssh(program, args, ctx),
            Kind::Rsync => self.rsync(args, ctx),
            Kind::At => self.at(program, args, ctx),
            Kind::Crontab => self.crontab(program, args, ctx),
            Kind::Interpreter => self.interpreter(args),
            Kind::Python => self.python(program, args),
            Kind::Completion => self.completion(program, args, ctx),
            Kind::InvokeExpression => self.invoke_expression(program, args, ctx),
            Kind::AnyProgram => self.any_program(from(args, 1), ctx),
            Kind::AnyScript => self.any_script(program, args, ctx),
            Kind::Runner(subcommands) => self.runner(subcommands, args, ctx),
        }
    }

    fn exec(
        &mut self,
        program: &str,
        spec: &Spec,
        operands: usize,
        args: &[Arg],
        ctx: &Ctx,
    ) -> Flow {
        let Some(parsed) = self.options(program, spec, args, 1) else {
            return ControlFlow::Continue(());
        };
        if program == "torsocks" && parsed.has("shell") {
            return ControlFlow::Continue(());
        }
        self.after_operands(program, args, parsed.next, operands, ctx)
    }

    fn prefix(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let start = usize::from(args.get(1).and_then(Arg::known).as_deref() == Some("--"));
        self.argv(from(args, 1 + start), ctx)
    }

    fn sudo(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &SUDO, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has("e") || parsed.has("edit") {
            return ControlFlow::Continue(());
        }
        let next = self.assignments(args, parsed.next, ctx)?;
        let rest = from(args, next);
        let shell = ["s", "i", "shell", "login"].iter().any(|o| parsed.has(o));
        if shell {
            if rest.is_empty() {
                return self.stdin_code(program, ctx, Lang::Shell);
            }
            // `sudo -s CMD` runs `$SHELL -c CMD`.
            self.code(program, &Arg::join(rest), ctx, Lang::Shell)?;
        }
        self.argv(rest, ctx)
    }

    fn command_builtin(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &COMMAND, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has("v") || parsed.has("V") {
            return ControlFlow::Continue(());
        }
        self.argv(from(args, parsed.next), ctx)
    }

    fn ionice(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &IONICE, args, 1) else {
            return ControlFlow::Continue(());
        };
        if ["p", "P", "u", "pid", "pgid", "uid"]
            .iter()
            .any(|o| parsed.has(o))
        {
            return ControlFlow::Continue(());
        }
        self.argv(from(args, parsed.next), ctx)
    }

    fn watch(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &WATCH, args, 1) else {
            return ControlFlow::Continue(());
        };
        let rest = from(args, parsed.next);
        if rest.is_empty() {
            return ControlFlow::Continue(());
        }
        if parsed.has("x") || parsed.has("exec") {
            self.argv(rest, ctx)
        } else {
            // Without `-x`, watch runs `sh -c` on its words joined.
            self.code(program, &Arg::join(rest), ctx, Lang::Shell)
        }
    }

    fn busybox(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        if args
            .get(1)
            .and_then(Arg::known)
            .is_some_and(|v| v.starts_with('-'))
        {
            return ControlFlow::Continue(());
        }
        self.argv(from(args, 1), ctx)
    }

    fn chroot(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &CHROOT, args, 1) else {
            return ControlFlow::Continue(());
        };
        if args.len() <= parsed.next + 1 {
            // No command: chroot starts an interactive shell.
            return self.stdin_code(program, ctx, Lang::Shell);
        }
        self.after_operands(program, args, parsed.next, 1, ctx)
    }

    fn chrt(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &CHRT, args, 1) else {
            return ControlFlow::Continue(());
        };
        if ["p", "pid", "m", "max"].iter().any(|o| parsed.has(o)) {
            return ControlFlow::Continue(());
        }
        self.after_operands(program, args, parsed.next, 1, ctx)
    }

    fn taskset(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &TASKSET, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has("p") || parsed.has("pid") {
            return ControlFlow::Continue(());
        }
        self.after_operands(program, args, parsed.next, 1, ctx)
    }

    fn flock(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &FLOCK, args, 1) else {
            return ControlFlow::Continue(());
        };
        if let Some(code) = parsed.value("c").or_else(|| parsed.value("command")) {
            return self.code(program, &code.clone(), ctx, Lang::Shell);
        }
        let rest = from(args, parsed.next + 1);
        match rest.first().and_then(Arg::known).as_deref() {
            Some("-c" | "--command") => match rest.get(1) {
                Some(code) => self.code(program, code, ctx, Lang::Shell),
                None => ControlFlow::Continue(()),
            },
            _ => self.after_operands(program, args, parsed.next, 1, ctx),
        }
    }

    fn sg(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        // `sg [-] GROUP [-c] COMMAND`
        let mut i = 1;
        if args.get(i).and_then(Arg::known).as_deref() == Some("-") {
            i += 1;
        }
        i += 1;
        if args.get(i).and_then(Arg::known).as_deref() == Some("-c") {
            i += 1;
        }
        match args.get(i) {
            Some(code) => self.code(program, code, ctx, Lang::Shell),
            None => self.stdin_code(program, ctx, Lang::Shell),
        }
    }

    fn script_recorder(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &SCRIPT, args, 1) else {
            return ControlFlow::Continue(());
        };
        // util-linux takes options after the file operand too.
        let later = (parsed.next < args.len())
            .then(|| self.options(program, &SCRIPT, args, parsed.next + 1))
            .flatten();
        let code = parsed
            .value("c")
            .or_else(|| parsed.value("command"))
            .or_else(|| {
                later
                    .as_ref()
                    .and_then(|l| l.value("c").or_else(|| l.value("command")))
            })
            .cloned();
        match code {
            Some(code) => self.code(program, &code, ctx, Lang::Shell),
            None => self.stdin_code(program, ctx, Lang::Shell),
        }
    }

    fn wsl(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &WSL, args, 1) else {
            return ControlFlow::Continue(());
        };
        let manage = [
            "list", "shutdown", "status", "update", "install", "help", "version",
        ];
        if manage.iter().any(|o| parsed.has(o)) {
            return ControlFlow::Continue(());
        }
        let rest = from(args, parsed.next);
        if parsed.has("e") || parsed.has("exec") {
            return self.argv(rest, ctx);
        }
        if rest.is_empty() {
            return self.stdin_code(program, ctx, Lang::Shell);
        }
        // Without `--exec`, the words are a command line for the default Linux shell.
        self.code(program, &Arg::join(rest), ctx, Lang::Shell)
    }

    fn eval(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let start = usize::from(args.get(1).and_then(Arg::known).as_deref() == Some("--"));
        let rest = from(args, 1 + start);
        if rest.is_empty() {
            return ControlFlow::Continue(());
        }
        self.code(program, &Arg::join(rest), ctx, Lang::Shell)
    }

    fn source(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let start = usize::from(args.get(1).and_then(Arg::known).as_deref() == Some("--"));
        match args.get(1 + start) {
            Some(file) => self.script_file(program, file, ctx, false),
            None => ControlFlow::Continue(()),
        }
    }

    fn alias(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        for arg in from(args, 1) {
            if arg.known().is_some_and(|v| v.starts_with('-')) {
                continue;
            }
            // `NAME=VALUE`: the value is known when the whole word is.
            let known = arg.known();
            let text = known.clone().unwrap_or_else(|| arg.raw.clone());
            if let Some((name, value)) = text.split_once('=') {
                let value = known.is_some().then(|| value.to_owned());
                self.aliases.borrow_mut().push((name.to_owned(), value));
            }
            if let Some(value) = arg.after_equals() {
                self.code(program, &value, ctx, Lang::Shell)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn trap(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let mut i = 1;
        match args.get(i).and_then(Arg::known).as_deref() {
            Some("-p" | "-l" | "-P") => return ControlFlow::Continue(()),
            Some("--") => i += 1,
            _ => {}
        }
        match args.get(i) {
            Some(action) => self.code(program, action, ctx, Lang::Shell),
            None => ControlFlow::Continue(()),
        }
    }

    fn hash(&mut self, program: &str, args: &[Arg]) -> Flow {
        let Some(parsed) = self.options(program, &HASH, args, 1) else {
            return ControlFlow::Continue(());
        };
        // `hash -p PATH NAME` makes NAME run PATH.
        if let Some(path) = parsed.value("p")
            && let Some(Ok(hit)) = self.resolve(&path.clone())
        {
            return self.found(hit);
        }
        ControlFlow::Continue(())
    }

    fn let_(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        for arg in from(args, 1) {
            if let Some(expr) = arg.value() {
                self.text(&expr, ctx.depth)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn mapfile(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &MAPFILE, args, 1) else {
            return ControlFlow::Continue(());
        };
        // `mapfile -C CALLBACK` evaluates the callback.
        match parsed.value("C") {
            Some(callback) => self.code(program, &callback.clone(), ctx, Lang::Shell),
            None => ControlFlow::Continue(()),
        }
    }

    fn fc(&mut self, program: &str, args: &[Arg]) -> Flow {
        let listing = from(args, 1).iter().any(|a| {
            a.known()
                .is_some_and(|v| v.starts_with('-') && v.contains('l'))
        });
        if !listing {
            self.fail(opaque(program, "it re-runs commands from the history"));
        }
        ControlFlow::Continue(())
    }

    fn ssh(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            i += 1;
            let Some(value) = arg.known() else { continue };
            let option = match value.strip_prefix("-o") {
                Some("") => match args.get(i).map(Arg::known) {
                    Some(None) => {
                        self.fail(opaque(program, "an -o option is computed"));
                        None
                    }
                    other => other.flatten(),
                },
                Some(attached) => Some(attached.to_owned()),
                None => None,
            };
            if let Some(option) = option
                && let Some((key, command)) = option.split_once(['=', ' '])
                && matches!(
                    key.to_ascii_lowercase().as_str(),
                    "proxycommand" | "localcommand" | "knownhostscommand"
                )
            {
                self.command_text(command, ctx.depth + 1)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn rsync(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            i += 1;
            let Some(value) = arg.known() else { continue };
            let command = match value.as_str() {
                "-e" | "--rsh" => args.get(i).and_then(Arg::known),
                v => v.strip_prefix("--rsh=").map(str::to_owned),
            };
            if let Some(command) = command {
                self.command_text(&command, ctx.depth + 1)?;
            }
        }
        ControlFlow::Continue(())
    }

    fn at(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &AT, args, 1) else {
            return ControlFlow::Continue(());
        };
        if ["f", "l", "r", "d", "c"].iter().any(|o| parsed.has(o)) {
            return ControlFlow::Continue(());
        }
        self.stdin_code(program, ctx, Lang::Shell)
    }

    fn crontab(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let operands: Vec<Option<String>> = from(args, 1).iter().map(Arg::known).collect();
        let listing = operands
            .iter()
            .flatten()
            .any(|v| v.starts_with('-') && v.len() > 1 && v.contains(['l', 'r', 'e']));
        let file = operands.iter().flatten().any(|v| !v.starts_with('-'));
        if listing || file {
            return ControlFlow::Continue(());
        }
        self.stdin_code(program, ctx, Lang::Shell)
    }

    fn interpreter(&mut self, args: &[Arg]) -> Flow {
        const VALUES: &[&str] = &[
            "-W",
            "-X",
            "-Q",
            "-I",
            "-r",
            "-C",
            "-m",
            "--require",
            "--loader",
            "--import",
            "--env-file",
        ];
        let mut i = 1;
        while let Some(value) = args.get(i).and_then(Arg::known) {
            if !value.starts_with('-') || value == "-" {
                break;
            }
            i += if VALUES.contains(&value.as_str()) {
                2
            } else {
                1
            };
        }
        match args.get(i) {
            Some(script) if !script.may_be_option() => self.script_name(script),
            _ => ControlFlow::Continue(()),
        }
    }

    fn completion(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        // `-C` takes a command: a cluster ending in it, or it with the value attached.
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            let Some(value) = arg.known() else {
                i += 1;
                continue;
            };
            if let Some(cluster) = value.strip_prefix('-')
                && let Some(at) = cluster.find('C')
                && !cluster.starts_with('-')
            {
                let attached = &cluster[at + 1..];
                let command = if attached.is_empty() {
                    args.get(i + 1).and_then(Arg::known)
                } else {
                    Some(attached.to_owned())
                };
                match command {
                    Some(command) => self.command_text(&command, ctx.depth + 1)?,
                    None => self.fail(opaque(program, "the command of -C is computed")),
                }
            }
            i += 1;
        }
        ControlFlow::Continue(())
    }

    fn invoke_expression(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let rest: Vec<Arg> = from(args, 1)
            .iter()
            .filter(|a| {
                !a.known().is_some_and(|v| {
                    let v = v.to_ascii_lowercase();
                    v.len() > 1 && "-command".starts_with(&v)
                })
            })
            .cloned()
            .collect();
        if rest.is_empty() {
            return ControlFlow::Continue(());
        }
        self.code(
            program,
            &Arg::join(&rest),
            ctx,
            Lang::Foreign(Dialect::PowerShell),
        )
    }

    fn any_script(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        // `tmux send-keys`, `screen -X stuff`: keys typed into a shell, which may
        // spell a command across several words.
        let typed = args.iter().position(|a| {
            a.known()
                .is_some_and(|v| matches!(v.as_str(), "send-keys" | "send" | "stuff"))
        });
        if let Some(at) = typed {
            let mut keys = String::new();
            let mut words = from(args, at + 1).iter().map(Arg::known);
            while let Some(word) = words.next() {
                match word.as_deref() {
                    None | Some("-H") => {
                        self.fail(opaque(program, "the keys it types are computed or encoded"));
                    }
                    // Options with a value: the target pane, a repeat count.
                    Some("-t" | "-N" | "-c") => {
                        words.next();
                    }
                    Some(option) if option.starts_with('-') => {}
                    Some("Enter" | "C-m" | "KPEnter" | "C-j") => keys.push('\n'),
                    Some("Space") => keys.push(' '),
                    // Keys that edit what was typed: the line cannot be known.
                    Some(
                        "BSpace" | "Home" | "End" | "Left" | "Right" | "Up" | "Down" | "DC" | "IC"
                        | "Tab" | "BTab" | "Escape",
                    ) => self.fail(opaque(program, "the keys it types edit the line")),
                    Some(key)
                        if key.len() > 2 && (key.starts_with("C-") || key.starts_with("M-")) =>
                    {
                        self.fail(opaque(program, "the keys it types edit the line"));
                    }
                    Some(text) => keys.push_str(text),
                }
            }
            self.hits_only(&keys, ctx.depth + 1)?;
        }
        // A buffer pasted into a pane is typed into its shell; `#(…)` in a format runs.
        if args.iter().any(|a| {
            a.known().is_some_and(|v| {
                matches!(v.as_str(), "paste-buffer" | "pasteb" | "readbuf" | "paste")
            })
        }) {
            self.fail(opaque(program, "it pastes a buffer into a shell"));
        }
        for arg in from(args, 1) {
            if let Some(text) = arg.known()
                && let Some(at) = text.find("#(")
            {
                let format = &text[at + 2..];
                let end = format.rfind(')').unwrap_or(format.len());
                self.command_text(&format[..end], ctx.depth + 1)?;
            }
        }
        for arg in from(args, 1) {
            if let Some(text) = arg.known() {
                let mut sub = self.sub();
                let _ = sub.script(&text, ctx.depth + 1, &Stdin::Inherit);
                if let Some(hit) = sub.into_hit() {
                    return self.found(hit);
                }
            }
        }
        let rest = from(args, 1);
        match rest.iter().position(|a| !a.may_be_option()) {
            Some(i) => self.argv(
                from(rest, i),
                &Ctx {
                    appended: true,
                    ..ctx.clone()
                },
            ),
            None => ControlFlow::Continue(()),
        }
    }

    fn runner(&mut self, subcommands: &[&str], args: &[Arg], ctx: &Ctx) -> Flow {
        let start = if subcommands.is_empty() {
            1
        } else {
            match args
                .iter()
                .skip(1)
                .position(|a| a.known().is_some_and(|v| subcommands.contains(&v.as_str())))
            {
                Some(i) => i + 2,
                None => return ControlFlow::Continue(()),
            }
        };
        self.any_program(from(args, start), ctx)
    }

    /// Skips `operands` words after the options (each exactly one word), then analyses the
    /// command.
    fn after_operands(
        &mut self,
        program: &str,
        args: &[Arg],
        next: usize,
        operands: usize,
        ctx: &Ctx,
    ) -> Flow {
        for i in next..next + operands {
            match args.get(i) {
                Some(arg) if arg.single() => {}
                Some(_) => {
                    self.fail(opaque(program, "an expansion stands where its operands go"));
                    return ControlFlow::Continue(());
                }
                None => return ControlFlow::Continue(()),
            }
        }
        self.argv(from(args, next + operands), ctx)
    }

    fn env(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options("env", &ENV, args, 1) else {
            return ControlFlow::Continue(());
        };
        let splits: Vec<&Arg> = parsed
            .options
            .iter()
            .filter(|o| o.name == "S" || o.name == "split-string")
            .filter_map(|o| o.value.as_ref())
            .collect();
        if !splits.is_empty() {
            // `env -S STRING`: the string's words take its place, options included.
            let mut words = vec![Arg::literal("env")];
            for split in splits {
                let Some(text) = split.value() else {
                    self.fail(opaque(
                        "env",
                        "its -S string is computed when the line runs",
                    ));
                    return ControlFlow::Continue(());
                };
                words.extend(foreign::split_env_string(&text));
            }
            words.extend(from(args, parsed.next).iter().cloned());
            return self.argv(&words, ctx);
        }
        let next = self.assignments(args, parsed.next, ctx)?;
        self.argv(from(args, next), ctx)
    }

    /// Skips `NAME=VALUE` words from `i` (`env`, `sudo`); returns where the command starts.
    fn assignments(&mut self, args: &[Arg], mut i: usize, ctx: &Ctx) -> ControlFlow<(), usize> {
        while let Some(arg) = args.get(i)
            && let Some(value) = arg.known()
            && let Some((name, _)) = value.split_once('=')
        {
            if let Some(assigned) = arg.after_equals() {
                self.command_variable(name, &assigned, ctx.depth)?;
            }
            i += 1;
        }
        ControlFlow::Continue(i)
    }

    /// `git -c KEY=VALUE …` and `git config KEY VALUE`: aliases starting with `!`, pagers,
    /// editors, SSH commands, helpers and drivers are commands; they are checked for protected
    /// programs.
    fn git(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        fn runs_value(key: &str, value: &str) -> bool {
            let key = key.to_ascii_lowercase();
            const COMMANDS: &[&str] = &[
                "pager",
                "editor",
                "sshcommand",
                "program",
                "helper",
                "command",
                "external",
                "driver",
                "clean",
                "smudge",
                "process",
                "askpass",
                "difffilter",
                "fsmonitor",
                "textconv",
                "cmd",
                "tool",
                "hook",
                "uploadpack",
                "receivepack",
                "proxy",
            ];
            value.starts_with('!')
                || value.starts_with("ext::")
                || COMMANDS
                    .iter()
                    .any(|c| key.split('.').any(|part| part.contains(c)))
        }
        let words: Vec<Option<String>> = args.iter().map(Arg::known).collect();
        let mut commands = Vec::new();
        let mut i = 1;
        while i < words.len() {
            match words.get(i).cloned().flatten() {
                Some(flag) if flag.starts_with("--config-env") => {
                    // `--config-env=KEY=VAR`: the value comes from the environment.
                    self.fail(opaque(
                        "git",
                        "--config-env takes a setting from the environment",
                    ));
                    i += 1;
                }
                Some(flag) if flag == "-c" => {
                    match words.get(i + 1) {
                        Some(Some(setting)) => {
                            if let Some((key, value)) = setting.split_once('=')
                                && runs_value(key, value)
                            {
                                commands.push(value.to_owned());
                            }
                            // `url.ext::CMD.insteadOf=…`: the command is in the key.
                            if let Some(at) = setting.find("ext::")
                                && setting.to_ascii_lowercase().starts_with("url.")
                            {
                                let rest = &setting[at + "ext::".len()..];
                                let end = rest.rfind('.').unwrap_or(rest.len());
                                commands.push(rest[..end].to_owned());
                            }
                        }
                        Some(None) => self.fail(opaque("git", "a -c setting is computed")),
                        None => {}
                    }
                    i += 2;
                }
                // Programs git runs: transports (`--upload-pack`, `-u`, `ext::` URLs), `rebase
                // -x`, `difftool -x`, `grep -O`.
                Some(flag)
                    if matches!(
                        flag.as_str(),
                        "--upload-pack" | "--receive-pack" | "--exec" | "-u" | "-x" | "--extcmd"
                    ) =>
                {
                    match words.get(i + 1) {
                        Some(Some(command)) => commands.push(command.clone()),
                        Some(None) => self.fail(opaque("git", "a command it runs is computed")),
                        None => {}
                    }
                    i += 2;
                }
                Some(flag)
                    if [
                        "--upload-pack=",
                        "--receive-pack=",
                        "--exec=",
                        "--extcmd=",
                        "-O",
                        "--open-files-in-pager=",
                    ]
                    .iter()
                    .any(|prefix| flag.len() > prefix.len() && flag.starts_with(prefix)) =>
                {
                    let at = flag.find('=').map_or(2, |at| at + 1);
                    commands.push(flag[at..].to_owned());
                    i += 1;
                }
                Some(url) if url.starts_with("ext::") => {
                    commands.push(url["ext::".len()..].to_owned());
                    i += 1;
                }
                Some(sub) if sub == "config" => {
                    // `git config [set|add] [--global|-f FILE] KEY VALUE`
                    const VALUED: &[&str] = &[
                        "-f",
                        "--file",
                        "--blob",
                        "--type",
                        "--default",
                        "--comment",
                        "--value",
                    ];
                    const VERBS: &[&str] = &["set", "add", "replace-all", "--add", "--replace-all"];
                    let mut rest = Vec::new();
                    let mut j = i + 1;
                    while let Some(word) = words.get(j) {
                        j += 1;
                        match word.as_deref() {
                            Some(option) if VALUED.contains(&option) => j += 1,
                            Some(option) if option.starts_with('-') || VERBS.contains(&option) => {}
                            Some(word) => rest.push(word.to_owned()),
                            None => self.fail(opaque("git", "a config argument is computed")),
                        }
                    }
                    if let [key, value, ..] = rest.as_slice() {
                        if runs_value(key, value) {
                            commands.push(value.clone());
                        }
                        if let Some(at) = key.find("ext::") {
                            commands.push(key[at + "ext::".len()..].to_owned());
                        }
                    }
                    break;
                }
                // `git bisect run CMD ARGS`, `git submodule foreach CMD`.
                Some(sub)
                    if sub == "bisect"
                        && words.get(i + 1).cloned().flatten().as_deref() == Some("run") =>
                {
                    let rest: Vec<String> =
                        from(args, i + 2).iter().map(|a| a.raw.clone()).collect();
                    commands.push(rest.join(" "));
                    break;
                }
                Some(sub) if sub == "foreach" => {
                    // The command is a shell string (its words, when given apart).
                    let rest: Vec<String> = from(args, i + 1)
                        .iter()
                        .map(|a| a.known().unwrap_or_else(|| a.raw.clone()))
                        .filter(|word| !word.starts_with("--"))
                        .collect();
                    commands.push(rest.join(" "));
                    break;
                }
                _ => i += 1,
            }
        }
        for command in commands {
            // git reads `% ` as a space and `%%` as `%` in an `ext::` command.
            let command = command.replace("% ", " ").replace("%%", "%");
            self.command_text(command.trim_start_matches('!'), ctx.depth + 1)?;
        }
        ControlFlow::Continue(())
    }

    fn xargs(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options("xargs", &XARGS, args, 1) else {
            return ControlFlow::Continue(());
        };
        let replace = parsed
            .value("I")
            .or_else(|| parsed.value("J"))
            .and_then(Arg::value)
            .or_else(|| {
                ["i", "replace"].iter().find(|o| parsed.has(o)).map(|o| {
                    parsed
                        .value(o)
                        .and_then(Arg::value)
                        .unwrap_or_else(|| "{}".to_owned())
                })
            });
        let rest = from(args, parsed.next);
        if rest.is_empty() {
            // The command defaults to `echo`.
            return ControlFlow::Continue(());
        }
        let rest: Vec<Arg> = rest
            .iter()
            .map(|arg| {
                replace
                    .as_deref()
                    .and_then(|r| arg.fill_in(r, ""))
                    .unwrap_or_else(|| arg.clone())
            })
            .collect();
        self.argv(
            &rest,
            &Ctx {
                appended: true,
                ..ctx.clone()
            },
        )
    }

    /// `find … -exec CMD ;` and `fd … -x CMD`: the words after an `actions` word, up to `;` or
    /// `+`, are a command; `placeholders` in them are file names.
    fn find(&mut self, args: &[Arg], ctx: &Ctx, actions: &[&str], placeholders: &[&str]) -> Flow {
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            i += 1;
            if arg.splits() {
                self.fail(opaque(
                    "find",
                    "an unquoted expansion stands in its arguments",
                ));
                continue;
            }
            if !arg.known().is_some_and(|v| actions.contains(&v.as_str())) {
                continue;
            }
            let start = i;
            while args
                .get(i)
                .is_some_and(|a| !matches!(a.value().as_deref(), Some(";" | "+")))
            {
                i += 1;
            }
            let command: Vec<Arg> = args
                .get(start..i)
                .unwrap_or_default()
                .iter()
                .map(|arg| {
                    placeholders
                        .iter()
                        .fold(None, |filled: Option<Arg>, p| {
                            // The names are paths below the starting point: `./…`.
                            filled.as_ref().unwrap_or(arg).fill_in(p, "./").or(filled)
                        })
                        .unwrap_or_else(|| arg.clone())
                })
                .collect();
            self.argv(&command, ctx)?;
        }
        ControlFlow::Continue(())
    }

    fn su(&mut self, program: &str, spec: &Spec, args: &[Arg], ctx: &Ctx) -> Flow {
        // su reads options anywhere (`su - root -c CMD`): skip operands between them.
        let mut i = 1;
        let mut code = None;
        loop {
            let Some(parsed) = self.options(program, spec, args, i) else {
                return ControlFlow::Continue(());
            };
            if parsed.has("u") || parsed.has("user") {
                // `runuser -u USER CMD…` runs the command itself.
                return self.argv(from(args, parsed.next), ctx);
            }
            for name in ["c", "command", "session-command"] {
                if let Some(value) = parsed.value(name) {
                    code = Some(value.clone());
                }
            }
            if parsed.next >= args.len() {
                break;
            }
            i = parsed.next + 1;
        }
        match code {
            Some(code) => self.code(program, &code, ctx, Lang::Shell),
            None => self.stdin_code(program, ctx, Lang::Shell),
        }
    }

    fn shell(&mut self, program: &str, spec: &ShellSpec, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &spec.options, args, 1) else {
            return ControlFlow::Continue(());
        };
        if let Some(code) = spec.code_options.iter().find_map(|o| parsed.value(o)) {
            return self.code(program, &code.clone(), ctx, Lang::Shell);
        }
        for startup in ["rcfile", "init-file"] {
            if parsed
                .value(startup)
                .is_some_and(|f| f.raw.starts_with("<("))
            {
                self.fail(opaque(
                    program,
                    "it runs a startup file that a command writes",
                ));
            }
        }
        let operands = from(args, parsed.next);
        if spec.c_operand && parsed.has("c") {
            return match operands.first() {
                Some(code) => self.code(program, code, ctx, Lang::Shell),
                None => {
                    if ctx.appended {
                        self.fail(opaque(program, "its input supplies the command string"));
                    }
                    ControlFlow::Continue(())
                }
            };
        }
        if !parsed.has("s")
            && let Some(file) = operands.first()
        {
            return self.script_file(program, file, ctx, true);
        }
        self.stdin_code(program, ctx, Lang::Shell)
    }

    /// A shell or `source` reading the script `file`: its content is not analysed (a documented
    /// limit), unless it is standard input or computed.
    /// `options`: the program reads options before the file (a shell), so a computed name
    /// might be one (`bash "$X" CMD` runs CMD when X is `-c`); a name holding `/` cannot be.
    fn script_file(&mut self, program: &str, file: &Arg, ctx: &Ctx, options: bool) -> Flow {
        self.script_name(file)?;
        match file.known() {
            Some(path) if is_stdin_path(&path) => self.stdin_code(program, ctx, Lang::Shell),
            Some(path) if path.starts_with("/dev/fd/") || path.starts_with("/proc/self/fd/") => {
                self.fail(opaque(program, "it reads a script from a descriptor"));
                ControlFlow::Continue(())
            }
            _ if file.raw.starts_with("<(") => {
                self.fail(opaque(program, "it runs a script that a command writes"));
                ControlFlow::Continue(())
            }
            None if options && file.may_be_option() && !file.has_char('/') => {
                // `bash "$X" CMD` runs CMD when X is `-c`.
                self.fail(opaque(program, "an expansion stands where its options go"));
                ControlFlow::Continue(())
            }
            _ => ControlFlow::Continue(()),
        }
    }

    /// A script run by an interpreter: a hit when it is named like a protected program.
    /// `python [options] (SCRIPT | -m MODULE | -c CODE) …`: a script or a module that is a
    /// protected program counts (inline code is not analysed).
    fn python(&mut self, program: &str, args: &[Arg]) -> Flow {
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            let Some(value) = arg.known() else {
                // One computed word is the script (`"$HOME/x.py"`); field splitting could make
                // it options and a module.
                if arg.splits() {
                    self.fail(opaque(program, "its options are computed"));
                    return ControlFlow::Continue(());
                }
                return self.script_name(arg);
            };
            if value == "--" {
                return match args.get(i + 1) {
                    Some(script) => self.script_name(script),
                    None => ControlFlow::Continue(()),
                };
            }
            if !value.starts_with('-') || value == "-" {
                return self.script_name(arg);
            }
            if value.starts_with("--") {
                i += if value == "--check-hash-based-pycs" {
                    2
                } else {
                    1
                };
                continue;
            }
            let cluster = &value[1..];
            let mut next = i + 1;
            for (at, letter) in cluster.char_indices() {
                if !matches!(letter, 'c' | 'm' | 'W' | 'X') {
                    continue;
                }
                let attached = &cluster[at + 1..];
                let (option_value, after) = if attached.is_empty() {
                    (args.get(i + 1).map(Arg::known), i + 2)
                } else {
                    (Some(Some(attached.to_owned())), i + 1)
                };
                match letter {
                    // Inline code is a documented limit.
                    'c' => return ControlFlow::Continue(()),
                    'm' => return self.python_module(program, option_value, from(args, after)),
                    _ => next = after,
                }
                break;
            }
            i = next;
        }
        ControlFlow::Continue(())
    }

    /// `python -m MODULE ARGS`: a module that is a protected program's CLI counts; `runpy` runs
    /// the module its first argument names.
    fn python_module(
        &mut self,
        program: &str,
        module: Option<Option<String>>,
        rest: &[Arg],
    ) -> Flow {
        /// Python modules that are an infrastructure CLI, and the program they are.
        const MODULES: &[(&str, &str)] = &[
            ("awscli", "aws"),
            ("azure.cli", "az"),
            ("snowflake.cli", "snow"),
            ("googlecloudsdk", "gcloud"),
        ];
        let Some(Some(module)) = module else {
            self.fail(opaque(program, "the module it runs is computed"));
            return ControlFlow::Continue(());
        };
        if module == "runpy" {
            return self.python_module(program, rest.first().map(Arg::known), from(rest, 1));
        }
        let package = module.split('.').next().unwrap_or_default();
        let named = MODULES
            .iter()
            .filter(|(name, _)| module == *name || module.starts_with(&format!("{name}.")))
            .map(|(_, cli)| *cli)
            .chain(std::iter::once(package));
        for cli in named {
            if let Some(mut hit) = self.protected(cli) {
                hit.word = format!("-m {module}");
                return self.found(hit);
            }
        }
        ControlFlow::Continue(())
    }

    fn script_name(&mut self, script: &Arg) -> Flow {
        let name = script.known().or_else(|| script.tail());
        match name.and_then(|n| self.protected(&n)) {
            Some(mut hit) => {
                hit.word.clone_from(&script.raw);
                self.found(hit)
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// A program reading commands from its standard input.
    fn stdin_code(&mut self, program: &str, ctx: &Ctx, lang: Lang) -> Flow {
        match &ctx.stdin {
            Stdin::Inherit | Stdin::File => ControlFlow::Continue(()),
            Stdin::Pipe => {
                self.fail(opaque(program, "it reads commands from a pipe"));
                ControlFlow::Continue(())
            }
            Stdin::Unknown => {
                self.fail(opaque(program, "it reads commands from a computed input"));
                ControlFlow::Continue(())
            }
            Stdin::Text(text) => {
                let text = text.clone();
                let inner = Ctx {
                    stdin: Stdin::Inherit,
                    ..ctx.clone()
                };
                self.code(program, &text, &inner, lang)
            }
        }
    }

    /// A command string: analysed at the next depth. When part of it is computed, a hit in
    /// the rest still counts; otherwise it cannot be analysed.
    fn code(&mut self, program: &str, code: &Arg, ctx: &Ctx, lang: Lang) -> Flow {
        let placeholder = match lang {
            Lang::Shell => SHELL_PLACEHOLDER.to_owned(),
            Lang::Foreign(_) => foreign::UNKNOWN.to_string(),
        };
        let (text, computed) = code.text_with(&placeholder);
        let depth = ctx.depth + 1;
        if !computed {
            return self.code_text(&text, depth, &ctx.stdin, lang);
        }
        let mut sub = self.sub();
        let _ = sub.code_text(&text, depth, &ctx.stdin, lang);
        if let Some(hit) = sub.into_hit() {
            return self.found(hit);
        }
        self.fail(opaque(
            program,
            "its command string is computed when the line runs",
        ));
        ControlFlow::Continue(())
    }

    fn code_text(&mut self, text: &str, depth: usize, stdin: &Stdin, lang: Lang) -> Flow {
        match lang {
            Lang::Shell => self.script(text, depth, stdin),
            Lang::Foreign(dialect) => self.foreign(text, depth, dialect),
        }
    }

    /// PowerShell or cmd text (see [`foreign`]).
    pub(crate) fn foreign(&mut self, text: &str, depth: usize, dialect: Dialect) -> Flow {
        if depth > MAX_NESTING {
            self.fail(GuardError::TooDeep {
                what: "command strings inside command strings",
            });
            return ControlFlow::Continue(());
        }
        if !self.take_parse() {
            return ControlFlow::Continue(());
        }
        let (commands, nested) = foreign::split(text, dialect);
        for command in commands {
            let mut words = command.words;
            let Some(first) = words.first_mut() else {
                continue;
            };
            if dialect == Dialect::Cmd {
                // `@cmd` only hides the echo; `kubectl/version`, `kubectl,get` start kubectl.
                if let Some(crate::word::Piece::Char { c: '@', .. }) = first.pieces.first() {
                    first.pieces.remove(0);
                }
                if let Some(value) = first.value()
                    && let Some(end) = value.find(['/', ',', '=', ';'])
                    && end > 0
                    && let Some(hit) = value.get(..end).and_then(|p| self.protected(p))
                {
                    return self.found(hit);
                }
            }
            // A command name quoted with its arguments (`& "kubectl get pods"`,
            // `[scriptblock]::Create('kubectl get pods')`): its first word counts too.
            if let Some(value) = first.value()
                && let Some(head) = value.split_whitespace().next()
                && head != value
                && let Some(hit) = self.protected(head)
            {
                return self.found(hit);
            }
            if dialect == Dialect::PowerShell
                && !command.called
                && words.len() == 1
                && words.iter().all(|w| w.value().is_none())
            {
                // A lone variable or subexpression: its value is output, not run.
                continue;
            }
            let ctx = Ctx {
                depth,
                stdin: if command.piped {
                    Stdin::Pipe
                } else {
                    Stdin::Inherit
                },
                appended: false,
                chain: 0,
            };
            self.argv(&words, &ctx)?;
        }
        for text in nested {
            self.foreign(&text, depth + 1, Dialect::PowerShell)?;
        }
        ControlFlow::Continue(())
    }

    fn powershell(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let lang = Lang::Foreign(Dialect::PowerShell);
        let mut i = 1;
        while let Some(arg) = args.get(i) {
            let Some(value) = arg.known() else {
                if arg.may_be_option() || arg.splits() {
                    self.fail(opaque(program, "an expansion stands where its options go"));
                    return ControlFlow::Continue(());
                }
                break;
            };
            if value == "-" || !(value.starts_with('-') || value.starts_with('/')) {
                break;
            }
            let name = value.trim_start_matches(['-', '/']).to_ascii_lowercase();
            let (name, attached) = match name.split_once(':') {
                Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                None => (name, None),
            };
            let value_at = |k: usize| args.get(k).cloned();
            match powershell_parameter(&name) {
                Some(Param::Command) => {
                    let mut rest: Vec<Arg> = attached.iter().map(|a| Arg::literal(a)).collect();
                    rest.extend(from(args, i + 1).iter().cloned());
                    if rest.first().and_then(Arg::known).as_deref() == Some("-") {
                        return self.stdin_code(program, ctx, lang);
                    }
                    if rest.is_empty() {
                        return ControlFlow::Continue(());
                    }
                    return self.windows_code(program, &rest, ctx, lang);
                }
                Some(Param::CommandWithArgs) => {
                    return match attached
                        .map(|a| Arg::literal(&a))
                        .or_else(|| value_at(i + 1))
                    {
                        Some(code) => self.code(program, &code, ctx, lang),
                        None => ControlFlow::Continue(()),
                    };
                }
                Some(Param::Encoded) => {
                    let encoded = attached.or_else(|| value_at(i + 1).and_then(|a| a.value()));
                    return match encoded.and_then(|e| foreign::decode_encoded_command(&e)) {
                        Some(text) => self.code(program, &Arg::literal(&text), ctx, lang),
                        None => {
                            self.fail(opaque(program, "its encoded command cannot be decoded"));
                            ControlFlow::Continue(())
                        }
                    };
                }
                Some(Param::File) => {
                    let file = attached.or_else(|| value_at(i + 1).and_then(|a| a.value()));
                    if file.as_deref() == Some("-") {
                        return self.stdin_code(program, ctx, lang);
                    }
                    return ControlFlow::Continue(());
                }
                Some(Param::Help) => return ControlFlow::Continue(()),
                Some(Param::Value) => i += if attached.is_some() { 1 } else { 2 },
                Some(Param::Flag) => i += 1,
                None => {
                    self.fail(GuardError::UnknownOption {
                        program: program.to_owned(),
                        option: value,
                    });
                    return ControlFlow::Continue(());
                }
            }
        }
        // A positional argument starts the command (`powershell.exe` reads it as -Command;
        // `pwsh` as -File, whose name is then examined as a program: the safer reading).
        let rest = from(args, i);
        if rest.is_empty() {
            return self.stdin_code(program, ctx, lang);
        }
        self.windows_code(program, rest, ctx, lang)
    }

    /// The words of a Windows program's command line, joined as it joins them. The program
    /// sees the words' own quotes only if the caller re-quoted them (as MSYS does for words
    /// with blanks), so that reading is checked for hits too.
    fn windows_code(&mut self, program: &str, words: &[Arg], ctx: &Ctx, lang: Lang) -> Flow {
        let quoted = Arg::join_quoted(words);
        let plain = Arg::join(words);
        if quoted.pieces != plain.pieces {
            let mut sub = self.sub();
            let _ = sub.code(program, &quoted, ctx, lang);
            if let Some(hit) = sub.into_hit() {
                return self.found(hit);
            }
        }
        self.code(program, &plain, ctx, lang)
    }

    fn cmd(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let lang = Lang::Foreign(Dialect::Cmd);
        for (i, arg) in args.iter().enumerate().skip(1) {
            let Some(value) = arg.known() else {
                self.fail(opaque(program, "an expansion stands where its options go"));
                return ControlFlow::Continue(());
            };
            let lower = value.to_ascii_lowercase();
            // Git Bash users write `//c` to keep MSYS from rewriting `/c` into a path.
            let switch = lower.strip_prefix("//").or_else(|| lower.strip_prefix('/'));
            match switch {
                Some(s) if s.starts_with(['c', 'k', 'r']) => {
                    let skip = value.len() - s.len() + 1;
                    let mut rest: Vec<Arg> = Vec::new();
                    if let Some(after) = value.get(skip..).filter(|a| !a.is_empty()) {
                        rest.push(Arg::literal(after));
                    }
                    rest.extend(from(args, i + 1).iter().cloned());
                    return self.windows_code(program, &rest, ctx, lang);
                }
                Some(_) => {}
                None => return self.windows_code(program, from(args, i), ctx, lang),
            }
        }
        self.stdin_code(program, ctx, lang)
    }

    /// Arguments of a program whose options are not modelled: any word naming a protected
    /// program is a hit, and the first word that is not an option is analysed as a command.
    fn any_program(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        for arg in args {
            if let Some(value) = arg.known() {
                for word in value.split_whitespace() {
                    if let Some(hit) = self.protected(word) {
                        return self.found(hit);
                    }
                }
            }
        }
        let first = args.iter().position(|a| {
            !a.may_be_option()
                && !a
                    .known()
                    .is_some_and(|v| v.starts_with('/') && v.len() <= 9)
        });
        match first {
            Some(i) => self.argv(from(args, i), ctx),
            None => ControlFlow::Continue(()),
        }
    }
}

/// What a PowerShell command-line parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Param {
    Command,
    CommandWithArgs,
    Encoded,
    File,
    Value,
    Flag,
    Help,
}

/// The parameter `name` (lower case, without its dash) stands for: its full name, an alias, or
/// a unique prefix; a prefix that could be a command parameter is taken for one.
fn powershell_parameter(name: &str) -> Option<Param> {
    const PARAMETERS: &[(&str, &[&str], Param)] = &[
        ("command", &["c"], Param::Command),
        ("commandwithargs", &["cwa"], Param::CommandWithArgs),
        ("encodedcommand", &["e", "ec", "en", "enc"], Param::Encoded),
        ("encodedarguments", &["ea"], Param::Value),
        ("file", &["f"], Param::File),
        ("executionpolicy", &["ex", "ep"], Param::Value),
        ("configurationname", &["config"], Param::Value),
        ("configurationfile", &[], Param::Value),
        ("custompipename", &[], Param::Value),
        ("inputformat", &["inp", "if"], Param::Value),
        ("outputformat", &["o", "of"], Param::Value),
        ("settingsfile", &["settings"], Param::Value),
        ("windowstyle", &["w"], Param::Value),
        ("workingdirectory", &["wd"], Param::Value),
        ("version", &["v"], Param::Value),
        ("psconsolefile", &[], Param::Value),
        ("noprofile", &["nop"], Param::Flag),
        ("nologo", &["nol"], Param::Flag),
        ("noninteractive", &["noni"], Param::Flag),
        ("noexit", &["noe"], Param::Flag),
        ("noprofileloadtime", &[], Param::Flag),
        ("login", &["l"], Param::Flag),
        ("interactive", &["i"], Param::Flag),
        ("mta", &[], Param::Flag),
        ("sta", &[], Param::Flag),
        ("help", &["h", "?"], Param::Help),
    ];
    if name.is_empty() {
        return None;
    }
    if let Some((_, _, param)) = PARAMETERS
        .iter()
        .find(|(full, aliases, _)| *full == name || aliases.contains(&name))
    {
        return Some(*param);
    }
    let candidates: Vec<Param> = PARAMETERS
        .iter()
        .filter(|(full, _, _)| full.starts_with(name))
        .map(|(_, _, param)| *param)
        .collect();
    for code in [Param::Command, Param::Encoded, Param::CommandWithArgs] {
        if candidates.contains(&code) {
            return Some(code);
        }
    }
    match candidates.as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powershell_parameters() {
        assert_eq!(powershell_parameter("command"), Some(Param::Command));
        assert_eq!(powershell_parameter("com"), Some(Param::Command));
        assert_eq!(powershell_parameter("c"), Some(Param::Command));
        assert_eq!(powershell_parameter("noprofile"), Some(Param::Flag));
        assert_eq!(powershell_parameter("nop"), Some(Param::Flag));
        assert_eq!(powershell_parameter("executionpolicy"), Some(Param::Value));
        assert_eq!(powershell_parameter("enc"), Some(Param::Encoded));
        assert_eq!(powershell_parameter("no"), None);
        assert_eq!(powershell_parameter("bogus"), None);
    }

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

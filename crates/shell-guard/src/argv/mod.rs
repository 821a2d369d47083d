//! A simple command's words: which program they start, and the programs that program starts.
//!
//! [`Analyzer::argv`] resolves the command word. When it names a program that runs other
//! programs, [`tables::kind`] says how, and [`Analyzer::wrapper`] hands the words to the handler
//! of that [`Kind`], which finds the command or command string inside and analyses it in turn:
//! * [`exec`]: wrappers that start the command in their arguments (`env`, `nice`, `xargs`…);
//! * [`privilege`]: `sudo`, `su`, `runuser`, `sg`;
//! * [`interpreters`]: shells, script interpreters, and the re-parsing of command strings;
//! * [`windows`]: PowerShell and cmd;
//! * [`builtins`]: `eval`, `source`, `alias`, `trap` and other builtins that run text;
//! * [`git`], [`remote`] (`ssh`, `rsync`) and [`launchers`] (options not modelled).

use std::ops::ControlFlow;

use crate::foreign::Dialect;
use crate::names;
use crate::opts::{self, Spec};
use crate::walk::{Analyzer, Flow, Stdin};
use crate::word::Arg;
use crate::{GuardError, Hit};

mod builtins;
mod exec;
mod git;
pub(crate) use git::setting_commands;
mod interpreters;
mod launchers;
mod privilege;
mod remote;
mod tables;
mod windows;

pub(crate) use interpreters::is_stdin_path;
use tables::{RUNUSER, SU, ShellSpec, kind};

/// At most this many wrappers around one command (`sudo env nice …`).
const MAX_CHAIN: usize = 32;

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

/// How a program runs other programs: which handler reads its words. The variants follow the
/// files that hold the handlers.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Its options, then this many operands of its own, then the command.
    Exec(&'static Spec, usize),
    /// No options (but `--`); the command follows.
    Prefix,
    Env,
    Command,
    Ionice,
    Chroot,
    Chrt,
    Taskset,
    Busybox,
    Flock,
    Watch,
    Script,
    Wsl,
    Xargs,
    Find,
    Fd,
    Sudo,
    Su,
    Runuser,
    Sg,
    Shell(&'static ShellSpec),
    /// A script interpreter: a script named like a protected program is that program (many
    /// CLIs are scripts: `python3 /usr/bin/aws`, `bash ~/.asdf/shims/kubectl`).
    Interpreter,
    /// Python, whose `-m MODULE` runs a CLI too (`python -m awscli` is `aws`).
    Python,
    /// `at` and `batch` run the commands on their standard input later.
    At,
    /// `crontab` installs the table on its standard input (or in a file).
    Crontab,
    PowerShell,
    Cmd,
    InvokeExpression,
    Eval,
    Source,
    Alias,
    Declare,
    Trap,
    Hash,
    Let,
    Mapfile,
    /// `fc`: re-runs commands from the history.
    Fc,
    /// `compgen -C CMD` and `complete -C CMD` run a command.
    Completion,
    /// `git -c key=value` and `git config`: some values are commands.
    Git,
    /// `ssh -o ProxyCommand=…` (and `LocalCommand`, `KnownHostsCommand`) runs locally.
    Ssh,
    /// `rsync -e CMD` / `--rsh=CMD`.
    Rsync,
    /// Options this crate does not model: every argument naming a protected program counts.
    AnyProgram,
    /// `parallel`: every argument may be a command string.
    AnyScript,
    /// A package runner: after one of these subcommands (or right away when empty), as
    /// [`Kind::AnyProgram`].
    Runner(&'static [&'static str]),
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
    pub(crate) fn protected(&self, word: &str) -> Option<Hit> {
        self.guard.lookup(&names::normalize(word)).map(|p| Hit {
            program: p.name.clone(),
            word: word.to_owned(),
        })
    }

    /// The protected program a command word written as a pattern (`/usr/bin/kub?ctl`) may
    /// name, if any.
    pub(crate) fn pattern_names(&self, word: &str) -> Option<Hit> {
        self.guard
            .lookup_pattern(&names::normalize(word))
            .map(|p| Hit {
                program: p.name.clone(),
                word: word.to_owned(),
            })
    }

    /// Whether `hit` names a gated program whose gate does not block these arguments.
    pub(crate) fn gate_lets_through(&self, hit: &Hit, args: &[Arg]) -> bool {
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

    /// Hands the words of `program`, a program of this kind, to the kind's handler.
    fn wrapper(&mut self, kind: Kind, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        match kind {
            Kind::Exec(spec, operands) => self.exec(program, spec, operands, args, ctx),
            Kind::Prefix => self.prefix(args, ctx),
            Kind::Env => self.env(args, ctx),
            Kind::Command => self.command_builtin(program, args, ctx),
            Kind::Ionice => self.ionice(program, args, ctx),
            Kind::Chroot => self.chroot(program, args, ctx),
            Kind::Chrt => self.chrt(program, args, ctx),
            Kind::Taskset => self.taskset(program, args, ctx),
            Kind::Busybox => self.busybox(args, ctx),
            Kind::Flock => self.flock(program, args, ctx),
            Kind::Watch => self.watch(program, args, ctx),
            Kind::Script => self.script_recorder(program, args, ctx),
            Kind::Wsl => self.wsl(program, args, ctx),
            Kind::Xargs => self.xargs(args, ctx),
            Kind::Find => self.find(args, ctx, &["-exec", "-execdir", "-ok", "-okdir"], &["{}"]),
            Kind::Fd => self.find(
                args,
                ctx,
                &["-x", "--exec", "-X", "--exec-batch"],
                &["{}", "{.}", "{/}", "{//}", "{/.}"],
            ),
            Kind::Sudo => self.sudo(program, args, ctx),
            Kind::Su => self.su(program, &SU, args, ctx),
            Kind::Runuser => self.su(program, &RUNUSER, args, ctx),
            Kind::Sg => self.sg(program, args, ctx),
            Kind::Shell(spec) => self.shell(program, spec, args, ctx),
            Kind::Interpreter => self.interpreter(args),
            Kind::Python => self.python(program, args),
            Kind::At => self.at(program, args, ctx),
            Kind::Crontab => self.crontab(program, args, ctx),
            Kind::PowerShell => self.powershell(program, args, ctx),
            Kind::Cmd => self.cmd(program, args, ctx),
            Kind::InvokeExpression => self.invoke_expression(program, args, ctx),
            Kind::Eval => self.eval(program, args, ctx),
            Kind::Source => self.source(program, args, ctx),
            Kind::Alias => self.alias(program, args, ctx),
            Kind::Declare => self.declare(program, args, ctx),
            Kind::Trap => self.trap(program, args, ctx),
            Kind::Hash => self.hash(program, args),
            Kind::Let => self.let_(args, ctx),
            Kind::Mapfile => self.mapfile(program, args, ctx),
            Kind::Fc => self.fc(program, args),
            Kind::Completion => self.completion(program, args, ctx),
            Kind::Git => self.git(args, ctx),
            Kind::Ssh => self.ssh(program, args, ctx),
            Kind::Rsync => self.rsync(args, ctx),
            Kind::AnyProgram => self.any_program(from(args, 1), ctx),
            Kind::AnyScript => self.any_script(program, args, ctx),
            Kind::Runner(subcommands) => self.runner(subcommands, args, ctx),
        }
    }
}

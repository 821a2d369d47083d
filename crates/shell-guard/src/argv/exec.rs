//! Wrappers: programs that start the command in their arguments (`env`, `nice`, `timeout`,
//! `xargs`, `find -exec`…), after skipping their own options and operands. The options come
//! from [`super::tables`]; a wrapper that also takes a command string (`flock -c`, `watch`)
//! hands it to [`Analyzer::code`].

use std::ops::ControlFlow;

use super::tables::{
    CHROOT, CHRT, COMMAND, ENV, FLOCK, IONICE, SCRIPT, TASKSET, WATCH, WSL, XARGS,
};
use super::{Ctx, Lang, from, opaque};
use crate::foreign;
use crate::opts::{Opt, Spec};
use crate::walk::{Analyzer, Flow};
use crate::word::Arg;

impl Analyzer<'_> {
    /// `doas`, `nice`, `timeout`, `strace`…: the options its table lists, `operands` words of its
    /// own (`timeout 5`), then the command.
    pub(super) fn exec(
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
        self.after_operands(program, args, parsed.next, operands, ctx)
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

    /// `builtin`, `noglob`, `-`, `call`…: no options but `--`; the command follows.
    pub(super) fn prefix(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let start = usize::from(args.get(1).and_then(Arg::known).as_deref() == Some("--"));
        self.argv(from(args, 1 + start), ctx)
    }

    /// `env [OPTIONS] [NAME=VALUE…] CMD…`; the words of a `-S STRING` take its place.
    pub(super) fn env(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options("env", &ENV, args, 1) else {
            return ControlFlow::Continue(());
        };
        let splits: Vec<&Arg> = parsed
            .values(&[Opt::Short('S'), Opt::Long("split-string")])
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
    pub(super) fn assignments(
        &mut self,
        args: &[Arg],
        mut i: usize,
        ctx: &Ctx,
    ) -> ControlFlow<(), usize> {
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

    /// `command [-p] CMD…`; `-v` and `-V` only describe the command.
    pub(super) fn command_builtin(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &COMMAND, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has(&[Opt::Short('v'), Opt::Short('V')]) {
            return ControlFlow::Continue(());
        }
        self.argv(from(args, parsed.next), ctx)
    }

    /// `ionice [OPTIONS] CMD…`; `-p`, `-P` and `-u` change running processes instead.
    pub(super) fn ionice(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &IONICE, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has(&[
            Opt::Short('p'),
            Opt::Short('P'),
            Opt::Short('u'),
            Opt::Long("pid"),
            Opt::Long("pgid"),
            Opt::Long("uid"),
        ]) {
            return ControlFlow::Continue(());
        }
        self.argv(from(args, parsed.next), ctx)
    }

    /// `chroot [OPTIONS] ROOT [CMD…]`: without a command, the root's shell reads standard input.
    pub(super) fn chroot(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &CHROOT, args, 1) else {
            return ControlFlow::Continue(());
        };
        if args.len() <= parsed.next + 1 {
            // No command: chroot starts an interactive shell.
            return self.stdin_code(program, ctx, Lang::Shell);
        }
        self.after_operands(program, args, parsed.next, 1, ctx)
    }

    /// `chrt [OPTIONS] PRIORITY CMD…`; `-p` and `-m` change a running process or print limits.
    pub(super) fn chrt(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &CHRT, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has(&[
            Opt::Short('p'),
            Opt::Long("pid"),
            Opt::Short('m'),
            Opt::Long("max"),
        ]) {
            return ControlFlow::Continue(());
        }
        self.after_operands(program, args, parsed.next, 1, ctx)
    }

    /// `taskset [OPTIONS] MASK CMD…`; `-p` changes a running process.
    pub(super) fn taskset(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &TASKSET, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has(&[Opt::Short('p'), Opt::Long("pid")]) {
            return ControlFlow::Continue(());
        }
        self.after_operands(program, args, parsed.next, 1, ctx)
    }

    /// `busybox APPLET ARGS…` (and `toybox`): the applet is the program; an option first
    /// (`--list`, `--install`) runs none.
    pub(super) fn busybox(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        if args
            .get(1)
            .and_then(Arg::known)
            .is_some_and(|v| v.starts_with('-'))
        {
            return ControlFlow::Continue(());
        }
        self.argv(from(args, 1), ctx)
    }

    /// `flock [OPTIONS] FILE (CMD… | -c STRING)`: the `-c` string runs in a shell.
    pub(super) fn flock(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &FLOCK, args, 1) else {
            return ControlFlow::Continue(());
        };
        if let Some(code) = parsed.value(&[Opt::Short('c'), Opt::Long("command")]) {
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

    /// `watch [OPTIONS] CMD…`: a shell command string, unless `-x` runs the words themselves.
    pub(super) fn watch(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &WATCH, args, 1) else {
            return ControlFlow::Continue(());
        };
        let rest = from(args, parsed.next);
        if rest.is_empty() {
            return ControlFlow::Continue(());
        }
        if parsed.has(&[Opt::Short('x'), Opt::Long("exec")]) {
            self.argv(rest, ctx)
        } else {
            // Without `-x`, watch runs `sh -c` on its words joined.
            self.code(program, &Arg::join(rest), ctx, Lang::Shell)
        }
    }

    /// `script [OPTIONS] [FILE]`, the terminal recorder: `-c CMD` runs in a shell, otherwise a
    /// shell reads standard input.
    pub(super) fn script_recorder(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &SCRIPT, args, 1) else {
            return ControlFlow::Continue(());
        };
        // util-linux takes options after the file operand too.
        let later = (parsed.next < args.len())
            .then(|| self.options(program, &SCRIPT, args, parsed.next + 1))
            .flatten();
        let command = [Opt::Short('c'), Opt::Long("command")];
        let code = parsed
            .value(&command)
            .or_else(|| later.as_ref().and_then(|l| l.value(&command)))
            .cloned();
        match code {
            Some(code) => self.code(program, &code, ctx, Lang::Shell),
            None => self.stdin_code(program, ctx, Lang::Shell),
        }
    }

    /// `wsl [OPTIONS] [--exec] CMD…`: without `--exec` the words are a Linux shell command line;
    /// the management options run nothing.
    pub(super) fn wsl(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &WSL, args, 1) else {
            return ControlFlow::Continue(());
        };
        let manage = [
            "list", "shutdown", "status", "update", "install", "help", "version",
        ]
        .map(Opt::Long);
        if parsed.has(&manage) {
            return ControlFlow::Continue(());
        }
        let rest = from(args, parsed.next);
        if parsed.has(&[Opt::Short('e'), Opt::Long("exec")]) {
            return self.argv(rest, ctx);
        }
        if rest.is_empty() {
            return self.stdin_code(program, ctx, Lang::Shell);
        }
        // Without `--exec`, the words are a command line for the default Linux shell.
        self.code(program, &Arg::join(rest), ctx, Lang::Shell)
    }

    /// `xargs [OPTIONS] CMD…`: words of its input are appended to the command (or replace the
    /// `-I` text).
    pub(super) fn xargs(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options("xargs", &XARGS, args, 1) else {
            return ControlFlow::Continue(());
        };
        let replace = parsed
            .value(&[Opt::Short('I'), Opt::Short('J')])
            .and_then(Arg::value)
            .or_else(|| {
                [Opt::Short('i'), Opt::Long("replace")]
                    .into_iter()
                    .find(|&o| parsed.has(&[o]))
                    .map(|o| {
                        parsed
                            .value(&[o])
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
    pub(super) fn find(
        &mut self,
        args: &[Arg],
        ctx: &Ctx,
        actions: &[&str],
        placeholders: &[&str],
    ) -> Flow {
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
}

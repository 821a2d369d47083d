//! Programs that run a command as another user or group: `sudo`, `su`, `runuser`, `sg`. (`doas`,
//! `pkexec`, `run0`, `gsudo` have nothing special: [`super::tables`] lists their options and
//! [`Analyzer::exec`] runs them.) Several hand the command to a shell.

use std::ops::ControlFlow;

use super::tables::SUDO;
use super::{Ctx, Lang, from};
use crate::opts::{Opt, Spec};
use crate::walk::{Analyzer, Flow};
use crate::word::Arg;

impl Analyzer<'_> {
    /// `sudo [OPTIONS] [NAME=VALUE…] CMD…`: `-e` edits files instead; `-s` and `-i` also hand
    /// the command to the target user's shell.
    pub(super) fn sudo(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &SUDO, args, 1) else {
            return ControlFlow::Continue(());
        };
        if parsed.has(&[Opt::Short('e'), Opt::Long("edit")]) {
            return ControlFlow::Continue(());
        }
        let next = self.assignments(args, parsed.next, ctx)?;
        let rest = from(args, next);
        if parsed.has(&[
            Opt::Short('s'),
            Opt::Short('i'),
            Opt::Long("shell"),
            Opt::Long("login"),
        ]) {
            if rest.is_empty() {
                return self.stdin_code(program, ctx, Lang::Shell);
            }
            // `sudo -s CMD` runs `$SHELL -c CMD`.
            self.code(program, &Arg::join(rest), ctx, Lang::Shell)?;
        }
        self.argv(rest, ctx)
    }

    /// `su`, `runuser`: a `-c` command string, the command after `runuser -u USER`, or a shell on
    /// standard input.
    pub(super) fn su(&mut self, program: &str, spec: &Spec, args: &[Arg], ctx: &Ctx) -> Flow {
        // su reads options anywhere (`su - root -c CMD`): skip operands between them.
        let mut i = 1;
        let mut code = None;
        loop {
            let Some(parsed) = self.options(program, spec, args, i) else {
                return ControlFlow::Continue(());
            };
            if parsed.has(&[Opt::Short('u'), Opt::Long("user")]) {
                // `runuser -u USER CMD…` runs the command itself.
                return self.argv(from(args, parsed.next), ctx);
            }
            if let Some(value) = parsed.value(&[
                Opt::Long("session-command"),
                Opt::Long("command"),
                Opt::Short('c'),
            ]) {
                code = Some(value.clone());
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

    /// `sg [-] GROUP [-c] COMMAND`: a shell command string, or a shell on standard input.
    pub(super) fn sg(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
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
}

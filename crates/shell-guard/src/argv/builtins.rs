//! Shell builtins that run text as commands (`eval`, `source`, `trap`, `mapfile -C`,
//! `compgen -C`…), change what a name runs later in the line (`alias`, `hash -p`) or set
//! variables other programs run (`export` and its kin).

use std::ops::ControlFlow;

use super::tables::{HASH, MAPFILE};
use super::{Ctx, Lang, from, opaque};
use crate::opts::Opt;
use crate::walk::{Analyzer, Flow};
use crate::word::{Arg, Piece};

impl Analyzer<'_> {
    /// `eval WORDS…`: the words joined are a shell command string.
    pub(super) fn eval(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let start = usize::from(args.get(1).and_then(Arg::known).as_deref() == Some("--"));
        let rest = from(args, 1 + start);
        if rest.is_empty() {
            return ControlFlow::Continue(());
        }
        self.code(program, &Arg::join(rest), ctx, Lang::Shell)
    }

    /// `source FILE`, `. FILE`: see [`Analyzer::script_file`].
    pub(super) fn source(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let start = usize::from(args.get(1).and_then(Arg::known).as_deref() == Some("--"));
        match args.get(1 + start) {
            Some(file) => self.script_file(program, file, ctx, false),
            None => ControlFlow::Continue(()),
        }
    }

    /// `alias NAME=VALUE…`: each value is remembered for the command words after it and checked
    /// as if it ran.
    pub(super) fn alias(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
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

    /// `export NAME=VALUE…` (and `declare`, `typeset`, `local`, `readonly`): an argument that
    /// the parser did not take for an assignment because its name is quoted or escaped
    /// (`export "EDITOR=kubectl"`, `export E\DITOR=…`) still sets the variable.
    pub(super) fn declare(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        for arg in from(args, 1) {
            let mut name = String::new();
            for piece in &arg.pieces {
                match piece {
                    Piece::Char { c: '=', .. } => break,
                    Piece::Char { c, .. } => name.push(*c),
                    Piece::Unknown { .. } => {
                        name.clear();
                        break;
                    }
                }
            }
            let Some(value) = arg.after_equals().filter(|_| !name.is_empty()) else {
                continue;
            };
            if value.value().is_none() && !arg.raw.contains('=') {
                // `$'EDITOR\x3d'"$X…"`: where the value's text starts cannot be told.
                self.fail(opaque(
                    program,
                    "a computed value is assigned with an escaped `=`",
                ));
                continue;
            }
            self.command_variable(&name, &value, ctx.depth)?;
        }
        ControlFlow::Continue(())
    }

    /// `trap ACTION SIGNAL…`: the action is a shell command string.
    pub(super) fn trap(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
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

    /// `hash -p PATH NAME`: NAME runs PATH from then on.
    pub(super) fn hash(&mut self, program: &str, args: &[Arg]) -> Flow {
        let Some(parsed) = self.options(program, &HASH, args, 1) else {
            return ControlFlow::Continue(());
        };
        if let Some(path) = parsed.value(&[Opt::Short('p')])
            && let Some(Ok(hit)) = self.resolve(&path.clone())
        {
            return self.found(hit);
        }
        ControlFlow::Continue(())
    }

    /// `let EXPR…`: arithmetic, whose expansions may run commands.
    pub(super) fn let_(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        for arg in from(args, 1) {
            if let Some(expr) = arg.value() {
                self.text(&expr, ctx.depth)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// `mapfile -C CALLBACK` (and `readarray`): the callback is a shell command string.
    pub(super) fn mapfile(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
        let Some(parsed) = self.options(program, &MAPFILE, args, 1) else {
            return ControlFlow::Continue(());
        };
        match parsed.value(&[Opt::Short('C')]) {
            Some(callback) => self.code(program, &callback.clone(), ctx, Lang::Shell),
            None => ControlFlow::Continue(()),
        }
    }

    /// `fc` re-runs commands from the history, which the line does not show; `fc -l` lists them.
    pub(super) fn fc(&mut self, program: &str, args: &[Arg]) -> Flow {
        let listing = from(args, 1).iter().any(|a| {
            a.known()
                .is_some_and(|v| v.starts_with('-') && v.contains('l'))
        });
        if !listing {
            self.fail(opaque(program, "it re-runs commands from the history"));
        }
        ControlFlow::Continue(())
    }

    /// `compgen -C CMD`, `complete -C CMD`: the command run to complete words.
    pub(super) fn completion(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
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
}

//! Programs whose options are not modelled (debuggers, sandboxes, launchers, package runners,
//! terminal multiplexers): any argument naming a protected program counts, and the first word
//! that is not an option is analysed as a command.

use std::ops::ControlFlow;

use super::{Ctx, from, opaque};
use crate::walk::{Analyzer, Flow, Stdin};
use crate::word::Arg;

impl Analyzer<'_> {
    /// Arguments of a program whose options are not modelled: any word naming a protected
    /// program is a hit, and the first word that is not an option is analysed as a command.
    pub(super) fn any_program(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
        for arg in args {
            if let Some(value) = arg.known() {
                for word in value.split_whitespace() {
                    if let Some(hit) = self.protected(word) {
                        return self.found(hit);
                    }
                }
            }
        }
        // A short word starting with `/` may be a Windows switch (`start /min cmd …`) or a
        // program (`valgrind /bin/sh -c …`): both readings are analysed.
        for (i, arg) in args.iter().enumerate() {
            if arg.may_be_option() {
                continue;
            }
            self.argv(from(args, i), ctx)?;
            let switch = arg
                .known()
                .is_some_and(|v| v.starts_with('/') && v.len() <= 9);
            if !switch || !self.take_reading() {
                break;
            }
        }
        ControlFlow::Continue(())
    }

    /// `tmux`, `screen`, `parallel`, `hyperfine`…: any argument may be a command string, and
    /// keys typed into a pane are a command line too.
    pub(super) fn any_script(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
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
                self.hit_or_budget(sub)?;
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

    /// `npx`, `uv run`, `aws-vault exec`…: after one of `subcommands` (or right away when there
    /// are none), as [`Analyzer::any_program`].
    pub(super) fn runner(&mut self, subcommands: &[&str], args: &[Arg], ctx: &Ctx) -> Flow {
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
}

//! `ssh` and `rsync`: the commands they run on this machine to reach the other one
//! (`ProxyCommand`, `-e`).

use std::ops::ControlFlow;

use super::{Ctx, opaque};
use crate::walk::{Analyzer, Flow};
use crate::word::Arg;

impl Analyzer<'_> {
    /// `ssh -o ProxyCommand=…` (and `LocalCommand`, `KnownHostsCommand`, also for `scp` and
    /// `sftp`): commands ssh runs on this machine.
    pub(super) fn ssh(&mut self, program: &str, args: &[Arg], ctx: &Ctx) -> Flow {
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

    /// `rsync -e CMD`, `--rsh=CMD`: the remote shell rsync starts on this machine.
    pub(super) fn rsync(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
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
}

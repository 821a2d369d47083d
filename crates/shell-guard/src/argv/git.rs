//! `git`: the commands it runs from its configuration (`-c`, `git config`) and its options
//! (transports, `rebase -x`, `bisect run`, `submodule foreach`).

use std::ops::ControlFlow;

use super::{Ctx, from, opaque};
use crate::walk::{Analyzer, Flow};
use crate::word::Arg;

impl Analyzer<'_> {
    /// `git -c KEY=VALUE …` and `git config KEY VALUE`: aliases starting with `!`, pagers,
    /// editors, SSH commands, helpers and drivers are commands; they are checked for protected
    /// programs.
    pub(super) fn git(&mut self, args: &[Arg], ctx: &Ctx) -> Flow {
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
                    // `-O` takes its command attached; every other prefix ends with `=`.
                    let at = if flag.starts_with("-O") {
                        2
                    } else {
                        flag.find('=').map_or(flag.len(), |at| at + 1)
                    };
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
}

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
        let words: Vec<Option<String>> = args.iter().map(Arg::known).collect();
        let mut commands = Vec::new();
        // `-c alias.NAME=!COMMAND`: name, command, and the first word after the setting.
        let mut shell_aliases: Vec<(String, String, usize)> = Vec::new();
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
                            let (key, value) = setting.split_once('=').unwrap_or((setting, ""));
                            commands.extend(setting_commands(key, value));
                            if let (Some(name), Some(command)) = (
                                key.to_ascii_lowercase().strip_prefix("alias."),
                                value.strip_prefix('!'),
                            ) {
                                shell_aliases.push((name.to_owned(), command.to_owned(), i + 2));
                            }
                        }
                        Some(None) => self.fail(opaque("git", "a -c setting is computed")),
                        None => {}
                    }
                    i += 2;
                }
                // Global options with a value, which could otherwise be read as a subcommand
                // (`git -C config config …`).
                Some(flag)
                    if matches!(
                        flag.as_str(),
                        "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--exec-path"
                    ) =>
                {
                    i += 2;
                }
                // Programs git runs: transports (`--upload-pack`, `-u`), `rebase -x`,
                // `difftool -x`, `grep -O`.
                Some(flag) if command_option(&flag).is_some() => match command_option(&flag) {
                    Some(Some(command)) => {
                        commands.push(command);
                        i += 1;
                    }
                    _ => {
                        match words.get(i + 1) {
                            Some(Some(command)) => commands.push(command.clone()),
                            Some(None) => {
                                self.fail(opaque("git", "a command it runs is computed"));
                            }
                            None => {}
                        }
                        i += 2;
                    }
                },
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
                        commands.extend(setting_commands(key, value));
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
        // A `!` alias runs as `sh -c 'ALIAS "$@"'` with the words after its name: they are
        // part of the command (`-c alias.k='!sh -c' k 'kubectl …'`).
        for (name, command, from_word) in shell_aliases {
            if let Some(at) = (from_word..words.len()).find(|&j| {
                words[j]
                    .as_deref()
                    .is_some_and(|w| w.eq_ignore_ascii_case(&name))
            }) {
                let rest: Vec<&str> = from(args, at + 1).iter().map(|a| a.raw.as_str()).collect();
                commands.push(format!("{command} {}", rest.join(" ")));
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

/// The command texts git runs because of the setting `key` = `value`: an alias starting with `!`
/// (a shell command), any other alias (a git command line), a pager, editor, SSH command,
/// helper or driver, and an `ext::` transport named in a `url.….insteadOf` key.
pub(crate) fn setting_commands(key: &str, value: &str) -> Vec<String> {
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
    let lower = key.to_ascii_lowercase();
    let mut commands = Vec::new();
    if let Some(command) = value.strip_prefix('!') {
        commands.push(command.to_owned());
    } else if lower.starts_with("alias.") {
        commands.push(format!("git {value}"));
    } else if value.starts_with("ext::")
        || COMMANDS
            .iter()
            .any(|c| lower.split('.').any(|part| part.contains(c)))
    {
        commands.push(value.to_owned());
    }
    if let Some(at) = key.find("ext::") {
        let rest = &key[at + "ext::".len()..];
        let end = rest.rfind('.').unwrap_or(rest.len());
        commands.push(rest[..end].to_owned());
    }
    commands
}

/// Whether `flag` is an option whose value is a program git runs: `Some(Some(command))` when
/// the command is attached, `Some(None)` when it is the next word. Long options count by any
/// prefix of two letters or more (git takes unique prefixes) and short ones inside a cluster
/// (`-iO…`, `-x…`), up to a letter that takes a value of its own (`-m…`, `-e…`).
fn command_option(flag: &str) -> Option<Option<String>> {
    const LONG: &[&str] = &["upload-pack", "receive-pack", "exec", "extcmd"];
    // Its value is optional, so it is attached when there is one.
    const OPTIONAL: &str = "open-files-in-pager";
    const VALUED: &[char] = &['m', 'e', 'f', 'F', 'A', 'B', 'C', 'c', 't'];
    if let Some(long) = flag.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (long, None),
        };
        // git takes any unique prefix, one letter too (`--u=` is `--upload-pack=` for clone).
        if name.is_empty() {
            return None;
        }
        if LONG.iter().any(|option| option.starts_with(name)) {
            return Some(value);
        }
        return (OPTIONAL.starts_with(name) && value.is_some()).then_some(value);
    }
    let cluster = flag.strip_prefix('-')?;
    for (at, letter) in cluster.char_indices() {
        if !letter.is_ascii_alphabetic() || VALUED.contains(&letter) {
            return None;
        }
        let rest = &cluster[at + 1..];
        match letter {
            'O' if rest.is_empty() => return None,
            'O' | 'x' | 'u' if rest.is_empty() => return Some(None),
            'O' | 'x' | 'u' => return Some(Some(rest.to_owned())),
            _ => {}
        }
    }
    None
}

//! The control plane stays human: the installed hook, run as each client runs it, refuses the
//! agent's own shell and file tools every `torii` command that is the human's and every path
//! into the config root, and lets read-only `torii` commands and everything else through.
//!
//! The layout is a user's: the root is reached from the home directory as `~/.config/torii`
//! (a link to the test's root, so both spellings count), the agent works in `~/project`, and
//! `~/elsewhere` and `~/project/clink` are links to the root that an agent could have found,
//! and `~/project/sub` a link whose `..` is the home directory.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::agents::Setup;
use crate::common::{install_provider, simple_provider};

/// What the hook must answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Denied as a `torii` command that is the human's.
    Human,
    /// Denied for naming the config root.
    Root,
    /// Denied, whichever reason (a provider's program, a line it cannot analyse).
    Denied,
    /// Passed without a word.
    Allow,
}
use Expect::{Allow, Denied, Human, Root};

/// Shell lines an agent could try, `{root}`, `{home}` and `{exe}` filled in.
const SHELL: &[(Expect, &str)] = &[
    // `torii` commands that are the human's, by every spelling the guard resolves.
    (Human, "torii target activate kubectl prod --for 1440"),
    (Human, "torii target activate kubectl prod"),
    (
        Human,
        "torii target add kubectl prod --context ctx --provider kubeconfig",
    ),
    (Human, "torii target clear kubectl"),
    (Human, "torii target remove kubectl prod --force"),
    (Human, "torii policy edit kubectl"),
    (Human, "torii provider install aws"),
    (Human, "torii provider setup kubectl admin"),
    (Human, "torii provider upgrade kubectl"),
    (Human, "torii provider remove kubectl"),
    (Human, "torii agent install claude --hook"),
    (Human, "torii agent uninstall claude --hook"),
    (Human, "torii reauth aws"),
    (Human, "torii self upgrade"),
    (Human, "torii init"),
    (Human, "torii"),
    (Human, "echo '{}' | torii"),
    (Human, "torii __prompt"),
    (Human, "torii __hook claude --config-dir /tmp/elsewhere"),
    (Human, "{exe} target activate kubectl prod"),
    (Human, "/usr/local/bin/torii target activate kubectl prod"),
    (Human, "TORII.EXE target activate kubectl prod"),
    (Human, "torii 'target' \"activate\" kubectl prod"),
    (Human, "torii target $(echo activate) kubectl prod"),
    (Human, "torii doctor; torii target activate kubectl prod"),
    (
        Human,
        "env TORII_LANG=en torii target activate kubectl prod",
    ),
    (Human, "sh -c 'torii policy edit kubectl'"),
    (
        Human,
        "bash -lc \"torii target activate kubectl prod --add\"",
    ),
    (Human, "nohup torii target activate kubectl prod &"),
    (Human, "timeout 5 torii target activate kubectl prod"),
    (Human, "sudo -u me torii target activate kubectl prod"),
    (Human, "echo prod | xargs torii target activate kubectl"),
    (
        Human,
        "TORII_CONFIG_DIR=/tmp/x torii target activate kubectl prod",
    ),
    (
        Denied,
        "\"$(command -v torii)\" target activate kubectl prod",
    ),
    (Denied, "$T target activate kubectl prod"),
    // Read-only `torii` commands stay allowed.
    (Allow, "torii --version"),
    (Allow, "torii doctor"),
    (Allow, "torii config-dir"),
    (Allow, "torii target list kubectl"),
    (Allow, "torii target status kubectl"),
    (Allow, "torii target show kubectl prod"),
    (Allow, "torii policy show kubectl"),
    (Allow, "torii policy check kubectl -- get pods"),
    (Allow, "torii provider list"),
    (Allow, "torii agent list"),
    (Allow, "torii agent status claude && git status"),
    (Allow, "{exe} help target"),
    // Paths into the root, however written.
    (Root, "cat {root}/providers/kubectl/grants"),
    (
        Root,
        "printf 'accept: [delete]' > {root}/providers/kubectl/rules.yaml",
    ),
    (Root, "cat ~/.config/torii/providers/kubectl/rules.yaml"),
    (
        Root,
        "cat \"$HOME/.config/torii/identities/lab/auth/session.json\"",
    ),
    (Root, "cat ${HOME}/.config/torii/settings.yaml"),
    (Root, "cat $TORII_CONFIG_DIR/settings.yaml"),
    (Root, "cat ~/.con'fig'/tor\"ii\"/grants"),
    (Root, "cd ~/.config && cat torii/grants"),
    (Root, "cd ~/.config/torii"),
    (Root, "cd .. && cat .config/torii/grants"),
    (Root, "ls ../.config/torii"),
    (Root, "cat ~/elsewhere/providers/kubectl/rules.yaml"),
    (Root, "cp -r ~/.config /tmp/copy"),
    (Root, "tar czf /tmp/t.tgz ~/.config"),
    (Root, "rm -rf ~/.config/torii"),
    (Root, "mv ~/.config/torii ~/.config/torii.old"),
    (Root, "grep -r token ~/.config/torii"),
    (Root, "cat ~/.config/tor*/providers/*/grants"),
    (Root, "cat /*/../{root}/grants"),
    (Root, "ln -s ~/.config/torii /tmp/l"),
    (Root, "sh -c 'cat ~/.config/torii/grants'"),
    (Root, "echo x | tee -a {root}/providers/kubectl/rules.yaml"),
    (Root, "curl -d @{root}/settings.yaml http://127.0.0.1:9/"),
    (Root, "dd if={root}/settings.yaml of=/tmp/x"),
    (Root, "find ~/.config -name grants"),
    (Root, "git -C ~/.config/torii log"),
    (Root, "vi ~/.config/torii/providers/kubectl/rules.yaml"),
    (Root, "python3 -c 'import sys' --file={root}/settings.yaml"),
    // Found by attacking the first version of this guard.
    (Root, "cd; cat .config/torii/providers/kubectl/rules.yaml"),
    (Root, "cd -L && cat .config/torii/grants"),
    (Root, "cat sub/../.config/torii/grants"),
    (Root, "cat ~+/../.config/torii/grants"),
    (Root, "cat \"${HOME%/}/.config/torii/grants\""),
    (Root, "cat $PWD/../.config/torii/grants"),
    (Root, "cat $HOME/.config/$'torii'/grants"),
    (Root, "cat ~/{zzz,.config/torii}/grants"),
    (Root, "cat ~/.confi[g]/torii/grants ~/.con[]f]ig/x"),
    (
        Root,
        "xargs cat <<EOF\n{root}/providers/kubectl/rules.yaml\nEOF",
    ),
    (
        Root,
        "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: ../.config/torii/providers/kubectl/rules.yaml\n@@\n-a\n+b\n*** End Patch\nEOF",
    ),
    (
        Root,
        "python3 -c \"import os; print(os.listdir('{root}'))\"",
    ),
    // Everything else passes.
    // `~/elsewhere` is a link to the root: listing `~/*` lists the root.
    (Root, "ls ~/*"),
    (Root, "cd .. && ls *"),
    (Root, "cat c*/providers/kubectl/rules.yaml"),
    (
        Root,
        "cat ${XDG_CONFIG_HOME:-$HOME/.config}/torii/providers/kubectl/rules.yaml",
    ),
    (
        Root,
        "cd ${XDG_CONFIG_HOME:-$HOME/.config} && cat torii/grants",
    ),
    (Root, "cat {~,/x}/.config/torii/grants"),
    (Root, "cat ~/.con{f..f}ig/torii/grants"),
    (
        Root,
        "cd src && cat /proc/self/cwd/../../.config/torii/grants",
    ),
    (Root, "builtin cd; cat .config/torii/grants"),
    (Root, "cd /tmp && cat ~-/../.config/torii/grants"),
    (Root, "shopt -s dotglob; cat ~/a/../*/torii/grants"),
    (Root, "X=a:~/.config/torii/grants; cat \"${X#a:}\""),
    (
        Root,
        "python3 -c \"import os; os.system('cat ~/.config/torii/grants')\"",
    ),
    (Root, "cat ~/$'\\x2e'config/torii/grants"),
    (Root, "cd ~ && cat $PWD/.config/torii/grants"),
    (Root, "cd ~; cd /tmp; cat $OLDPWD/.config/torii/grants"),
    (Root, "tar -C ~ -cf - .config/torii | tar -tf -"),
    (Root, "env -C ~ cat .config/torii/grants"),
    (
        Root,
        "git -C ~ diff --no-index .config/torii/grants /dev/null",
    ),
    (Root, "H=$HOME; cat $H/.config/torii/grants"),
    (Root, "D=.config; cat ~/$D/torii/grants"),
    (Root, "cat ${HOME%\\}}/.config/torii/grants"),
    (Root, "GLOBIGNORE=x; cat ~/*/torii/grants"),
    (Root, "shopt -s dot''glob; cat ~/a/../*/torii/grants"),
    (
        Allow,
        "cat > src/App.tsx <<'EOF'\nimport { a0, b0 } from './m0';\nimport { a1, b1 } from './m1';\nimport { a2, b2 } from './m2';\nimport { a3, b3 } from './m3';\nimport { a4, b4 } from './m4';\nimport { a5, b5 } from './m5';\nimport { a6, b6 } from './m6';\nimport { a7, b7 } from './m7';\nimport { a8, b8 } from './m8';\nimport { a9, b9 } from './m9';\nimport { a10, b10 } from './m10';\nimport { a11, b11 } from './m11';\nexport const App = () => { return null; };\nEOF",
    ),
    (
        Allow,
        "cd src; ls; cd components; ls; cd ../utils; ls; cd ../..; cd sub; make; cd lib; ls; cd ../..; cd docs; ls",
    ),
    (
        Allow,
        "git commit -m 'fix: respect XDG_CONFIG_HOME (~/.config by default)'",
    ),
    (Allow, "grep -rn '~/.config' src/"),
    (Allow, "alias ll='ls -la'; ll src"),
    (Allow, "ls ~/project/src/*"),
    (Allow, "du -sh ~/a/*"),
    (Allow, "ls /tmp/**"),
    (Allow, "cd .. && ls project"),
    (Allow, "ls"),
    (Allow, "ls -la ~"),
    (Allow, "ls /"),
    (Allow, "cat README.md"),
    (Allow, "git status && git diff"),
    (Allow, "cargo build --release"),
    (Allow, "grep -r torii src/"),
    (Allow, "cat ~/.config/git/config"),
    (Allow, "echo ~/.config/torii-notes"),
    (Allow, "cd /tmp && ls"),
    (Allow, "find . -name '*.rs'"),
    (Allow, "cat /etc/hosts"),
    // A provider's program is still blocked.
    (Denied, "kubectl get pods"),
];

/// File-tool events: a client's tool name and input (paths as the client sends them).
fn file_events() -> Vec<(Expect, &'static str, &'static str, Value)> {
    vec![
        // Claude Code: Read, Write and Edit paths arrive absolute; Glob and Grep paths may not.
        (
            Root,
            "claude",
            "Read",
            json!({"file_path": "{root}/providers/kubectl/grants"}),
        ),
        (
            Root,
            "claude",
            "Read",
            json!({"file_path": "{home}/.config/torii/identities/lab/auth/session.json"}),
        ),
        (
            Root,
            "claude",
            "Write",
            json!({"file_path": "{root}/providers/kubectl/rules.yaml", "content": "accept: [delete]\n"}),
        ),
        (
            Root,
            "claude",
            "Edit",
            json!({"file_path": "{home}/.config/torii/settings.yaml", "old_string": "a", "new_string": "b"}),
        ),
        (
            Root,
            "claude",
            "MultiEdit",
            json!({"file_path": "{home}/elsewhere/providers/kubectl/rules.yaml", "edits": []}),
        ),
        (
            Root,
            "claude",
            "NotebookEdit",
            json!({"notebook_path": "{root}/n.ipynb", "new_source": ""}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "**/grants", "path": "{home}/.config"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "{home}/.config/torii/**"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "../.config/*/providers/*"}),
        ),
        (
            Root,
            "claude",
            "Grep",
            json!({"pattern": "token", "path": "{root}"}),
        ),
        (
            Root,
            "claude",
            "Grep",
            json!({"pattern": "token", "path": "../.config"}),
        ),
        (
            Allow,
            "claude",
            "Read",
            json!({"file_path": "{home}/project/README.md"}),
        ),
        (
            Allow,
            "claude",
            "Write",
            json!({"file_path": "{home}/project/notes.md", "content": "see ~/.config/torii/grants"}),
        ),
        (
            Allow,
            "claude",
            "Grep",
            json!({"pattern": "torii", "path": "src"}),
        ),
        (Allow, "claude", "Glob", json!({"pattern": "**/*.rs"})),
        (Allow, "claude", "Glob", json!({"pattern": "src/**/*.ts"})),
        (
            Root,
            "claude",
            "Write",
            json!({"file_path": "{root}/x", "content": "x", "command": "true"}),
        ),
        (
            Allow,
            "claude",
            "Grep",
            json!({"pattern": "x", "glob": "src/**/*.rs"}),
        ),
        (
            Allow,
            "gemini",
            "read_many_files",
            json!({"include": ["src/**/*.rs"]}),
        ),
        (
            Root,
            "claude",
            "Read",
            json!({"file_path": "~/.config/torii/settings.yaml"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "*/providers/*/rules.yaml"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": ".con{f..f}ig/torii/**", "path": "{home}"}),
        ),
        (
            Allow,
            "claude",
            "Glob",
            json!({"pattern": "*", "path": "{home}"}),
        ),
        (
            Root,
            "claude",
            "Glob",
            json!({"pattern": "{.config/torii,zzz}/*", "path": "{home}"}),
        ),
        (
            Root,
            "gemini",
            "read_file",
            json!({"absolute_path": "{root}/settings.yaml"}),
        ),
        (
            Root,
            "gemini",
            "run_shell_command",
            json!({"command": "cat grants", "dir_path": "{root}"}),
        ),
        // Gemini CLI: relative paths, `dir_path`, globs in `include`.
        (
            Root,
            "gemini",
            "read_file",
            json!({"file_path": "../.config/torii/providers/kubectl/grants"}),
        ),
        (
            Root,
            "gemini",
            "write_file",
            json!({"file_path": "{root}/providers/kubectl/rules.yaml", "content": "x"}),
        ),
        (
            Root,
            "gemini",
            "replace",
            json!({"file_path": "{home}/.config/torii/settings.yaml", "old_string": "a", "new_string": "b"}),
        ),
        (
            Root,
            "gemini",
            "read_many_files",
            json!({"include": ["README.md", "{home}/.config/torii/**"]}),
        ),
        (
            Root,
            "gemini",
            "glob",
            json!({"pattern": "*/grants", "dir_path": "{root}/providers"}),
        ),
        (
            Root,
            "gemini",
            "grep_search",
            json!({"pattern": "secret", "dir_path": "{home}/.config"}),
        ),
        (
            Root,
            "gemini",
            "list_directory",
            json!({"dir_path": "{home}/elsewhere"}),
        ),
        (
            Allow,
            "gemini",
            "read_file",
            json!({"file_path": "README.md"}),
        ),
        (Allow, "gemini", "list_directory", json!({"dir_path": "."})),
        (
            Allow,
            "gemini",
            "grep_search",
            json!({"pattern": "torii", "dir_path": "src", "include_pattern": "*.rs"}),
        ),
        // Codex: the files of a patch, and an image.
        (
            Root,
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Update File: ../.config/torii/providers/kubectl/rules.yaml\n@@\n-deny: [delete]\n+deny: []\n*** End Patch\n"}),
        ),
        (
            Root,
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: notes.md\n+x\n*** Move to: {root}/x\n*** End Patch\n"}),
        ),
        (Root, "codex", "view_image", json!({"path": "{root}/x.png"})),
        (
            Allow,
            "codex",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: notes.md\n+~/.config/torii\n*** End Patch\n"}),
        ),
    ]
}

struct Layout {
    setup: Setup,
    project: PathBuf,
    pinned: PathBuf,
}

impl Layout {
    fn new() -> Layout {
        let setup = Setup::new();
        install_provider(
            &setup.root,
            "kubectl",
            &simple_provider("kubectl", ""),
            "deny: []\naccept: []\n",
        );
        let real = PathBuf::from(setup.root_dir());
        let config = setup.home.join(".config");
        std::fs::create_dir_all(&config).unwrap();
        let pinned = config.join("torii");
        std::os::unix::fs::symlink(&real, &pinned).unwrap();
        std::os::unix::fs::symlink(&real, setup.home.join("elsewhere")).unwrap();
        let project = setup.home.join("project");
        std::fs::create_dir_all(project.join("src")).unwrap();
        // `sub/..` is the home directory for the kernel, the project for a lexical reading.
        std::fs::create_dir_all(setup.home.join("a")).unwrap();
        std::os::unix::fs::symlink(setup.home.join("a"), project.join("sub")).unwrap();
        // A link to the root inside the project, reached by globs.
        std::os::unix::fs::symlink(&real, project.join("clink")).unwrap();
        std::fs::write(project.join("README.md"), "hello\n").unwrap();
        Layout {
            setup,
            project,
            pinned,
        }
    }

    fn fill(&self, text: &str) -> String {
        text.replace("{root}", &self.setup.root_dir())
            .replace("{home}", &self.setup.home.display().to_string())
            .replace("{exe}", &self.setup.exe())
    }

    /// Runs the hook as the client's installed command does, in the project directory.
    fn hook(&self, agent: &str, input: &Value) -> String {
        hook_at(&self.setup, &self.pinned, &self.project, agent, input)
    }
}

fn hook_at(setup: &Setup, pinned: &Path, cwd: &Path, agent: &str, input: &Value) -> String {
    let (out, code) = setup.hook_with(agent, pinned, &input.to_string(), |command| {
        command
            .env_remove("XDG_CONFIG_HOME")
            .env("HOME", &setup.home)
            .env("TORII_CONFIG_DIR", pinned)
            .current_dir(cwd);
    });
    assert_eq!(code, 0);
    out
}

/// The deny reason in `agent`'s answer, if it denied.
fn reason(agent: &str, out: &str) -> Option<String> {
    let answer: Value = serde_json::from_str(out).ok()?;
    let reason = match agent {
        "claude" | "codex" => (answer["hookSpecificOutput"]["permissionDecision"] == "deny")
            .then(|| answer["hookSpecificOutput"]["permissionDecisionReason"].as_str())?,
        "cursor" => (answer["permission"] == "deny").then(|| answer["user_message"].as_str())?,
        _ => (answer["decision"] == "deny").then(|| answer["reason"].as_str())?,
    };
    reason.map(str::to_string)
}

fn shell_input(agent: &str, command: &str, cwd: &Path) -> Value {
    match agent {
        "claude" | "codex" => json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "cwd": cwd}),
        "gemini" => json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": command}, "cwd": cwd}),
        "cursor" => {
            json!({"hook_event_name": "beforeShellExecution", "command": command, "cwd": cwd})
        }
        // Antigravity names no working directory: the hook's own is the client's.
        "antigravity" => {
            json!({"toolCall": {"name": "run_command", "args": {"CommandLine": command}}})
        }
        other => panic!("no hook for {other}"),
    }
}

fn right(expect: Expect, agent: &str, out: &str) -> bool {
    match (expect, reason(agent, out)) {
        (Human, Some(reason)) => reason.contains("are the human's"),
        (Root, Some(reason)) => reason.contains("names Torii's configuration"),
        (Denied, Some(_)) => true,
        (Allow, None) => out.is_empty() || (agent == "antigravity" && out.contains("\"ask\"")),
        _ => false,
    }
}

#[test]
fn the_hook_keeps_every_clients_shell_out_of_the_control_plane() {
    let layout = Layout::new();
    assert!(SHELL.len() >= 60, "{} lines", SHELL.len());
    let mut failures = Vec::new();
    for (expect, line) in SHELL {
        let line = layout.fill(line);
        for agent in ["claude", "codex", "gemini", "cursor", "antigravity"] {
            let out = layout.hook(agent, &shell_input(agent, &line, &layout.project));
            if !right(*expect, agent, &out) {
                failures.push(format!("{expect:?} via {agent}: {line:?} -> {out}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_hook_keeps_file_tools_out_of_the_root() {
    let layout = Layout::new();
    let events = file_events();
    assert!(events.len() >= 20, "{} events", events.len());
    let mut failures = Vec::new();
    for (expect, agent, tool, input) in events {
        let input: Value = serde_json::from_str(&layout.fill(&input.to_string())).unwrap();
        let event = if agent == "gemini" {
            "BeforeTool"
        } else {
            "PreToolUse"
        };
        let out = layout.hook(
            agent,
            &json!({"hook_event_name": event, "tool_name": tool, "tool_input": input,
                "cwd": layout.project}),
        );
        if !right(expect, agent, &out) {
            failures.push(format!("{expect:?} via {agent} {tool}: {input} -> {out}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Moving the root aside used to turn the guard off (regression): a hook whose pinned root is
/// missing denies everything and says how to restore or remove it.
#[test]
fn a_hook_whose_root_is_missing_denies_and_says_why() {
    let layout = Layout::new();
    let missing = layout.setup.home.join(".config/moved-away");
    for line in ["ls", "kubectl get pods", "torii doctor"] {
        let out = hook_at(
            &layout.setup,
            &missing,
            &layout.project,
            "claude",
            &shell_input("claude", line, &layout.project),
        );
        let reason = reason("claude", &out).unwrap_or_else(|| panic!("{line}: {out}"));
        assert!(reason.contains("cannot be read"), "{reason}");
        assert!(
            reason.contains("torii agent uninstall claude --hook"),
            "{reason}"
        );
    }
}

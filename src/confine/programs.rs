//! Where the code of the programs children run lives, so that no child can change it.
//!
//! A program planted or edited there runs the next time a provider calls it, with that
//! provider's injected session. That is not only the `PATH` directories: a command on `PATH`
//! is often a link into an install tree (pipx, npm `-g`, Homebrew, `/usr/local/bin/aws`), or a
//! Python script whose modules, and any `.pth` file beside them, live in a virtual environment
//! or in the user's site directory.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// How much of a program is read to find its `#!` interpreter.
const SHEBANG_BYTES: u64 = 256;
/// How far above a program's real directory a Python virtual environment is looked for
/// (`<venv>/bin/aws`, `<venv>/lib/python3.x/site-packages/<pkg>/bin/x`).
const VENV_SEARCH_DEPTH: usize = 6;

/// The directories children may run from but not change: every absolute `PATH` directory, the
/// directory of the Torii executable, and the install trees of `programs` (the resolved
/// commands of the providers and their validators).
pub(super) fn read_only_dirs(programs: &[PathBuf]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect())
        .unwrap_or_default();
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf))
    {
        dirs.push(exe_dir);
    }
    let user_base = python_user_base();
    for program in programs {
        dirs.extend(install_dirs(program, user_base.as_deref()));
    }
    dirs.retain(|dir| dir.is_absolute());
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Where the code of `program` lives, as far as can be told without running it:
/// - the directory it was found in and the one it really is in (after links), with the `lib`
///   beside each when that directory is a `bin` (`~/.local/lib`, `<npm prefix>/lib`);
/// - the virtual environment holding it or its `#!` interpreter;
/// - the user's Python site directory (`<user base>/lib`), when its `#!` names a Python
///   outside a virtual environment, which loads it.
fn install_dirs(program: &Path, user_base: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let real = program.canonicalize().ok();
    for path in std::iter::once(program).chain(real.as_deref()) {
        let Some(dir) = path.parent() else { continue };
        dirs.push(dir.to_path_buf());
        if dir.file_name() == Some(OsStr::new("bin"))
            && let Some(prefix) = dir.parent()
        {
            dirs.push(prefix.join("lib"));
        }
    }
    let Some(real) = real else { return dirs };
    let interpreter = crate::files::read_start(&real, SHEBANG_BYTES)
        .ok()
        .and_then(|start| interpreter(&start));
    let venv = venv_holding(&real).or_else(|| {
        interpreter
            .as_ref()
            .and_then(|interpreter| interpreter.path.canonicalize().ok())
            .and_then(|path| venv_holding(&path))
    });
    match venv {
        Some(venv) => dirs.push(venv),
        None if interpreter.is_some_and(|interpreter| interpreter.is_python()) => {
            dirs.extend(user_base.map(|base| base.join("lib")));
        }
        None => {}
    }
    dirs
}

/// The nearest directory above `path` that holds `pyvenv.cfg`.
fn venv_holding(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .take(VENV_SEARCH_DEPTH)
        .find(|dir| dir.join("pyvenv.cfg").is_file())
        .map(Path::to_path_buf)
}

/// A `#!` line's interpreter: its path and, for `/usr/bin/env name`, the name it runs.
#[derive(Debug, PartialEq, Eq)]
struct Interpreter {
    path: PathBuf,
    runs: Option<String>,
}

impl Interpreter {
    fn is_python(&self) -> bool {
        let name = match &self.runs {
            Some(name) => Some(name.as_str()),
            None => self.path.file_name().and_then(OsStr::to_str),
        };
        name.is_some_and(|name| name.starts_with("python"))
    }
}

fn interpreter(start: &[u8]) -> Option<Interpreter> {
    let line = start.strip_prefix(b"#!")?;
    let line = line.split(|byte| *byte == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    let path = PathBuf::from(words.next()?);
    let runs = (path.file_name() == Some(OsStr::new("env")))
        .then(|| words.find(|word| !word.starts_with('-')))
        .flatten()
        .map(str::to_string);
    Some(Interpreter { path, runs })
}

/// Python's user base (`PYTHONUSERBASE`, else `~/.local`), whose `lib` holds the user's site
/// directory.
fn python_user_base() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    set("PYTHONUSERBASE")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".local")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_program(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_linked_command_keeps_both_trees() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let real = base.join("prefix/lib/node_modules/tool/bin/tool.js");
        write_program(&real, "#!/usr/bin/env node\n");
        std::fs::create_dir_all(base.join("prefix/bin")).unwrap();
        let link = base.join("prefix/bin/tool");
        std::os::unix::fs::symlink("../lib/node_modules/tool/bin/tool.js", &link).unwrap();
        let dirs = install_dirs(&link, Some(&base.join("home/.local")));
        assert_eq!(
            dirs,
            [
                base.join("prefix/bin"),
                base.join("prefix/lib"),
                base.join("prefix/lib/node_modules/tool/bin"),
                base.join("prefix/lib/node_modules/tool/lib"),
            ]
        );
    }

    #[test]
    fn a_python_program_keeps_its_virtual_environment() {
        let dir = tempfile::tempdir().unwrap();
        let venv = dir.path().canonicalize().unwrap().join("venv");
        write_program(&venv.join("pyvenv.cfg"), "home = /usr/bin\n");
        let program = venv.join("bin/aws");
        write_program(&program, &format!("#!{}/bin/python\n", venv.display()));
        let dirs = install_dirs(&program, Some(Path::new("/home/u/.local")));
        assert!(dirs.contains(&venv), "{dirs:?}");
        assert!(!dirs.contains(&PathBuf::from("/home/u/.local/lib")));
    }

    #[test]
    fn a_program_run_by_a_venv_interpreter_keeps_that_venv() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let venv = base.join("venv");
        write_program(&venv.join("pyvenv.cfg"), "home = /usr/bin\n");
        write_program(&venv.join("bin/python"), "");
        let program = base.join("elsewhere/snow");
        write_program(&program, &format!("#!{}/bin/python -I\n", venv.display()));
        assert!(install_dirs(&program, None).contains(&venv));
    }

    #[test]
    fn a_system_python_program_keeps_the_user_site() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().canonicalize().unwrap().join("usr/bin/aws");
        write_program(&program, "#!/usr/bin/env -S python3 -s\nimport awscli\n");
        let dirs = install_dirs(&program, Some(Path::new("/home/u/.local")));
        assert!(
            dirs.contains(&PathBuf::from("/home/u/.local/lib")),
            "{dirs:?}"
        );
        let binary = dir.path().canonicalize().unwrap().join("usr/bin/git");
        write_program(&binary, "\x7fELF");
        let dirs = install_dirs(&binary, Some(Path::new("/home/u/.local")));
        assert!(
            !dirs.contains(&PathBuf::from("/home/u/.local/lib")),
            "{dirs:?}"
        );
    }

    #[test]
    fn shebang_lines_are_read_as_the_kernel_does() {
        assert_eq!(
            interpreter(b"#!/usr/bin/python3 -E\nrest"),
            Some(Interpreter {
                path: "/usr/bin/python3".into(),
                runs: None
            })
        );
        assert!(
            interpreter(b"#!/usr/bin/env python3.12\n")
                .unwrap()
                .is_python()
        );
        assert!(!interpreter(b"#!/bin/sh\n").unwrap().is_python());
        assert_eq!(interpreter(b"\x7fELF"), None);
        assert_eq!(interpreter(b"#!"), None);
    }
}

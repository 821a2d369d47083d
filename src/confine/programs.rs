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
/// How much of `pyvenv.cfg` is read.
const PYVENV_CFG_BYTES: u64 = 4096;
/// How many symbolic links a program's chain is followed through (as Linux's own limit).
const MAX_LINK_HOPS: usize = 40;

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
    let on_path = |name: &str| crate::runner::resolve(name).ok();
    for program in programs {
        dirs.extend(install_dirs(program, user_base.as_deref(), &on_path));
    }
    dirs.retain(|dir| dir.is_absolute());
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Where the code of `program` lives, as far as can be told without running it:
/// - the directory of every hop of its link chain (so no link on the way can be replaced),
///   with the `lib` beside each when that directory is a `bin` (`~/.local/lib`,
///   `<npm prefix>/lib`), and a version manager's installs when it is a `shims` directory;
/// - the same for its `#!` interpreter (found on `PATH` for `/usr/bin/env name`);
/// - the virtual environment holding it or its interpreter, with that environment's base
///   Python (`home` in `pyvenv.cfg`);
/// - the user's Python site directory (`<user base>/lib`), when a Python outside a virtual
///   environment, or one whose environment includes the system site packages, runs it.
///
/// `on_path` finds a command on `PATH` the way Torii resolves commands.
fn install_dirs(
    program: &Path,
    user_base: Option<&Path>,
    on_path: &dyn Fn(&str) -> Option<PathBuf>,
) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let hops = link_chain(program);
    code_dirs(&hops, &mut dirs);
    let Some(real) = program.canonicalize().ok() else {
        return dirs;
    };
    let interpreter = crate::files::read_start(&real, SHEBANG_BYTES)
        .ok()
        .and_then(|start| interpreter(&start));
    let interpreter_hops = interpreter
        .as_ref()
        .and_then(|interpreter| interpreter.program(on_path))
        .map(|path| link_chain(&path))
        .unwrap_or_default();
    code_dirs(&interpreter_hops, &mut dirs);
    let venv = hops
        .iter()
        .chain(&interpreter_hops)
        .find_map(|path| venv_holding(path));
    let is_python = interpreter.is_some_and(|interpreter| interpreter.is_python());
    let user_site = match &venv {
        Some(venv) => {
            dirs.push(venv.clone());
            let config = VenvConfig::read(venv);
            if let Some(home) = config.home {
                let base = link_chain(&home.join("python"));
                code_dirs(&base, &mut dirs);
                dirs.push(home);
            }
            config.system_site_packages
        }
        None => is_python,
    };
    if user_site {
        dirs.extend(user_base.map(|base| base.join("lib")));
    }
    dirs
}

/// `path` and every path its symbolic links lead through, one hop at a time, up to the file
/// itself (at most [`MAX_LINK_HOPS`]).
fn link_chain(path: &Path) -> Vec<PathBuf> {
    let mut chain = vec![path.to_path_buf()];
    let mut current = path.to_path_buf();
    while chain.len() <= MAX_LINK_HOPS {
        let Ok(target) = std::fs::read_link(&current) else {
            break;
        };
        current = match current.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
        chain.push(current.clone());
    }
    if let Ok(real) = path.canonicalize() {
        chain.push(real);
    }
    chain
}

/// The directories holding `paths`, with what sits beside them: a `bin`'s `lib`, and for a
/// `shims` directory the version manager holding it (`~/.pyenv`, `~/.rbenv`, `~/.nodenv`,
/// `~/.asdf`, mise's data directory).
fn code_dirs(paths: &[PathBuf], dirs: &mut Vec<PathBuf>) {
    for path in paths {
        let Some(dir) = path.parent() else { continue };
        dirs.push(dir.to_path_buf());
        let Some(prefix) = dir.parent() else { continue };
        match dir.file_name().and_then(OsStr::to_str) {
            Some("bin") => dirs.push(prefix.join("lib")),
            // The whole manager: a shim runs the manager itself (`pyenv exec`), which sources
            // hooks (`pyenv.d/exec/*.bash`) and reads its `version` file on every call.
            Some("shims") => dirs.push(prefix.to_path_buf()),
            _ => {}
        }
    }
}

/// What `pyvenv.cfg` says about where the environment's Python comes from.
#[derive(Debug, Default)]
struct VenvConfig {
    /// `home`: the directory of the base interpreter.
    home: Option<PathBuf>,
    /// `include-system-site-packages = true`: the base's and the user's site packages load too.
    system_site_packages: bool,
}

impl VenvConfig {
    fn read(venv: &Path) -> Self {
        let Ok(bytes) = crate::files::read_start(&venv.join("pyvenv.cfg"), PYVENV_CFG_BYTES) else {
            return Self::default();
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut config = Self::default();
        for line in text.lines() {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            // Python reads the keys without regard to case.
            match key.trim().to_ascii_lowercase().as_str() {
                "home" => config.home = Some(PathBuf::from(value.trim())),
                "include-system-site-packages" => {
                    config.system_site_packages = value.trim().eq_ignore_ascii_case("true");
                }
                _ => {}
            }
        }
        config.home = config.home.filter(|home| home.is_absolute());
        config
    }
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
    /// The interpreter program: the `#!` path, or for `/usr/bin/env name` what `name` is on
    /// `PATH`.
    fn program(&self, on_path: &dyn Fn(&str) -> Option<PathBuf>) -> Option<PathBuf> {
        match &self.runs {
            Some(name) => on_path(name),
            None => Some(self.path.clone()),
        }
    }

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
    // `env` takes options (`-S`, `-i`) and `NAME=value` assignments before the program.
    let runs = (path.file_name() == Some(OsStr::new("env")))
        .then(|| words.find(|word| !word.starts_with('-') && !word.contains('=')))
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

    /// A `PATH` that finds nothing.
    fn nowhere(_: &str) -> Option<PathBuf> {
        None
    }

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
        let dirs = install_dirs(&link, Some(&base.join("home/.local")), &nowhere);
        for expected in [
            base.join("prefix/bin"),
            base.join("prefix/lib"),
            base.join("prefix/lib/node_modules/tool/bin"),
            base.join("prefix/lib/node_modules/tool/lib"),
        ] {
            assert!(dirs.contains(&expected), "{expected:?} not in {dirs:?}");
        }
        assert!(!dirs.contains(&base.join("home/.local/lib")), "{dirs:?}");
    }

    /// Third review: only the first and the last directory of a chain of links were kept, so
    /// a child replaced the link in the middle.
    #[test]
    fn every_link_of_a_chain_keeps_its_directory() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        write_program(&base.join("opt/real/t"), "\x7fELF");
        std::fs::create_dir_all(base.join("tools")).unwrap();
        std::fs::create_dir_all(base.join("bin")).unwrap();
        std::os::unix::fs::symlink(base.join("opt/real/t"), base.join("tools/t")).unwrap();
        std::os::unix::fs::symlink(base.join("tools/t"), base.join("bin/t")).unwrap();
        let dirs = install_dirs(&base.join("bin/t"), None, &nowhere);
        for expected in [base.join("bin"), base.join("tools"), base.join("opt/real")] {
            assert!(dirs.contains(&expected), "{expected:?} not in {dirs:?}");
        }
    }

    /// Third review: a pyenv or asdf shim runs a program from the manager's installs.
    #[test]
    fn a_shim_keeps_the_version_managers_installs() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        write_program(&base.join(".pyenv/shims/aws"), "#!/usr/bin/env bash\n");
        std::fs::create_dir_all(base.join(".pyenv/versions/3.11.7/bin")).unwrap();
        let dirs = install_dirs(&base.join(".pyenv/shims/aws"), None, &nowhere);
        // Fourth review: `pyenv.d/exec` hooks and the `version` file are the manager's too.
        assert!(dirs.contains(&base.join(".pyenv")), "{dirs:?}");
    }

    /// Third review: the base Python of a virtual environment, and the user site when the
    /// environment includes system site packages, were writable.
    #[test]
    fn a_venv_keeps_its_base_python_and_the_user_site_it_loads() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let home = base.join("pythons/3.11/bin");
        write_program(&home.join("python3"), "\x7fELF");
        let venv = base.join("venv");
        write_program(
            &venv.join("pyvenv.cfg"),
            &format!(
                "Home = {}\nInclude-System-Site-Packages = TRUE\n",
                home.display()
            ),
        );
        std::fs::create_dir_all(venv.join("bin")).unwrap();
        std::os::unix::fs::symlink(home.join("python3"), venv.join("bin/python3")).unwrap();
        let program = venv.join("bin/aws");
        write_program(&program, &format!("#!{}/bin/python3\n", venv.display()));
        let dirs = install_dirs(&program, Some(&base.join("home/.local")), &nowhere);
        for expected in [
            venv.clone(),
            home.clone(),
            base.join("pythons/3.11/lib"),
            base.join("home/.local/lib"),
        ] {
            assert!(dirs.contains(&expected), "{expected:?} not in {dirs:?}");
        }
    }

    /// Third review: for `#!/usr/bin/env python3` the venv was looked for above `env`.
    #[test]
    fn an_env_shebang_finds_the_venv_of_the_python_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let venv = dir.path().canonicalize().unwrap().join("venv");
        write_program(&venv.join("pyvenv.cfg"), "home = /usr/bin\n");
        write_program(&venv.join("bin/python3"), "\x7fELF");
        let program = dir.path().canonicalize().unwrap().join("bin/aws");
        write_program(&program, "#!/usr/bin/env python3\nimport awscli\n");
        let python = venv.join("bin/python3");
        let on_path = |name: &str| (name == "python3").then(|| python.clone());
        let dirs = install_dirs(&program, Some(Path::new("/home/u/.local")), &on_path);
        assert!(dirs.contains(&venv), "{dirs:?}");
        assert!(
            !dirs.contains(&PathBuf::from("/home/u/.local/lib")),
            "{dirs:?}"
        );
    }

    #[test]
    fn a_python_program_keeps_its_virtual_environment() {
        let dir = tempfile::tempdir().unwrap();
        let venv = dir.path().canonicalize().unwrap().join("venv");
        write_program(&venv.join("pyvenv.cfg"), "home = /usr/bin\n");
        let program = venv.join("bin/aws");
        write_program(&program, &format!("#!{}/bin/python\n", venv.display()));
        let dirs = install_dirs(&program, Some(Path::new("/home/u/.local")), &nowhere);
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
        assert!(install_dirs(&program, None, &nowhere).contains(&venv));
    }

    #[test]
    fn a_system_python_program_keeps_the_user_site() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().canonicalize().unwrap().join("usr/bin/aws");
        write_program(&program, "#!/usr/bin/env -S python3 -s\nimport awscli\n");
        let dirs = install_dirs(&program, Some(Path::new("/home/u/.local")), &nowhere);
        assert!(
            dirs.contains(&PathBuf::from("/home/u/.local/lib")),
            "{dirs:?}"
        );
        let binary = dir.path().canonicalize().unwrap().join("usr/bin/git");
        write_program(&binary, "\x7fELF");
        let dirs = install_dirs(&binary, Some(Path::new("/home/u/.local")), &nowhere);
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
        assert_eq!(
            interpreter(b"#!/usr/bin/env -S PYTHONSAFEPATH=1 python3 -s\n")
                .unwrap()
                .runs
                .as_deref(),
            Some("python3")
        );
        assert_eq!(interpreter(b"\x7fELF"), None);
        assert_eq!(interpreter(b"#!"), None);
    }
}

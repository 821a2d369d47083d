//! Checks of the machine rather than the config root: the `torii` on PATH, child confinement
//! and whether a window can open.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::Finding;
use crate::confine::{Confinement, Mode, Support};
use crate::prompt::{Availability, NO_GUI_ENV, availability};
use crate::release::Version;
use crate::runner::{Excluded, resolve_executable};

/// Which `torii` a shell finds first, and whether it is this one.
pub fn torii_on_path(exe: &Path) -> Finding {
    let this = Version::current();
    let found = resolve_executable(
        "torii",
        std::env::var_os("PATH").as_deref(),
        &Excluded::default(),
    );
    let Ok(found) = found else {
        let dir = exe.parent().unwrap_or(exe);
        return Finding::warning(
            format!(
                "no torii on PATH (this one is {}, {this}); clients are pinned to a full path, \
                 but a shell will not find the command",
                exe.display()
            ),
            format!("add {} to PATH (see the installation page)", dir.display()),
        );
    };
    if std::fs::canonicalize(&found).is_ok_and(|real| real == exe) {
        return Finding::ok(format!("torii on PATH is {} ({this})", found.display()));
    }
    let theirs = match runnable(&found) {
        Ok(()) => version_of(&found).unwrap_or_else(|| "version unknown".to_string()),
        Err(why) => format!("not run: {why}"),
    };
    Finding::warning(
        format!(
            "the torii on PATH is {} ({theirs}), not this one ({}, {this})",
            found.display(),
            exe.display()
        ),
        "remove the other copy, or put the directory you install into first on PATH",
    )
}

/// Whether the doctor may run that other `torii` to ask its version. A file an agent could
/// have put there (under the current directory, or writable by others) is named, not run.
fn runnable(program: &Path) -> Result<(), &'static str> {
    let real = std::fs::canonicalize(program).map_err(|_| "it cannot be resolved")?;
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .map_err(|_| "the current directory is unknown")?;
    // `/` and the home directory hold every installed program; any other working directory
    // is a project an agent may write to.
    let home = std::env::var_os("HOME").and_then(|home| std::fs::canonicalize(home).ok());
    let holds_installs = cwd.parent().is_none() || home.is_some_and(|home| home.starts_with(&cwd));
    if !holds_installs && real.starts_with(&cwd) {
        return Err("it is under the current directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        for path in std::iter::once(real.as_path()).chain(real.parent()) {
            let metadata = std::fs::metadata(path).map_err(|_| "it cannot be read")?;
            if metadata.mode() & 0o022 != 0 {
                return Err("it or its directory is writable by other users");
            }
        }
    }
    Ok(())
}

/// The version another `torii` reports, asked with `--version` and bounded in time and size:
/// the file may be anything that happens to be called `torii`.
fn version_of(program: &Path) -> Option<String> {
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + Duration::from_secs(5);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => break None,
        }
    };
    if !status.is_some_and(|status| status.success()) {
        let _ = child.kill();
        let _ = child.wait();
        return None;
    }
    let mut text = String::new();
    child
        .stdout
        .take()?
        .take(256)
        .read_to_string(&mut text)
        .ok()?;
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["torii", version] => Version::parse(version).map(|version| version.to_string()),
        _ => None,
    }
}

/// Whether provider children can be kept out of the config root on this kernel.
pub fn confinement(root: &Path, mode: Mode) -> Finding {
    match Confinement::new(root, mode, &[]).support() {
        Support::Enforced { mechanism } => {
            Finding::ok(format!("provider children are confined ({mechanism})"))
        }
        Support::Unavailable { reason } => match mode {
            Mode::BestEffort => Finding::warning(
                format!(
                    "provider children cannot be confined here ({reason}): they could read \
                     and write the config root"
                ),
                "use a kernel with Landlock (Linux 5.13 or later, enabled in the LSM list)",
            ),
            Mode::Required => Finding::problem(
                format!(
                    "`child_confinement: required` cannot be enforced here ({reason}): no \
                     provider command will start"
                ),
                "use a kernel with Landlock, or set `child_confinement: best-effort` in \
                 settings.yaml",
            ),
        },
    }
}

/// Whether an approval window can open for calls no rule decides. This reads the doctor's own
/// environment; an MCP client may start the server with another one.
pub fn display() -> Finding {
    match availability() {
        Availability::Headless => Finding::ok(format!(
            "{NO_GUI_ENV} is set: no window opens, and calls no rule decides are denied"
        )),
        Availability::NoGuiBuild => Finding::warning(
            "this build has no approval windows: calls no rule decides are denied",
            "install a release build (built with the `gui` feature)",
        ),
        Availability::Window => match display_name() {
            Some(display) => Finding::ok(format!("approval windows can open ({display})")),
            None => Finding::warning(
                "no display (neither DISPLAY nor WAYLAND_DISPLAY is set here): approval \
                 windows cannot open, and calls no rule decides will be refused",
                format!(
                    "run the MCP client in a desktop session, or set {NO_GUI_ENV}=1 in its \
                     server entry to decide by rules alone"
                ),
            ),
        },
    }
}

/// The display a window would use, where one is needed at all.
fn display_name() -> Option<String> {
    if cfg!(any(windows, target_os = "macos")) {
        return Some("the desktop session".to_string());
    }
    ["WAYLAND_DISPLAY", "DISPLAY"].into_iter().find_map(|name| {
        let value = std::env::var_os(name).filter(|value| !value.is_empty())?;
        Some(format!("{name}={}", value.to_string_lossy()))
    })
}

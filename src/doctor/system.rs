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

/// Where this executable comes from, and whether it can upgrade itself to a signed release.
pub fn provenance() -> Vec<Finding> {
    let built = match crate::release::release_tag() {
        Some(tag) => Finding::ok(crate::tr!("doctor-release-build", tag = tag)),
        None => Finding::ok(crate::tr!("doctor-local-build")),
    };
    let mut findings = vec![built];
    if !crate::release::trusts_a_release_key() {
        findings.push(Finding::warning(
            crate::tr!("doctor-no-release-key"),
            crate::tr!("doctor-no-release-key-fix"),
        ));
    }
    findings
}

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
            crate::tr!(
                "doctor-no-torii-on-path",
                exe = exe.display().to_string(),
                version = this.to_string()
            ),
            crate::tr!(
                "doctor-no-torii-on-path-fix",
                dir = dir.display().to_string()
            ),
        );
    };
    if std::fs::canonicalize(&found).is_ok_and(|real| real == exe) {
        return Finding::ok(crate::tr!(
            "doctor-torii-on-path",
            path = found.display().to_string(),
            version = this.to_string()
        ));
    }
    let theirs = match runnable(&found) {
        Ok(()) => version_of(&found).unwrap_or_else(|| crate::tr!("doctor-version-unknown")),
        Err(why) => crate::tr!("doctor-not-run", why = why),
    };
    Finding::warning(
        crate::tr!(
            "doctor-other-torii",
            path = found.display().to_string(),
            theirs = theirs,
            exe = exe.display().to_string(),
            version = this.to_string()
        ),
        crate::tr!("doctor-other-torii-fix"),
    )
}

/// Whether the doctor may run that other `torii` to ask its version. A file an agent could
/// have put there (under the current directory, or writable by others) is named, not run.
fn runnable(program: &Path) -> Result<(), String> {
    let real = std::fs::canonicalize(program).map_err(|_| crate::tr!("doctor-why-unresolved"))?;
    let cwd = std::env::current_dir()
        .and_then(std::fs::canonicalize)
        .map_err(|_| crate::tr!("doctor-why-no-cwd"))?;
    // `/` and the home directory hold every installed program; any other working directory
    // is a project an agent may write to.
    let home = std::env::var_os("HOME").and_then(|home| std::fs::canonicalize(home).ok());
    let holds_installs = cwd.parent().is_none() || home.is_some_and(|home| home.starts_with(&cwd));
    if !holds_installs && real.starts_with(&cwd) {
        return Err(crate::tr!("doctor-why-under-cwd"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        for path in std::iter::once(real.as_path()).chain(real.parent()) {
            let metadata =
                std::fs::metadata(path).map_err(|_| crate::tr!("doctor-why-unreadable"))?;
            if metadata.mode() & 0o022 != 0 {
                return Err(crate::tr!("doctor-why-writable"));
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

/// Whether provider children can be kept out of the config root on this kernel, and where
/// a confined child (running `programs`) cannot create entries.
pub fn confinement(root: &Path, mode: Mode, programs: &[std::path::PathBuf]) -> Vec<Finding> {
    let confinement = Confinement::new(root, mode, programs);
    let support = match confinement.support() {
        Support::Enforced { mechanism } => Finding::ok(crate::tr!(
            "doctor-confined",
            mechanism = mechanism.to_string()
        )),
        Support::Unavailable { reason } => match mode {
            Mode::BestEffort => Finding::warning(
                crate::tr!("doctor-unconfined", reason = reason.as_str()),
                crate::tr!("doctor-unconfined-fix"),
            ),
            Mode::Required => Finding::problem(
                crate::tr!("doctor-required-unenforced", reason = reason.as_str()),
                crate::tr!("doctor-required-unenforced-fix"),
            ),
        },
    };
    let mut findings = vec![support];
    if confinement.namespaces() {
        findings.push(Finding::ok(crate::tr!("doctor-confined-namespace")));
    }
    let closed = confinement.closed_dirs();
    if !closed.is_empty() {
        let dirs: Vec<String> = closed.iter().map(|dir| dir.display().to_string()).collect();
        findings.push(Finding::ok(crate::tr!(
            "doctor-confined-cannot-create",
            dirs = dirs.join(", ")
        )));
    }
    findings
}

/// Whether a `torii console` is attached to `root`, when one is: questions go there while no
/// window can open.
pub fn console(root: &Path) -> Option<Finding> {
    crate::prompt::console::ConsoleAddress::of_root(root)
        .attached()
        .then(|| Finding::ok(crate::tr!("doctor-console-attached")))
}

/// Whether an approval window can open for calls no rule decides. This reads the doctor's own
/// environment; an MCP client may start the server with another one.
pub fn display() -> Finding {
    match availability() {
        Availability::Headless => Finding::ok(crate::tr!("doctor-headless", variable = NO_GUI_ENV)),
        Availability::NoGuiBuild => Finding::warning(
            crate::tr!("doctor-no-gui-build"),
            crate::tr!("doctor-no-gui-build-fix"),
        ),
        Availability::Window => match display_name() {
            Some(display) => Finding::ok(crate::tr!("doctor-windows-can-open", display = display)),
            None => Finding::warning(
                crate::tr!("doctor-no-display"),
                crate::tr!("doctor-no-display-fix", variable = NO_GUI_ENV),
            ),
        },
    }
}

/// The display a window would use, where one is needed at all.
fn display_name() -> Option<String> {
    if cfg!(any(windows, target_os = "macos")) {
        return Some(crate::tr!("doctor-desktop-session"));
    }
    ["WAYLAND_DISPLAY", "DISPLAY"].into_iter().find_map(|name| {
        let value = std::env::var_os(name).filter(|value| !value.is_empty())?;
        Some(format!("{name}={}", value.to_string_lossy()))
    })
}

//! `torii doctor`: what a new user gets wrong after installing, found without changing anything.
//!
//! Every check only reads: the PATH, the config root and its permissions, the providers and
//! their policies, the agent integrations this root recorded, the kernel's confinement and the
//! display. Each finding is ok, a warning or a problem, and says what to run to fix it. The
//! command fails only on a problem: something that stops Torii from working or weakens what it
//! promises; a warning is worth a look but may be what the human wants.

mod admin;
mod agents;
mod audit;
mod permissions;
mod providers;
mod system;

use std::path::Path;
#[cfg(unix)]
use std::path::PathBuf;

use crate::paths::ConfigRoot;

/// How a finding stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Ok,
    Warning,
    Problem,
}

impl Level {
    pub fn word(self) -> String {
        match self {
            Level::Ok => crate::tr!("doctor-ok"),
            Level::Warning => crate::tr!("doctor-warning"),
            Level::Problem => crate::tr!("doctor-problem"),
        }
    }
}

/// One line of the report, with the command or step that fixes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub level: Level,
    pub text: String,
    pub fix: Option<String>,
}

impl Finding {
    pub fn ok(text: impl Into<String>) -> Self {
        Self {
            level: Level::Ok,
            text: text.into(),
            fix: None,
        }
    }

    pub fn warning(text: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            level: Level::Warning,
            text: text.into(),
            fix: Some(fix.into()),
        }
    }

    pub fn problem(text: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            level: Level::Problem,
            text: text.into(),
            fix: Some(fix.into()),
        }
    }
}

/// What the checks look at: this executable and the config root.
pub struct Subject<'a> {
    /// The running executable, canonical.
    pub exe: &'a Path,
    pub root: &'a ConfigRoot,
}

/// Runs every check, in the order a human would fix things.
pub fn examine(subject: &Subject<'_>) -> Vec<Finding> {
    let mut findings = vec![system::torii_on_path(subject.exe)];
    findings.extend(system::provenance());
    let root = subject.root.dir();
    if !root.is_dir() {
        findings.push(Finding::problem(
            crate::tr!("doctor-no-root", path = root.display().to_string()),
            crate::tr!("doctor-no-root-fix"),
        ));
        findings.extend(system::confinement(
            root,
            crate::confine::Mode::default(),
            &[],
        ));
        findings.push(system::display());
        return findings;
    }
    findings.push(Finding::ok(crate::tr!(
        "doctor-root",
        path = root.display().to_string()
    )));
    findings.extend(permissions::check(root));
    // The user's file alone first, so that its own errors are named; the administrator's
    // layer is examined on its own below.
    let settings = match crate::settings::Settings::load_user(&subject.root.settings_file()) {
        Ok(settings) => settings,
        Err(error) => {
            findings.push(Finding::problem(
                crate::errors::chain(&error),
                crate::tr!(
                    "doctor-fix-file",
                    path = subject.root.settings_file().display().to_string()
                ),
            ));
            crate::settings::Settings::default()
        }
    };
    // What the servers use: the administrator's layer locks what it sets.
    let settings = match crate::admin::AdminLayer::of_system() {
        Ok(Some(admin)) => admin.lock(settings),
        _ => settings,
    };
    let trust = crate::packages::Trust::new(&settings, subject.root.settings_file()).ok();
    findings.extend(providers::check(root, trust.as_ref()));
    findings.extend(agents::check(subject));
    let programs = crate::registry::Registry::load(root)
        .map(|registry| crate::dispatch::programs(&registry))
        .unwrap_or_default();
    findings.extend(system::confinement(
        root,
        settings.child_confinement,
        &programs,
    ));
    findings.push(system::display());
    findings.extend(system::console(root));
    findings.extend(admin::check());
    findings.extend(audit::check(subject.root, &settings));
    findings
}

/// The report as lines: the level, the text, and the fix indented under it.
pub fn render(findings: &[Finding]) -> Vec<String> {
    let mut lines = Vec::new();
    for finding in findings {
        lines.push(format!("{:<8} {}", finding.level.word(), finding.text));
        if let Some(fix) = &finding.fix {
            lines.push(format!(
                "{:<8} {}",
                "",
                crate::tr!("doctor-fix", fix = fix.as_str())
            ));
        }
    }
    lines
}

/// `path` for a message, and a short list of several.
#[cfg(unix)]
fn listed(paths: &[PathBuf]) -> String {
    const SHOWN: usize = 3;
    let mut text: Vec<String> = paths
        .iter()
        .take(SHOWN)
        .map(|path| path.display().to_string())
        .collect();
    if paths.len() > SHOWN {
        text.push(crate::tr!("doctor-and-more", count = paths.len() - SHOWN));
    }
    text.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fix_is_indented_under_its_finding() {
        let lines = render(&[
            Finding::ok("fine"),
            Finding::problem("broken", "torii init"),
        ]);
        assert_eq!(
            lines,
            vec![
                "ok       fine",
                "problem  broken",
                "         fix: torii init"
            ]
        );
    }

    #[test]
    #[cfg(unix)]
    fn long_lists_are_shortened() {
        let paths: Vec<PathBuf> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(listed(&paths[..2]), "a, b");
        assert_eq!(listed(&paths), "a, b, c, and 2 more");
    }
}

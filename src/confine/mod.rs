//! Child confinement: no provider child (the command, a validator, an identity probe, a
//! preflight) can read or write anything under the config root, where Torii keeps the policy,
//! grants, leases and collected credentials, nor change the directories programs are run from
//! (`PATH`, Torii's own) or the agents' configuration files Torii manages (which name the
//! executable and root each client starts). The rest of the file system stays as the user has
//! it.
//!
//! On Linux every provider child is started by [`Confinement::start`], through a launcher
//! process (see `launcher.rs`): the child restricts itself just before it runs the program, so
//! the restriction holds for its whole life and its own children's, every child has a domain of
//! its own, and no thread of Torii is ever restricted. The restriction is Landlock (see
//! `linux.rs`). Where the kernel cannot enforce it (or on another system), `settings.yaml`
//! decides: `child_confinement: best-effort` (default) starts children unconfined and says so
//! once; `required` refuses to start them.

#[cfg(target_os = "linux")]
pub mod launcher;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
mod programs;
#[cfg(target_os = "linux")]
mod sys;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// `settings.yaml` `child_confinement`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Confine when the kernel can; otherwise start children unconfined and say so once.
    #[default]
    BestEffort,
    /// Never start a child that the kernel cannot confine.
    Required,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::BestEffort => "best-effort",
            Mode::Required => "required",
        }
    }
}

/// Whether this system can confine children, found once when a [`Confinement`] is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Support {
    /// Children are confined; `mechanism` names it, e.g. `Landlock ABI 7`.
    Enforced { mechanism: String },
    /// Children cannot be confined here, and why.
    Unavailable { reason: String },
}

/// A child was not started.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    #[error(
        "child confinement is required (settings.yaml `child_confinement: required`) but \
         cannot be enforced here: {reason}"
    )]
    Required { reason: String },
    #[error("cannot confine the child process")]
    Restrict {
        #[source]
        source: io::Error,
    },
}

/// How provider children are confined for one config root. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Confinement {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    root: PathBuf,
    programs: Vec<PathBuf>,
    mode: Mode,
    support: Support,
    /// The rules, worked out at the first child's start: finding the links under the root
    /// walks the whole root, work that start-up and a server that never starts a child should
    /// not pay, and the walk is then as recent as it can be.
    /// The executable that runs the launchers.
    #[cfg(target_os = "linux")]
    launcher: PathBuf,
    #[cfg(target_os = "linux")]
    rules: std::sync::OnceLock<linux::Rules>,
    /// The launcher of unconfined children, where the kernel cannot confine them.
    #[cfg(target_os = "linux")]
    unconfined: std::sync::Mutex<Option<Arc<launcher::Launcher>>>,
}

impl Confinement {
    /// Confinement of `root` (the config root), probing once what this system supports.
    /// `programs` are the resolved commands children will run (providers and validators): with
    /// the directories of `PATH` and of the Torii executable, their install trees, as they are
    /// now, become read-only for children (see `programs.rs`).
    pub fn new(root: &Path, mode: Mode, programs: &[PathBuf]) -> Self {
        #[cfg(target_os = "linux")]
        return Self::with_launcher(root, mode, programs, &launcher::default_program());
        #[cfg(not(target_os = "linux"))]
        return Self::build(root, mode, programs);
    }

    /// Confinement whose children are started by `launcher` running as `torii __launcher`
    /// (on Linux; elsewhere there is no launcher): for a program other than Torii that starts
    /// children through this library (a test).
    pub fn with_launcher(root: &Path, mode: Mode, programs: &[PathBuf], launcher: &Path) -> Self {
        #[cfg(target_os = "linux")]
        return Self::build(root, mode, programs, launcher.to_path_buf());
        #[cfg(not(target_os = "linux"))]
        {
            let _ = launcher;
            Self::build(root, mode, programs)
        }
    }

    fn build(
        root: &Path,
        mode: Mode,
        programs: &[PathBuf],
        #[cfg(target_os = "linux")] launcher: PathBuf,
    ) -> Self {
        #[cfg(target_os = "linux")]
        let support = linux::probe();
        #[cfg(not(target_os = "linux"))]
        let support = Support::Unavailable {
            reason: "child confinement is implemented with Linux Landlock only".into(),
        };
        Self {
            inner: Arc::new(Inner {
                root: root.to_path_buf(),
                programs: programs.to_vec(),
                mode,
                support,
                #[cfg(target_os = "linux")]
                launcher,
                #[cfg(target_os = "linux")]
                rules: std::sync::OnceLock::new(),
                #[cfg(target_os = "linux")]
                unconfined: std::sync::Mutex::default(),
            }),
        }
    }

    /// The config root children are kept out of, as given.
    pub fn root(&self) -> &Path {
        &self.inner.root
    }

    /// The programs whose install trees children cannot change, as given.
    pub fn programs(&self) -> &[PathBuf] {
        &self.inner.programs
    }

    pub fn mode(&self) -> Mode {
        self.inner.mode
    }

    pub fn support(&self) -> &Support {
        &self.inner.support
    }

    /// What to tell the human once (stderr, audit) when children will not be confined.
    pub fn warning(&self) -> Option<String> {
        let Support::Unavailable { reason } = &self.inner.support else {
            return None;
        };
        Some(match self.inner.mode {
            Mode::BestEffort => format!(
                "provider children are not confined ({reason}): they can read and write the \
                 config root. Set `child_confinement: required` in settings.yaml to refuse them."
            ),
            Mode::Required => format!(
                "provider children will not be started: `child_confinement: required` cannot be \
                 enforced ({reason})"
            ),
        })
    }

    /// Whether confined children run in a mount namespace here (where the root is hidden and
    /// the directories above it take new entries). Starts the launcher if none runs yet.
    pub fn namespaces(&self) -> bool {
        #[cfg(target_os = "linux")]
        if matches!(self.inner.support, Support::Enforced { .. }) {
            return self
                .rules()
                .launcher()
                .is_ok_and(|launcher| launcher.restriction() == launcher::Restriction::Namespace);
        }
        false
    }

    /// The directories this user can create entries in but a confined child cannot: those
    /// above the root and the read-only paths where the child cannot have a mount namespace
    /// (Landlock alone cannot leave one name of a directory out and open the rest to new
    /// entries: see `linux.rs`), else only those that must stay closed anyway. Empty where
    /// children are not confined.
    pub fn closed_dirs(&self) -> Vec<PathBuf> {
        #[cfg(target_os = "linux")]
        if matches!(self.inner.support, Support::Enforced { .. }) {
            return self
                .rules()
                .closed_dirs(self.namespaces())
                .into_iter()
                .filter(|dir| {
                    rustix::fs::access(
                        dir,
                        rustix::fs::Access::WRITE_OK | rustix::fs::Access::EXEC_OK,
                    )
                    .is_ok()
                })
                .collect();
        }
        Vec::new()
    }

    /// Works the rules out, the first time, on a blocking thread: the walk of the root must not
    /// hold a thread that serves MCP (reading stdin, cancelling, other calls' time limits).
    /// Afterwards, and where children are not confined, it returns at once. [`start`] works
    /// them out itself if this was not awaited.
    ///
    /// [`start`]: Confinement::start
    pub async fn ready(&self) {
        #[cfg(target_os = "linux")]
        if matches!(self.inner.support, Support::Enforced { .. })
            && self.inner.rules.get().is_none()
        {
            let this = self.clone();
            // A failed or cancelled task only means `prepare` does the work itself.
            let _ = tokio::task::spawn_blocking(move || {
                this.rules();
            })
            .await;
        }
    }

    /// Refuses to go on when children cannot be confined and the settings require it; where
    /// this system cannot confine them, that is the whole of confinement.
    pub fn check_unconfined(&self) -> Result<(), ConfineError> {
        match (&self.inner.support, self.inner.mode) {
            (Support::Unavailable { reason }, Mode::Required) => Err(ConfineError::Required {
                reason: reason.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// Starts one child that can neither read nor write the config root (nor change the
    /// program directories), through the launcher of the current rules.
    #[cfg(target_os = "linux")]
    pub fn start(
        &self,
        start: &launcher::Start<'_>,
    ) -> Result<launcher::Started, launcher::StartError> {
        self.check_unconfined()?;
        let launcher = match self.inner.support {
            Support::Enforced { .. } => self.rules().launcher(),
            Support::Unavailable { .. } => self.unconfined_launcher(),
        }
        .map_err(|source| ConfineError::Restrict { source })?;
        launcher.start(start)
    }

    /// The launcher of unconfined children (a new one if the last one broke).
    #[cfg(target_os = "linux")]
    fn unconfined_launcher(&self) -> io::Result<Arc<launcher::Launcher>> {
        let mut slot = self
            .inner
            .unconfined
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match slot.as_ref().filter(|launcher| !launcher.is_broken()) {
            Some(launcher) => Ok(Arc::clone(launcher)),
            None => {
                let launcher = Arc::new(launcher::Launcher::new(
                    &self.inner.launcher,
                    launcher::Setup::Unconfined,
                )?);
                *slot = Some(Arc::clone(&launcher));
                Ok(launcher)
            }
        }
    }

    /// The rules for this root, worked out once; when the search for links stopped at its
    /// bounds, the human is told so once (stderr).
    #[cfg(target_os = "linux")]
    fn rules(&self) -> &linux::Rules {
        self.inner.rules.get_or_init(|| {
            let root = &self.inner.root;
            let absolute = std::path::absolute(root).unwrap_or_else(|_| root.clone());
            let read_only = programs::read_only_dirs(&self.inner.programs);
            let agent_files = crate::agents::managed_files(&absolute);
            let rules = linux::Rules::new(
                linux::Boundary::new(&absolute, &read_only, &agent_files),
                self.inner.launcher.clone(),
            );
            if rules.incomplete() {
                crate::console::progress(&format!(
                    "torii: the search for symbolic links under {} stopped at its limits \
                     (depth, entries or linked directories): a location linked from past them \
                     is not kept from provider children. Keep links in the config root few and \
                     shallow.",
                    root.display()
                ));
            }
            rules
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unavailable(mode: Mode) -> Confinement {
        Confinement {
            inner: Arc::new(Inner {
                root: PathBuf::from("/r"),
                programs: Vec::new(),
                mode,
                support: Support::Unavailable {
                    reason: "no Landlock here".into(),
                },
                #[cfg(target_os = "linux")]
                launcher: launcher::default_program(),
                #[cfg(target_os = "linux")]
                rules: std::sync::OnceLock::new(),
                #[cfg(target_os = "linux")]
                unconfined: std::sync::Mutex::default(),
            }),
        }
    }

    /// Runs `sh -c script` as the runner would, to its end.
    #[cfg(target_os = "linux")]
    fn run(
        confinement: &Confinement,
        script: &str,
    ) -> Result<std::process::Output, launcher::StartError> {
        launcher::testing::spawn(|start| confinement.start(start), script)
            .map(launcher::testing::TestChild::wait_with_output)
    }

    /// Start-up does not walk the config root: the search for its links waits for the first
    /// child, which still gets the rules.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_root_is_searched_for_links_at_the_first_child_not_before() {
        let root = tempfile::tempdir().unwrap();
        let enforced =
            |confinement: &Confinement| matches!(confinement.support(), Support::Enforced { .. });
        let confinement = Confinement::new(root.path(), Mode::BestEffort, &[]);
        assert!(confinement.inner.rules.get().is_none());
        run(&confinement, "true").unwrap();
        assert_eq!(
            confinement.inner.rules.get().is_some(),
            enforced(&confinement)
        );

        // What the runner awaits first: the walk on a blocking thread, not the caller's.
        let warmed = Confinement::new(root.path(), Mode::BestEffort, &[]);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(warmed.ready());
        assert_eq!(warmed.inner.rules.get().is_some(), enforced(&warmed));
    }

    #[test]
    fn best_effort_starts_unconfined_children_and_says_so() {
        let confinement = unavailable(Mode::BestEffort);
        let warning = confinement.warning().unwrap();
        assert!(
            warning.contains("not confined (no Landlock here)"),
            "{warning}"
        );
        assert!(warning.contains("child_confinement: required"), "{warning}");
        assert_eq!(confinement.check_unconfined().ok(), Some(()));
        #[cfg(target_os = "linux")]
        {
            let output = run(&confinement, "cat /proc/self/status").unwrap();
            assert!(output.status.success());
            let status = String::from_utf8_lossy(&output.stdout);
            // Not even `no_new_privs`: nothing of confinement was applied.
            assert!(status.contains("NoNewPrivs:\t0"), "{status}");
        }
    }

    #[test]
    fn required_refuses_to_start_a_child_it_cannot_confine() {
        let confinement = unavailable(Mode::Required);
        assert!(
            confinement
                .warning()
                .unwrap()
                .contains("will not be started")
        );
        let error = confinement.check_unconfined().unwrap_err();
        assert!(
            error.to_string().contains("child_confinement: required"),
            "{error}"
        );
        #[cfg(target_os = "linux")]
        {
            let dir = tempfile::tempdir().unwrap();
            let ran = dir.path().join("ran");
            let refused = run(&confinement, &format!("touch {}", ran.display()));
            assert!(matches!(
                refused,
                Err(launcher::StartError::Confine(ConfineError::Required { .. }))
            ));
            assert!(!ran.exists());
        }
    }

    #[test]
    fn modes_are_spelled_as_in_settings() {
        for mode in [Mode::BestEffort, Mode::Required] {
            let yaml = format!("mode: {}\n", mode.as_str());
            #[derive(serde::Deserialize)]
            struct Wrapper {
                mode: Mode,
            }
            let decoded: Wrapper = strict_yaml::from_str(&yaml).unwrap();
            assert_eq!(decoded.mode, mode);
        }
    }
}

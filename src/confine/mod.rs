//! Child confinement: no provider child (the command, a validator, an identity probe, a
//! preflight) can read or write anything under the config root, where Torii keeps the policy,
//! grants, leases and collected credentials, nor change the directories programs are run from
//! (`PATH`, Torii's own) or the agents' configuration files Torii manages (which name the
//! executable and root each client starts). The rest of the file system stays as the user has
//! it.
//!
//! Every provider command is prepared by [`Confinement::prepare`] before it is spawned: its
//! child restricts itself just before it runs the program, so the restriction holds for its
//! whole life and its own children's, every child has a domain of its own, and no thread of
//! Torii is ever restricted.
//!
//! On Linux the restriction is Landlock (see `linux.rs`). Where the kernel cannot enforce it
//! (or on another system), `settings.yaml` decides: `child_confinement: best-effort` (default)
//! starts children unconfined and says so once; `required` refuses to start them.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
mod programs;
#[cfg(target_os = "linux")]
mod sys;

/// Keeps what the child of `command` leaves running inside its own process tree (Linux; a
/// no-op elsewhere): see `sys.rs`.
pub fn keep_orphans_in_tree(command: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    sys::reap_orphans_before_exec(command);
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

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
    #[cfg(target_os = "linux")]
    rules: std::sync::OnceLock<linux::Rules>,
}

impl Confinement {
    /// Confinement of `root` (the config root), probing once what this system supports.
    /// `programs` are the resolved commands children will run (providers and validators): with
    /// the directories of `PATH` and of the Torii executable, their install trees, as they are
    /// now, become read-only for children (see `programs.rs`).
    pub fn new(root: &Path, mode: Mode, programs: &[PathBuf]) -> Self {
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
                rules: std::sync::OnceLock::new(),
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

    /// Whether confined children get a mount namespace of their own here (where the root is
    /// hidden and the directories above it take new entries). Starts a throwaway child.
    pub fn namespaces(&self) -> bool {
        #[cfg(target_os = "linux")]
        if matches!(self.inner.support, Support::Enforced { .. }) {
            return linux::namespaces_work();
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
    /// Afterwards, and where children are not confined, it returns at once. [`prepare`]
    /// works them out itself if this was not awaited.
    ///
    /// [`prepare`]: Confinement::prepare
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

    /// Prepares `command` so that its child can neither read nor write the config root (nor
    /// change the program directories). Keep the returned value until the spawn returned.
    pub fn prepare(&self, command: &mut std::process::Command) -> Result<Prepared, ConfineError> {
        if let Support::Unavailable { reason } = &self.inner.support {
            return match self.inner.mode {
                Mode::BestEffort => Ok(Prepared::default()),
                Mode::Required => Err(ConfineError::Required {
                    reason: reason.clone(),
                }),
            };
        }
        #[cfg(target_os = "linux")]
        if matches!(self.inner.support, Support::Enforced { .. }) {
            return Ok(Prepared {
                _held: Some(self.rules().prepare(command)?),
            });
        }
        let _ = command;
        Ok(Prepared::default())
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
            let rules =
                linux::Rules::new(linux::Boundary::new(&absolute, &read_only, &agent_files));
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

/// What a prepared command's child needs until the spawn returned.
#[derive(Debug, Default)]
pub struct Prepared {
    #[cfg(target_os = "linux")]
    _held: Option<linux::Held>,
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
                rules: std::sync::OnceLock::new(),
            }),
        }
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
        let mut command = std::process::Command::new("true");
        let _prepared = confinement.prepare(&mut command).unwrap();
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
        let mut command = std::process::Command::new("true");
        let _prepared = confinement.prepare(&mut command).unwrap();
        assert!(command.status().unwrap().success());
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
        let mut command = std::process::Command::new("true");
        let error = confinement.prepare(&mut command).unwrap_err();
        assert!(
            error.to_string().contains("child_confinement: required"),
            "{error}"
        );
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

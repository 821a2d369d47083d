//! Install, uninstall and status of one agent integration.
//!
//! Every check happens before the first write: a conflict, a changed entry or an unreadable
//! file stops the command with the client's files untouched. The state file is written before
//! the client files, so an interrupted install still knows what it may have placed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::client_file::{ClientFile, ClientFileError};
use super::clients::{self, Agent, EntryOptions, Locations, Pinned, Place, Placement};
use super::document::DocumentError;
use super::state::{self, AgentState, Managed, StateError};

#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("{}", crate::tr!("agent-hook-unsupported", client = .0.client(), name = .0.name()))]
    HookNotSupported(Agent),
    #[error("{}", crate::tr!("agent-trust-unsupported", client = .0.client()))]
    TrustNotSupported(Agent),
    /// The file holds the entry another config root installed: moving it needs the human's yes.
    #[error("{}", crate::tr!("agent-other-root", file = .file.display().to_string(), other = .other.display().to_string(), agent = .agent.name()))]
    OtherRoot {
        file: PathBuf,
        other: PathBuf,
        agent: Agent,
    },
    #[error("{}", crate::tr!("agent-opencode-jsonc", path = .0.display().to_string()))]
    OpencodeJsonc(PathBuf),
    #[error("{}", crate::tr!("agent-conflict", file = .file.display().to_string(), place = .place.as_str()))]
    Conflict { file: PathBuf, place: String },
    #[error("{}", crate::tr!("agent-setting", file = .file.display().to_string(), place = .place.as_str(), found = .found.as_str(), needed = .needed.as_str()))]
    Setting {
        file: PathBuf,
        place: String,
        found: String,
        needed: String,
    },
    #[error("{}", crate::tr!("agent-changed-since", file = .file.display().to_string(), place = .place.as_str()))]
    ChangedSince { file: PathBuf, place: String },
    #[error("{}", crate::tr!("agent-foreign-record", state = .state.display().to_string(), place = .place.as_str(), file = .file.display().to_string(), client = *.client))]
    ForeignRecord {
        state: PathBuf,
        file: PathBuf,
        place: String,
        client: &'static str,
    },
    #[error(transparent)]
    Location(#[from] clients::LocationError),
    #[error(transparent)]
    File(#[from] ClientFileError),
    #[error(transparent)]
    State(#[from] StateError),
}

/// The client files touched by one command, each read once.
struct Files {
    files: BTreeMap<PathBuf, ClientFile>,
}

impl Files {
    fn new() -> Self {
        Self {
            files: BTreeMap::new(),
        }
    }

    fn get(&mut self, file: &Path) -> Result<&mut ClientFile, AgentError> {
        use std::collections::btree_map::Entry;
        match self.files.entry(file.to_path_buf()) {
            Entry::Occupied(loaded) => Ok(loaded.into_mut()),
            Entry::Vacant(slot) => Ok(slot.insert(ClientFile::load(file, syntax_of(file))?)),
        }
    }

    /// Writes every changed file; `created` names files Torii created and may delete when empty.
    fn save(&self, removable: &[PathBuf]) -> Result<(), AgentError> {
        for (path, file) in &self.files {
            if file.changed() || (removable.contains(path) && file.document.is_blank()) {
                file.save(removable.contains(path))?;
            }
        }
        Ok(())
    }
}

fn syntax_of(file: &Path) -> super::document::Syntax {
    match file.extension().and_then(|ext| ext.to_str()) {
        Some("toml") => super::document::Syntax::Toml,
        _ => super::document::Syntax::Json,
    }
}

/// What is at a managed place now (for an element, the whole array).
fn current(file: &ClientFile, place: &Place) -> Result<Option<Value>, DocumentError> {
    file.document.get(place.path())
}

fn contains(array: &Option<Value>, value: &Value) -> bool {
    matches!(array, Some(Value::Array(items)) if items.contains(value))
}

/// An element that runs this agent's Torii hook but is not the one Torii wrote.
fn edited_hook(array: &Option<Value>, agent: Agent) -> bool {
    let marker = format!("__hook {}", agent.name());
    matches!(array, Some(Value::Array(items))
        if items.iter().any(|item| item.to_string().contains(&marker)))
}

/// One line per action, for the human.
pub type Report = Vec<String>;

pub struct Install<'a> {
    pub agent: Agent,
    pub hook: bool,
    /// Added to the server entry; those an installed entry already has are kept.
    pub options: EntryOptions,
    /// The human confirmed moving Torii's entry from another config root to this one.
    pub switch_root: bool,
    pub root: &'a Path,
    pub at: &'a Locations,
    pub pinned: &'a Pinned,
}

impl Install<'_> {
    pub fn run(&self) -> Result<Report, AgentError> {
        let agent = self.agent;
        let hook_placements = clients::hook_placements(agent, self.at, self.pinned)?;
        if self.hook && hook_placements.is_none() {
            return Err(AgentError::HookNotSupported(agent));
        }
        if self.options.trust && agent.facts().trust_member.is_none() {
            return Err(AgentError::TrustNotSupported(agent));
        }
        let mut previous = state::load(self.root, agent)?.unwrap_or_default();
        let mut files = Files::new();
        let moved_from = if previous.mcp.is_empty() {
            self.owned_by_another_root(&mut files)?
        } else {
            None
        };
        if let Some((other, state)) = &moved_from {
            for managed in state.mcp.iter().chain(&state.hook) {
                check_record(agent, other, self.at, managed)?;
            }
            if !self.switch_root {
                return Err(AgentError::OtherRoot {
                    file: state
                        .mcp
                        .first()
                        .map(|r| r.file.clone())
                        .unwrap_or_default(),
                    other: other.clone(),
                    agent,
                });
            }
            // Its records come along, so the entry and the hook are updated as Torii's own.
            previous = state.clone();
        }
        // A hook that pinned the other root is moved with the entry.
        let hook = self.hook || (moved_from.is_some() && !previous.hook.is_empty());
        let mcp = self.server_placement(&mut files, &previous)?;
        if agent == Agent::Opencode {
            let jsonc = clients::opencode_dir(self.at)?.join("opencode.jsonc");
            if std::fs::symlink_metadata(&jsonc).is_ok() {
                return Err(AgentError::OpencodeJsonc(jsonc));
            }
        }
        let mut report = Report::new();

        let mcp_records = self.place(&mut files, &[mcp], &previous.mcp, &mut report, true)?;
        let hook_records = match hook_placements.filter(|_| hook) {
            Some(placements) => {
                let mut records =
                    self.place(&mut files, &placements, &previous.hook, &mut report, false)?;
                if agent == Agent::Codex {
                    records.extend(self.trust_codex_hook(
                        &mut files,
                        &placements,
                        &previous.hook,
                        &mut report,
                    )?);
                }
                records
            }
            None => previous.hook.clone(),
        };
        let next = AgentState {
            agent: agent.name().to_string(),
            mcp: mcp_records,
            hook: hook_records,
        };
        if next == previous {
            files.save(&[])?;
            return Ok(report);
        }
        let own_before = state::load(self.root, agent)?.unwrap_or_default();
        state::store(self.root, agent, &next)?;
        if let Err(error) = files.save(&[]) {
            // The state says what the files hold: put back what it said before.
            state::store(self.root, agent, &own_before)?;
            return Err(error);
        }
        if let Some((other, _)) = moved_from {
            // The other root manages nothing of this client any more.
            state::store(&other, agent, &AgentState::default())?;
            report.push(crate::tr!(
                "agent-switched-root",
                other = other.display().to_string()
            ));
        }
        Ok(report)
    }

    /// The other config root whose `torii` entry this client's file holds, with that root's
    /// record of it: the entry pins that root, and that root recorded writing exactly it.
    fn owned_by_another_root(
        &self,
        files: &mut Files,
    ) -> Result<Option<(PathBuf, AgentState)>, AgentError> {
        let plain =
            clients::mcp_placement(self.agent, self.at, self.pinned, EntryOptions::default())?;
        let file = files.get(&plain.file)?;
        let Some(now) = current(file, &plain.place).map_err(|e| file.parse_error(e))? else {
            return Ok(None);
        };
        let Some(other) = clients::entry_root(&now).filter(|other| other != self.root) else {
            return Ok(None);
        };
        let Ok(Some(state)) = state::load(&other, self.agent) else {
            return Ok(None);
        };
        let recorded = state.mcp.iter().any(|record| {
            record.file == plain.file
                && record.place == plain.place
                && same_entry(&now, &record.value)
        });
        Ok(recorded.then_some((other, state)))
    }

    /// The server entry to place: with the options asked for, and those Torii's installed
    /// entry already has (re-installing never drops `--trust` or `--headless`).
    fn server_placement(
        &self,
        files: &mut Files,
        previous: &AgentState,
    ) -> Result<Placement, AgentError> {
        let plain =
            clients::mcp_placement(self.agent, self.at, self.pinned, EntryOptions::default())?;
        let file = files.get(&plain.file)?;
        let now = current(file, &plain.place).map_err(|e| file.parse_error(e))?;
        let installed = previous.mcp.iter().any(|record| {
            record.file == plain.file
                && now
                    .as_ref()
                    .is_some_and(|now| same_entry(now, &record.value))
        });
        let kept = match (&now, installed) {
            (Some(now), true) => EntryOptions::found_in(now),
            _ => EntryOptions::default(),
        };
        Ok(clients::mcp_placement(
            self.agent,
            self.at,
            self.pinned,
            self.options.union(kept),
        )?)
    }

    /// Decides, for each placement, whether to add, update, keep or refuse; edits the loaded
    /// documents (nothing is written here) and returns the records to keep.
    fn place(
        &self,
        files: &mut Files,
        placements: &[Placement],
        previous: &[Managed],
        report: &mut Report,
        is_server: bool,
    ) -> Result<Vec<Managed>, AgentError> {
        let mut records = Vec::new();
        for placement in placements {
            let recorded = previous
                .iter()
                .find(|record| record.file == placement.file && record.place == placement.place);
            let file = files.get(&placement.file)?;
            let now = current(file, &placement.place).map_err(|e| file.parse_error(e))?;
            let where_ = format!("{} ({})", file.path.display(), placement.place.describe());
            let created_file = recorded.map_or(!file.existed, |record| record.created_file);
            match &placement.place {
                Place::Member(path) => match now {
                    None => {
                        let created = file
                            .document
                            .set(path, &placement.value)
                            .map_err(|e| file.parse_error(e))?;
                        report.push(crate::tr!("agent-added", place = where_.as_str()));
                        records.push(record(placement, created, created_file));
                    }
                    Some(value) if value == placement.value => match recorded {
                        Some(record) if record.value == value => {
                            report.push(crate::tr!(
                                "agent-already-installed",
                                place = where_.as_str()
                            ));
                            records.push(record.clone());
                        }
                        _ => report.push(crate::tr!("agent-preexisting", place = where_.as_str())),
                    },
                    Some(value) => match recorded {
                        // Torii's own entry, unchanged since but for the options: it now pins
                        // this executable, with these options.
                        Some(record) if same_entry(&record.value, &value) => {
                            file.document
                                .set(path, &placement.value)
                                .map_err(|e| file.parse_error(e))?;
                            report.push(crate::tr!("agent-updated", place = where_.as_str()));
                            records.push(Managed {
                                value: placement.value.clone(),
                                ..record.clone()
                            });
                        }
                        Some(_) => {
                            return Err(AgentError::ChangedSince {
                                file: placement.file.clone(),
                                place: placement.place.describe(),
                            });
                        }
                        None if is_server => {
                            return Err(AgentError::Conflict {
                                file: placement.file.clone(),
                                place: placement.place.describe(),
                            });
                        }
                        None => {
                            return Err(AgentError::Setting {
                                file: placement.file.clone(),
                                place: placement.place.describe(),
                                found: value.to_string(),
                                needed: placement.value.to_string(),
                            });
                        }
                    },
                },
                Place::Element(path) => {
                    if contains(&now, &placement.value) {
                        match recorded {
                            Some(record) if record.value == placement.value => {
                                report.push(crate::tr!(
                                    "agent-already-installed",
                                    place = where_.as_str()
                                ));
                                records.push(record.clone());
                            }
                            _ => report
                                .push(crate::tr!("agent-preexisting", place = where_.as_str())),
                        }
                        continue;
                    }
                    let mut created = Vec::new();
                    if let Some(record) = recorded
                        && contains(&now, &record.value)
                    {
                        file.document
                            .remove_element(path, &record.value)
                            .map_err(|e| file.parse_error(e))?;
                        created = record.created.clone();
                        report.push(crate::tr!("agent-updated", place = where_.as_str()));
                    } else {
                        report.push(crate::tr!("agent-added", place = where_.as_str()));
                    }
                    let made = file
                        .document
                        .append(path, &placement.value)
                        .map_err(|e| file.parse_error(e))?;
                    created.extend(made);
                    records.push(record(placement, created, created_file));
                }
            }
        }
        Ok(records)
    }
}

impl Install<'_> {
    /// Trusts the hook just placed in Codex's `hooks.json`, at the position it now has.
    fn trust_codex_hook(
        &self,
        files: &mut Files,
        placements: &[Placement],
        previous: &[Managed],
        report: &mut Report,
    ) -> Result<Vec<Managed>, AgentError> {
        let Some(hook) = placements.first() else {
            return Ok(Vec::new());
        };
        let Place::Element(path) = &hook.place else {
            return Ok(Vec::new());
        };
        let file = files.get(&hook.file)?;
        let groups = file.document.get(path).map_err(|e| file.parse_error(e))?;
        let Some(group) = groups
            .as_ref()
            .and_then(Value::as_array)
            .and_then(|groups| groups.iter().position(|group| *group == hook.value))
        else {
            return Ok(Vec::new());
        };
        let trust = clients::codex_trust(self.at, self.pinned, group)?;
        // A trust entry Torii wrote for an older position or command goes; the new one is placed.
        let stale: Vec<&Managed> = previous
            .iter()
            .filter(|record| record.file == trust.file && record.place != trust.place)
            .filter(|record| matches!(&record.place, Place::Member(keys) if keys.first().is_some_and(|k| k == "hooks")))
            .collect();
        for record in stale {
            let file = files.get(&record.file)?;
            if let Place::Member(keys) = &record.place
                && file
                    .document
                    .get(keys)
                    .map_err(|e| file.parse_error(e))?
                    .as_ref()
                    == Some(&record.value)
            {
                file.document
                    .remove(keys)
                    .map_err(|e| file.parse_error(e))?;
                file.document
                    .prune(&record.created)
                    .map_err(|e| file.parse_error(e))?;
            }
        }
        self.place(files, &[trust], previous, report, false)
    }
}

/// Whether two values of one managed place are the same entry: equal but for the options a
/// server entry may carry (see [`clients::without_options`]).
fn same_entry(a: &Value, b: &Value) -> bool {
    a == b || clients::without_options(a) == clients::without_options(b)
}

fn record(placement: &Placement, created: Vec<Vec<String>>, created_file: bool) -> Managed {
    Managed {
        file: placement.file.clone(),
        place: placement.place.clone(),
        value: placement.value.clone(),
        created,
        created_file,
        keep_while: placement.keep_while.clone(),
    }
}

pub struct Uninstall<'a> {
    pub agent: Agent,
    /// Only the hook: the MCP entry stays.
    pub hook_only: bool,
    pub root: &'a Path,
    pub at: &'a Locations,
}

impl Uninstall<'_> {
    pub fn run(&self) -> Result<Report, AgentError> {
        let agent = self.agent;
        if self.hook_only && agent.hook_event().is_none() {
            return Err(AgentError::HookNotSupported(agent));
        }
        let Some(previous) = state::load(self.root, agent)? else {
            return Ok(vec![crate::tr!(
                "agent-nothing-to-remove",
                client = agent.client(),
                state = state::state_file(self.root, agent).display().to_string()
            )]);
        };
        let mut remaining = previous.clone();
        let removing: Vec<Managed> = if self.hook_only {
            std::mem::take(&mut remaining.hook)
        } else {
            let mut all = std::mem::take(&mut remaining.mcp);
            all.append(&mut remaining.hook);
            all
        };
        if removing.is_empty() {
            return Ok(vec![crate::tr!(
                "agent-nothing-of-kind",
                hook = if self.hook_only { "yes" } else { "no" },
                client = agent.client()
            )]);
        }
        for managed in &removing {
            self.check_record(managed)?;
        }
        let mut files = Files::new();
        let mut report = Report::new();
        let mut removable = Vec::new();
        // Every check first: one changed entry stops the whole removal.
        for managed in &removing {
            let file = files.get(&managed.file)?;
            let now = current(file, &managed.place).map_err(|e| file.parse_error(e))?;
            let unchanged = match &managed.place {
                Place::Member(_) => now
                    .as_ref()
                    .is_none_or(|value| same_entry(value, &managed.value)),
                Place::Element(_) => contains(&now, &managed.value) || !edited_hook(&now, agent),
            };
            if !unchanged {
                return Err(AgentError::ChangedSince {
                    file: managed.file.clone(),
                    place: managed.place.describe(),
                });
            }
        }
        // A value kept while something else is there goes after that something.
        let mut ordered: Vec<&Managed> = removing.iter().collect();
        ordered.sort_by_key(|managed| managed.keep_while.is_some());
        for managed in ordered {
            let file = files.get(&managed.file)?;
            let where_ = format!("{} ({})", file.path.display(), managed.place.describe());
            if let Some(path) = &managed.keep_while
                && file
                    .document
                    .get(path)
                    .map_err(|e| file.parse_error(e))?
                    .is_some()
            {
                report.push(crate::tr!("agent-kept", place = where_.as_str()));
                continue;
            }
            let removed = match &managed.place {
                Place::Member(path) => {
                    let present = file
                        .document
                        .get(path)
                        .map_err(|e| file.parse_error(e))?
                        .is_some();
                    file.document
                        .remove(path)
                        .map_err(|e| file.parse_error(e))?;
                    present
                }
                Place::Element(path) => file
                    .document
                    .remove_element(path, &managed.value)
                    .map_err(|e| file.parse_error(e))?,
            };
            file.document
                .prune(&managed.created)
                .map_err(|e| file.parse_error(e))?;
            if managed.created_file {
                removable.push(managed.file.clone());
            }
            report.push(if removed {
                crate::tr!("agent-removed", place = where_.as_str())
            } else {
                crate::tr!("agent-already-gone", place = where_.as_str())
            });
        }
        files.save(&removable)?;
        state::store(self.root, agent, &remaining)?;
        Ok(report)
    }

    fn check_record(&self, managed: &Managed) -> Result<(), AgentError> {
        check_record(self.agent, self.root, self.at, managed)
    }
}

/// A record of `root` names a file and a place where Torii writes for `agent`, and only
/// containers on the way to that place: a state file edited by hand (or another root's, taken
/// over by install) cannot make Torii edit or delete anything else.
fn check_record(
    agent: Agent,
    root: &Path,
    at: &Locations,
    managed: &Managed,
) -> Result<(), AgentError> {
    let foreign = || AgentError::ForeignRecord {
        state: state::state_file(root, agent),
        file: managed.file.clone(),
        place: managed.place.describe(),
        client: agent.client(),
    };
    // Only the places matter here, and they do not depend on what is pinned.
    let any = Pinned {
        exe: PathBuf::new(),
        root: PathBuf::new(),
    };
    let mut known = vec![clients::mcp_placement(
        agent,
        at,
        &any,
        EntryOptions::default(),
    )?];
    known.extend(clients::hook_placements(agent, at, &any)?.unwrap_or_default());
    let place_known = known
        .iter()
        .any(|placement| placement.file == managed.file && placement.place == managed.place)
        || (agent == Agent::Codex && clients::is_codex_trust(at, managed)?);
    let path = match &managed.place {
        Place::Member(path) => &path[..path.len().saturating_sub(1)],
        Place::Element(path) => &path[..],
    };
    let created_on_the_way = managed
        .created
        .iter()
        .all(|created| !created.is_empty() && path.starts_with(created));
    if place_known && created_on_the_way {
        Ok(())
    } else {
        Err(foreign())
    }
}

/// How a managed place compares with what Torii wrote and would write now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// What Torii wrote is there and pins this executable and root.
    Managed,
    /// What Torii wrote is there, for another executable or root: install again to update.
    ManagedStale,
    /// Torii wrote it, and it has been changed since: uninstall stops on it.
    Changed,
    /// Torii wrote it, and it is gone.
    Missing,
    /// Something the human put there, the same as what Torii would write.
    PreexistingSame,
    /// Something the human put there that differs from what Torii would write.
    Preexisting,
    Absent,
    /// Codex trusts the hook at its current position in `hooks.json`.
    Trusted,
    /// Codex has no trust for the hook where it is now, and skips it.
    Untrusted,
}

impl Standing {
    pub fn describe(self) -> String {
        match self {
            Standing::Managed => crate::tr!("standing-managed"),
            Standing::ManagedStale => crate::tr!("standing-managed-stale"),
            Standing::Changed => crate::tr!("standing-changed"),
            Standing::Missing => crate::tr!("standing-missing"),
            Standing::PreexistingSame => crate::tr!("standing-preexisting-same"),
            Standing::Preexisting => crate::tr!("standing-preexisting"),
            Standing::Absent => crate::tr!("standing-absent"),
            Standing::Trusted => crate::tr!("standing-trusted"),
            Standing::Untrusted => crate::tr!("standing-untrusted"),
        }
    }
}

/// One line of `agent status`: which part, where, and how it stands.
pub struct StatusLine {
    pub part: &'static str,
    pub file: Option<PathBuf>,
    pub place: Option<String>,
    pub standing: Option<Standing>,
}

pub fn status(
    agent: Agent,
    root: &Path,
    at: &Locations,
    pinned: &Pinned,
) -> Result<Vec<StatusLine>, AgentError> {
    let previous = state::load(root, agent)?.unwrap_or_default();
    let mut files = Files::new();
    let mut lines = Vec::new();
    let mcp = clients::mcp_placement(agent, at, pinned, EntryOptions::default())?;
    lines.push(standing_line(
        "mcp",
        &mut files,
        &mcp,
        &previous.mcp,
        agent,
    )?);
    match clients::hook_placements(agent, at, pinned)? {
        None => lines.push(StatusLine {
            part: "hook",
            file: None,
            place: None,
            standing: None,
        }),
        Some(placements) => {
            for placement in &placements {
                lines.push(standing_line(
                    "hook",
                    &mut files,
                    placement,
                    &previous.hook,
                    agent,
                )?);
            }
            if agent == Agent::Codex {
                lines.push(codex_trust_line(&mut files, at, pinned, &placements)?);
            }
        }
    }
    Ok(lines)
}

/// Whether Codex will run the hook: a trust entry for the position the hook has now.
fn codex_trust_line(
    files: &mut Files,
    at: &Locations,
    pinned: &Pinned,
    placements: &[Placement],
) -> Result<StatusLine, AgentError> {
    let mut line = StatusLine {
        part: "trust",
        file: None,
        place: None,
        standing: Some(Standing::Absent),
    };
    let Some(hook) = placements.first() else {
        return Ok(line);
    };
    let file = files.get(&hook.file)?;
    let groups = current(file, &hook.place).map_err(|e| file.parse_error(e))?;
    let Some(group) = groups
        .as_ref()
        .and_then(Value::as_array)
        .and_then(|groups| groups.iter().position(|group| *group == hook.value))
    else {
        return Ok(line);
    };
    let trust = clients::codex_trust(at, pinned, group)?;
    let config = files.get(&trust.file)?;
    let now = current(config, &trust.place).map_err(|e| config.parse_error(e))?;
    line.file = Some(trust.file.clone());
    line.place = Some(trust.place.describe());
    line.standing = Some(if now.as_ref() == Some(&trust.value) {
        Standing::Trusted
    } else {
        Standing::Untrusted
    });
    Ok(line)
}

fn standing_line(
    part: &'static str,
    files: &mut Files,
    placement: &Placement,
    previous: &[Managed],
    agent: Agent,
) -> Result<StatusLine, AgentError> {
    let file = files.get(&placement.file)?;
    let now = current(file, &placement.place).map_err(|e| file.parse_error(e))?;
    let recorded = previous
        .iter()
        .find(|record| record.file == placement.file && record.place == placement.place);
    let standing = match (&placement.place, recorded) {
        (Place::Member(_), Some(record)) => match &now {
            None => Standing::Missing,
            Some(value) if !same_entry(value, &record.value) => Standing::Changed,
            Some(value) if same_entry(value, &placement.value) => Standing::Managed,
            Some(_) => Standing::ManagedStale,
        },
        (Place::Member(_), None) => match &now {
            None => Standing::Absent,
            Some(value) if same_entry(value, &placement.value) => Standing::PreexistingSame,
            Some(_) => Standing::Preexisting,
        },
        (Place::Element(_), Some(record)) => {
            if contains(&now, &record.value) {
                if record.value == placement.value {
                    Standing::Managed
                } else {
                    Standing::ManagedStale
                }
            } else if edited_hook(&now, agent) {
                Standing::Changed
            } else {
                Standing::Missing
            }
        }
        (Place::Element(_), None) => {
            if contains(&now, &placement.value) {
                Standing::PreexistingSame
            } else if edited_hook(&now, agent) {
                Standing::Preexisting
            } else {
                Standing::Absent
            }
        }
    };
    Ok(StatusLine {
        part,
        file: Some(placement.file.clone()),
        place: Some(placement.place.describe()),
        standing: Some(standing),
    })
}

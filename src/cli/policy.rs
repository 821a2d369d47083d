//! `torii policy show | edit | check`: the operator's view of a provider's or target's
//! `rules.yaml`, a safe editor for it, and a way to test it without running anything.

use std::path::{Path, PathBuf};

use jasper::{Decision, Evaluation, PolicySettings};

use crate::atomic::{self, Access};
use crate::paths::ConfigRoot;
use crate::registry::{Provider, Registry, Target};
use crate::rules::{
    self, EMPTY_POLICY, EditorCommand, EditorError, Effective, PolicyFileError, Review, RulesOrigin,
};

use super::lookup::{self, Prefer};
use super::{CliError, PolicyCommand};

/// The draft `policy edit` works on, next to the live file.
const DRAFT_FILE: &str = "rules.draft.yaml";

/// Why a policy command failed.
#[derive(Debug, thiserror::Error)]
pub enum PolicyCliError {
    #[error(transparent)]
    File(#[from] PolicyFileError),
    /// Boxed: the administrator's errors are large, and rare.
    #[error(transparent)]
    Admin(Box<crate::admin::AdminError>),
    #[error(transparent)]
    Editor(#[from] EditorError),
    #[error("{}", crate::tr!("cli-policy-no-own", alias = .alias.as_str(), tool = .tool.as_str(), shared = .shared.display().to_string(), own = .own.display().to_string()))]
    NoOwnPolicy {
        tool: String,
        alias: String,
        shared: PathBuf,
        own: PathBuf,
    },
    /// The book's own words (its troubleshooting starts from them): English in every language.
    #[error("rules file not found: {}; pass --create to start one", path.display())]
    Missing { path: PathBuf },
    #[error("{}", crate::tr!("cli-policy-editor", program = .program.display().to_string()))]
    Launch {
        program: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", crate::tr!("cli-policy-editor-failed", program = .program.display().to_string(), status = .status.to_string(), live = .live.display().to_string(), draft = .draft.display().to_string()))]
    EditorFailed {
        program: PathBuf,
        status: std::process::ExitStatus,
        live: PathBuf,
        draft: PathBuf,
    },
    #[error("{}\n{}", .reason, crate::tr!("cli-policy-draft-kept", live = .live.display().to_string(), draft = .draft.display().to_string()))]
    Rejected {
        reason: String,
        live: PathBuf,
        draft: PathBuf,
    },
    #[error("{}", crate::tr!("cli-policy-changed-meanwhile", live = .live.display().to_string(), draft = .draft.display().to_string()))]
    ChangedMeanwhile { live: PathBuf, draft: PathBuf },
    #[error("cannot {action} the draft {}", path.display())]
    Draft {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", crate::tr!("cli-policy-examples-fail", failed = *.failed, total = *.total, path = .path.display().to_string()))]
    ExamplesFailed {
        failed: usize,
        total: usize,
        path: PathBuf,
    },
}

impl From<crate::admin::AdminError> for PolicyCliError {
    fn from(error: crate::admin::AdminError) -> Self {
        Self::Admin(Box::new(error))
    }
}

pub fn run(command: PolicyCommand, root: &ConfigRoot) -> Result<(), CliError> {
    let registry = Registry::load(root.dir())?;
    match command {
        PolicyCommand::Show { tool, target } => {
            let (provider, target) = select(&registry, &tool, target.as_deref())?;
            show(provider, target)
        }
        PolicyCommand::Edit {
            tool,
            target,
            create,
        } => {
            let (provider, target) = select(&registry, &tool, target.as_deref())?;
            edit(provider, target, create)
        }
        PolicyCommand::Check {
            tool,
            target,
            all,
            json,
            args,
        } => {
            let (provider, target) = select(&registry, &tool, target.as_deref())?;
            if all {
                check_all(provider, target, json)
            } else {
                check_one(provider, target, &args, json)
            }
        }
    }
}

fn select<'r>(
    registry: &'r Registry,
    tool: &str,
    alias: Option<&str>,
) -> Result<(&'r Provider, Option<&'r Target>), CliError> {
    let provider = lookup::provider(registry, tool, Prefer::Tool)?;
    let target = match alias {
        Some(alias) => Some(lookup::target(provider, alias)?),
        None => None,
    };
    Ok((provider, target))
}

fn settings(provider: &Provider) -> PolicySettings {
    rules::policy_settings(&provider.config().policy)
}

/// One line saying whose policy a file is.
fn describe(provider: &Provider, effective: &Effective) -> String {
    let path = effective.path.display();
    match &effective.origin {
        RulesOrigin::Shared => format!("shared policy of {}: {path}", provider.tool()),
        RulesOrigin::Target { alias } => format!(
            "policy of target {alias} of {} (replaces the shared one): {path}",
            provider.tool()
        ),
        RulesOrigin::Inherited { alias } => format!(
            "target {alias} of {} has no policy of its own; it uses the shared policy: {path}",
            provider.tool()
        ),
    }
}

fn show(provider: &Provider, target: Option<&Target>) -> Result<(), CliError> {
    let effective = rules::effective(provider, target).map_err(PolicyCliError::from)?;
    let text = rules::read_rules_text(&effective.path).map_err(PolicyCliError::from)?;
    let settings = settings(provider);
    crate::console::data(&format!("# {}", describe(provider, &effective)));
    crate::console::data(&format!(
        "# provider.yaml policy: minimum_accept_tokens {}, forbidden_args {:?}, forbidden_value_prefixes {:?}, ignore_args leading {} flags {:?}",
        settings.minimum_accept_tokens.max(1),
        settings.forbidden_args,
        settings.forbidden_value_prefixes,
        settings.ignore_args.leading,
        settings.ignore_args.flags
    ));
    for line in text.lines() {
        crate::console::data(line);
    }
    let (rules, compiled) =
        rules::compile(&effective.path, &text, &settings).map_err(PolicyCliError::from)?;
    for rule in compiled.ignored_accepts() {
        crate::console::progress(&crate::tr!(
            "cli-policy-ignored",
            rule = format!("{rule:?}"),
            minimum = settings.minimum_accept_tokens
        ));
    }
    for failure in jasper::check_examples(&compiled, &rules.examples) {
        crate::console::progress(&format!(
            "warning: {}: {failure}",
            strict_yaml::located(effective.path.display(), failure.example.position)
        ));
    }
    let admin = crate::admin::AdminLayer::of_system().map_err(PolicyCliError::from)?;
    if let Some((path, text)) = admin
        .as_ref()
        .and_then(|admin| admin.rules_of(provider.name()))
    {
        crate::console::data(&format!(
            "# the administrator's deny rules, checked before this policy: {}",
            path.display()
        ));
        for line in text.lines() {
            crate::console::data(line);
        }
    }
    Ok(())
}

/// What `edit` starts from.
struct EditPlan {
    live: PathBuf,
    /// The live text, or what a created policy starts from.
    original: String,
    creating: bool,
}

fn plan_edit(
    provider: &Provider,
    target: Option<&Target>,
    create: bool,
) -> Result<EditPlan, PolicyCliError> {
    let shared = provider.rules_path();
    let read_existing = |path: &Path| match rules::read_rules_text(path) {
        Ok(text) => Ok(Some(text)),
        Err(PolicyFileError::NotFound { .. }) => Ok(None),
        Err(error) => Err(error),
    };
    let live = target.map_or_else(|| shared.clone(), Target::rules_path);
    if let Some(text) = read_existing(&live)? {
        return Ok(EditPlan {
            live,
            original: text,
            creating: false,
        });
    }
    match (target, create) {
        (Some(target), false) => Err(PolicyCliError::NoOwnPolicy {
            tool: provider.tool().to_string(),
            alias: target.alias().to_string(),
            shared,
            own: live,
        }),
        (None, false) => Err(PolicyCliError::Missing { path: live }),
        (Some(_), true) => Ok(EditPlan {
            original: read_existing(&shared)?.unwrap_or_else(|| EMPTY_POLICY.to_string()),
            live,
            creating: true,
        }),
        (None, true) => Ok(EditPlan {
            live,
            original: EMPTY_POLICY.to_string(),
            creating: true,
        }),
    }
}

fn edit(provider: &Provider, target: Option<&Target>, create: bool) -> Result<(), CliError> {
    let plan = plan_edit(provider, target, create)?;
    let editor = rules::editor_command().map_err(PolicyCliError::from)?;
    let draft = plan
        .live
        .parent()
        .unwrap_or(Path::new("."))
        .join(DRAFT_FILE);
    if draft.exists() {
        crate::console::progress(&crate::tr!(
            "cli-policy-resuming",
            path = draft.display().to_string()
        ));
    } else {
        atomic::write(&draft, plan.original.as_bytes(), Access::Private)?;
    }
    let settings = settings(provider);
    loop {
        run_editor(&editor, &draft, &plan.live)?;
        let text = std::fs::read_to_string(&draft).map_err(|source| PolicyCliError::Draft {
            action: "read",
            path: draft.clone(),
            source,
        })?;
        match rules::review_draft(&plan.original, &text, &draft, &settings) {
            Review::Unchanged => {
                remove_draft(&draft)?;
                crate::console::progress(&crate::tr!(
                    "cli-policy-unchanged",
                    path = plan.live.display().to_string(),
                    created = if plan.creating { "yes" } else { "no" }
                ));
                return Ok(());
            }
            Review::Accepted {
                ignored_accepts, ..
            } => {
                apply(&plan, &text, &draft)?;
                for rule in ignored_accepts {
                    crate::console::progress(&crate::tr!(
                        "cli-policy-ignored",
                        rule = format!("{rule:?}"),
                        minimum = settings.minimum_accept_tokens
                    ));
                }
                return Ok(());
            }
            Review::Rejected { reason } => {
                if crate::console::interactive() {
                    crate::console::progress(&crate::tr!(
                        "cli-policy-rejected",
                        reason = reason.as_str()
                    ));
                    if crate::console::confirm(&crate::tr!("cli-policy-reopen")) {
                        continue;
                    }
                }
                return Err(PolicyCliError::Rejected {
                    reason,
                    live: plan.live,
                    draft,
                }
                .into());
            }
        }
    }
}

fn run_editor(editor: &EditorCommand, draft: &Path, live: &Path) -> Result<(), PolicyCliError> {
    let status = std::process::Command::new(&editor.program)
        .args(&editor.args)
        .arg(draft)
        .status()
        .map_err(|source| PolicyCliError::Launch {
            program: editor.program.clone(),
            source,
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(PolicyCliError::EditorFailed {
            program: editor.program.clone(),
            status,
            live: live.to_path_buf(),
            draft: draft.to_path_buf(),
        })
    }
}

/// Replaces the live file with the accepted draft, unless it changed since the edit began.
fn apply(plan: &EditPlan, text: &str, draft: &Path) -> Result<(), CliError> {
    let current = match rules::read_rules_text(&plan.live) {
        Ok(current) => Some(current),
        Err(PolicyFileError::NotFound { .. }) => None,
        Err(error) => return Err(PolicyCliError::from(error).into()),
    };
    let expected = (!plan.creating).then_some(&plan.original);
    if current.as_ref() != expected {
        return Err(PolicyCliError::ChangedMeanwhile {
            live: plan.live.clone(),
            draft: draft.to_path_buf(),
        }
        .into());
    }
    atomic::write(&plan.live, text.as_bytes(), Access::Private)?;
    remove_draft(draft)?;
    crate::console::progress(&crate::tr!(
        "cli-policy-written",
        path = plan.live.display().to_string(),
        created = if plan.creating { "yes" } else { "no" }
    ));
    Ok(())
}

fn remove_draft(draft: &Path) -> Result<(), PolicyCliError> {
    std::fs::remove_file(draft).map_err(|source| PolicyCliError::Draft {
        action: "remove",
        path: draft.to_path_buf(),
        source,
    })
}

fn load(
    provider: &Provider,
    target: Option<&Target>,
) -> Result<(Effective, rules::LoadedPolicy), PolicyCliError> {
    let effective = rules::effective(provider, target)?;
    let loaded = rules::load(&effective.path, &settings(provider))?;
    Ok((effective, loaded))
}

/// `allowed`, `denied` or `unresolved`, the audit source, and the rule or argument.
fn parts(decision: &Decision) -> (&'static str, Option<&'static str>, Option<&str>) {
    let word = if decision.is_allowed() {
        "allowed"
    } else if decision.is_denied() {
        "denied"
    } else {
        "unresolved"
    };
    let rule = match decision {
        Decision::Allowed { rule } | Decision::DeniedExplicit { rule } => Some(rule.as_str()),
        Decision::Forbidden { arg } => Some(arg.as_str()),
        Decision::ForbiddenValue { prefix } => Some(prefix.as_str()),
        Decision::Unresolved => None,
    };
    (word, decision.source(), rule)
}

/// What `policy check --json` prints for one vector, in the order a person reads it.
#[derive(serde::Serialize)]
struct CheckReport<'a> {
    decision: &'a str,
    source: Option<&'a str>,
    rule: Option<&'a str>,
    policy: String,
    ignored_accepts: &'a [String],
    /// `admin` or `user`, where an administrator's layer exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    layer: Option<&'a str>,
}

fn check_one(
    provider: &Provider,
    target: Option<&Target>,
    args: &[String],
    json: bool,
) -> Result<(), CliError> {
    let (effective, loaded) = load(provider, target)?;
    // The server refuses a locked flag before it reads the policy: so does the check.
    if let Some(flag) = crate::dispatch::find_locked(provider.config(), args) {
        if json {
            crate::console::json(&CheckReport {
                decision: "denied",
                source: Some("locked-option"),
                rule: Some(&flag),
                policy: effective.path.display().to_string(),
                ignored_accepts: &[],
                layer: None,
            });
        } else {
            crate::console::data("decision: denied");
            crate::console::data("source: locked-option");
            crate::console::data(&format!("rule: locked option {flag:?}"));
            crate::console::data(&format!("policy: {}", effective.path.display()));
            crate::console::progress(&crate::tr!("cli-policy-locked-hint"));
        }
        return Ok(());
    }
    // The server checks the administrator's deny rules before the user's policy: so does this.
    let admin = crate::admin::AdminLayer::of_system().map_err(PolicyCliError::from)?;
    if let Some(admin) = &admin {
        let denied = admin
            .policy_of(provider)
            .map_err(PolicyCliError::from)?
            .and_then(|policy| crate::admin::denying_rule(&policy, args));
        if let Some(rule) = denied {
            let path = admin
                .rules_of(provider.name())
                .map(|(path, _)| path.display().to_string())
                .unwrap_or_default();
            if json {
                crate::console::json(&CheckReport {
                    decision: "denied",
                    source: Some("explicit-deny"),
                    rule: Some(&rule),
                    policy: path,
                    ignored_accepts: &[],
                    layer: Some("admin"),
                });
            } else {
                crate::console::data("decision: denied");
                crate::console::data("source: explicit-deny");
                crate::console::data(&format!("rule: {rule}"));
                crate::console::data(&format!("policy: {path}"));
                crate::console::data("layer: admin");
            }
            return Ok(());
        }
    }
    let Evaluation {
        decision,
        ignored_accept_matches,
    } = loaded.policy.evaluate(args);
    let (word, source, rule) = parts(&decision);
    if json {
        crate::console::json(&CheckReport {
            decision: word,
            source,
            rule,
            policy: effective.path.display().to_string(),
            ignored_accepts: &ignored_accept_matches,
            layer: admin.is_some().then_some("user"),
        });
        return Ok(());
    }
    crate::console::data(&format!("decision: {word}"));
    crate::console::data(&format!("source: {}", source.unwrap_or("-")));
    let rule_line = match (&decision, rule) {
        (Decision::Forbidden { .. }, Some(arg)) => format!("rule: forbidden_args {arg:?}"),
        (Decision::ForbiddenValue { .. }, Some(prefix)) => {
            format!("rule: forbidden_value_prefixes {prefix:?}")
        }
        (_, Some(rule)) => format!("rule: {rule}"),
        (_, None) => "rule: -".to_string(),
    };
    crate::console::data(&rule_line);
    crate::console::data(&format!("policy: {}", effective.path.display()));
    if admin.is_some() {
        crate::console::data("layer: user");
    }
    if decision == Decision::Unresolved {
        crate::console::progress(&crate::tr!("cli-policy-unresolved-hint"));
    }
    for rule in ignored_accept_matches {
        crate::console::progress(&crate::tr!(
            "cli-policy-ignored-match",
            rule = format!("{rule:?}")
        ));
    }
    Ok(())
}

fn check_all(provider: &Provider, target: Option<&Target>, json: bool) -> Result<(), CliError> {
    let (effective, loaded) = load(provider, target)?;
    let examples = &loaded.rules.examples;
    let failures = jasper::check_examples(&loaded.policy, examples);
    if json {
        let failed: Vec<serde_json::Value> = failures
            .iter()
            .map(|failure| {
                let (word, source, rule) = parts(&failure.decision);
                serde_json::json!({
                    "expected": failure.expected.key(),
                    "index": failure.index,
                    "line": failure.example.position.map(|at| at.line),
                    "args": failure.example.args,
                    "decision": word,
                    "source": source,
                    "rule": rule,
                })
            })
            .collect();
        let value = serde_json::json!({
            "policy": effective.path.display().to_string(),
            "examples": examples.len(),
            "failures": failed,
        });
        crate::console::data(&value.to_string());
    } else {
        for failure in &failures {
            crate::console::data(&format!(
                "FAIL {}: {failure}",
                strict_yaml::located(effective.path.display(), failure.example.position)
            ));
        }
        crate::console::data(&format!(
            "{} examples, {} failed: {}",
            examples.len(),
            failures.len(),
            effective.path.display()
        ));
        if examples.is_empty() {
            crate::console::progress(
                "this policy has no examples; add an `examples` block (see the policies chapter)",
            );
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(PolicyCliError::ExamplesFailed {
            failed: failures.len(),
            total: examples.len(),
            path: effective.path,
        }
        .into())
    }
}

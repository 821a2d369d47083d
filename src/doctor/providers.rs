//! The installed providers: they load, their command is found where the server looks, and each
//! policy an agent's call would meet compiles and passes its own examples.

use std::path::Path;

use super::Finding;
use crate::registry::{Provider, Registry, Target};
use crate::rules::{self, PolicyFileError, RulesOrigin};

/// `trust`: the keys packages are checked with (`None` when `settings.yaml` cannot say).
pub fn check(root: &Path, trust: Option<&crate::packages::Trust>) -> Vec<Finding> {
    let registry = match Registry::load(root) {
        Ok(registry) => registry,
        Err(error) => {
            return vec![Finding::problem(
                crate::errors::chain(&error),
                crate::tr!("doctor-registry-fix"),
            )];
        }
    };
    if registry.providers().is_empty() {
        return vec![Finding::problem(
            // The book's own words, which its troubleshooting starts from: English always.
            format!("no providers installed in {}", root.display()),
            crate::tr!("doctor-no-providers-fix"),
        )];
    }
    let mut findings = Vec::new();
    for provider in registry.iter() {
        findings.push(command(provider));
        findings.extend(package(provider, trust));
        findings.extend(policies(provider));
    }
    findings
}

/// Who vouches for the provider's package: a trusted key, a key no longer trusted, or nobody
/// (an unsigned source). A provider written by hand or built into torii has nothing to report.
fn package(provider: &Provider, trust: Option<&crate::packages::Trust>) -> Option<Finding> {
    let lock = match crate::packages::read_lock(provider.dir())? {
        Ok(lock) => lock,
        Err(error) => {
            return Some(Finding::problem(
                crate::tr!(
                    "doctor-package-lock",
                    tool = provider.tool(),
                    error = crate::errors::chain(&error)
                ),
                crate::tr!("doctor-package-lock-fix"),
            ));
        }
    };
    if lock.origin.kind == crate::packages::lock::OriginKind::BuiltIn {
        return None;
    }
    Some(match lock.signed_by {
        Some(key) if trust.is_some_and(|trust| !trust.trusts(key)) => Finding::warning(
            crate::tr!(
                "doctor-package-key-untrusted",
                tool = provider.tool(),
                version = lock.package_version.as_str(),
                key = key.to_string()
            ),
            crate::tr!("doctor-package-key-untrusted-fix"),
        ),
        Some(key) => Finding::ok(crate::tr!(
            "doctor-package-signed",
            tool = provider.tool(),
            version = lock.package_version.as_str(),
            key = key.to_string()
        )),
        None => Finding::warning(
            crate::tr!(
                "doctor-package-unsigned",
                tool = provider.tool(),
                version = lock.package_version.as_str(),
                origin = lock.origin.describe()
            ),
            crate::tr!(
                "doctor-package-unsigned-fix",
                content = provider
                    .dir()
                    .join(crate::packages::PACKAGE_DIR)
                    .join(crate::packages::CONTENT_DIR)
                    .display()
                    .to_string()
            ),
        ),
    })
}

/// The provider's executable, resolved as the server resolves it (PATH only, without the
/// current directory's tree and Torii's own directory).
fn command(provider: &Provider) -> Finding {
    let name = &provider.config().command;
    match crate::runner::resolve(name) {
        Ok(path) => Finding::ok(crate::tr!(
            "doctor-runs",
            tool = provider.tool(),
            path = path.display().to_string()
        )),
        Err(error) => Finding::problem(
            format!("{}: {}", provider.tool(), crate::errors::chain(&error)),
            crate::tr!("doctor-command-missing-fix", name = name.as_str()),
        ),
    }
}

/// The shared policy (unless every target replaces it) and each target's own.
fn policies(provider: &Provider) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut shared_used = !provider.is_target_aware() || provider.targets().is_empty();
    for target in provider.targets().values() {
        match rules::effective(provider, Some(target)) {
            Ok(effective) if matches!(effective.origin, RulesOrigin::Target { .. }) => {
                findings.push(policy_file(provider, Some(target), &effective.path));
            }
            Ok(_) => shared_used = true,
            Err(error) => findings.push(Finding::problem(
                crate::errors::chain(&error),
                format!("torii policy edit {} {}", provider.tool(), target.alias()),
            )),
        }
    }
    if shared_used {
        findings.insert(0, policy_file(provider, None, &provider.rules_path()));
    }
    findings
}

fn policy_file(provider: &Provider, target: Option<&Target>, path: &Path) -> Finding {
    let whose = match target {
        Some(target) => format!("{} {}", provider.tool(), target.alias()),
        None => provider.tool().to_string(),
    };
    let settings = rules::policy_settings(&provider.config().policy);
    let loaded = match rules::load(path, &settings) {
        Ok(loaded) => loaded,
        Err(PolicyFileError::NotFound { .. }) => {
            return Finding::warning(
                crate::tr!(
                    "doctor-policy-missing",
                    whose = whose.as_str(),
                    path = path.display().to_string()
                ),
                format!("torii policy edit {whose} --create"),
            );
        }
        Err(error) => {
            return Finding::problem(
                crate::tr!(
                    "doctor-policy-invalid",
                    whose = whose.as_str(),
                    error = crate::errors::chain(&error)
                ),
                format!("torii policy edit {whose}"),
            );
        }
    };
    let examples = &loaded.rules.examples;
    let failures = jasper::check_examples(&loaded.policy, examples);
    if !failures.is_empty() {
        return Finding::problem(
            crate::tr!(
                "doctor-examples-fail",
                whose = whose.as_str(),
                failed = failures.len(),
                total = examples.len(),
                path = path.display().to_string()
            ),
            format!("torii policy check {whose} --all"),
        );
    }
    Finding::ok(crate::tr!(
        "doctor-policy-valid",
        whose = whose.as_str(),
        path = path.display().to_string(),
        count = examples.len()
    ))
}

//! The audit export: where records go, and how many each destination dropped.

use super::Finding;
use crate::audit::export::{config, state};
use crate::paths::ConfigRoot;
use crate::settings::Settings;

pub fn check(root: &ConfigRoot, settings: &Settings) -> Vec<Finding> {
    // This process's environment: a server started by a client may see other OTEL_ variables.
    let resolved = config::resolve(settings, |name| std::env::var(name).ok());
    let mut findings: Vec<Finding> = resolved
        .config
        .destinations
        .iter()
        .map(|destination| {
            Finding::ok(crate::tr!(
                "doctor-audit-export",
                destination = destination.to_string()
            ))
        })
        .collect();
    for warning in resolved.warnings {
        findings.push(Finding::warning(
            warning,
            crate::tr!("doctor-audit-export-fix"),
        ));
    }
    let path = root.audit_export_state();
    match state::read(&path) {
        Ok(counts) => {
            for (kind, counts) in counts.iter().filter(|(_, counts)| counts.dropped > 0) {
                let when = chrono::DateTime::from_timestamp(counts.last_epoch as i64, 0)
                    .map_or_else(String::new, |time| {
                        time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                    });
                findings.push(Finding::warning(
                    crate::tr!(
                        "doctor-audit-dropped",
                        kind = kind.as_str(),
                        count = counts.dropped,
                        when = when,
                        error = counts.last_error.as_str()
                    ),
                    crate::tr!(
                        "doctor-audit-dropped-fix",
                        path = path.display().to_string()
                    ),
                ));
            }
        }
        Err(error) => findings.push(Finding::warning(
            format!("{}: {error}", path.display()),
            crate::tr!(
                "doctor-audit-dropped-fix",
                path = path.display().to_string()
            ),
        )),
    }
    findings
}

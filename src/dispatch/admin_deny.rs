//! The administrator's deny rules (see `crate::admin`), compiled per provider when the server
//! starts. They are checked before the user's policy, so no accept, grant or window of the
//! user's can let through what they deny.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
pub struct AdminDenies {
    /// By provider tool: the compiled deny rules and the layer's directory.
    by_tool: HashMap<String, (jasper::Policy, PathBuf)>,
}

impl AdminDenies {
    pub fn insert(&mut self, tool: &str, policy: jasper::Policy, dir: PathBuf) {
        self.by_tool.insert(tool.to_string(), (policy, dir));
    }

    /// The administrator's deny rules for `tool`, as written (empty when the layer has none).
    pub(super) fn rules(&self, tool: &str) -> &[String] {
        self.by_tool
            .get(tool)
            .map_or(&[], |(policy, _)| policy.deny())
    }

    /// The administrator's rule denying `args` for `tool`, and the layer's directory.
    pub(super) fn denying(&self, tool: &str, args: &[String]) -> Option<(String, &Path)> {
        let (policy, dir) = self.by_tool.get(tool)?;
        crate::admin::denying_rule(policy, args).map(|rule| (rule, dir.as_path()))
    }
}

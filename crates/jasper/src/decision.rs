//! The outcome of evaluating one argument vector against a policy.

/// What the policy says about one argument vector. Variants are declared from the least to the
/// most strict, so `Ord` ranks strictness; every variant that comes from a rule or a setting
/// carries it as written.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Decision {
    /// A valid accept rule matched and no deny did.
    Allowed {
        /// The earliest matching accept rule, as written.
        rule: String,
    },
    /// No rule decided. The caller checks grants, then asks a human; the default is deny.
    Unresolved,
    /// A deny rule matched. Deny always wins over accept.
    DeniedExplicit {
        /// The earliest matching deny rule, as written.
        rule: String,
    },
    /// A raw argument is in `forbidden_args`; checked before any rule.
    Forbidden {
        /// The forbidden argument as listed in the settings (never the caller's value).
        arg: String,
    },
    /// A raw argument carries a value in `forbidden_value_prefixes`; checked before any rule.
    ForbiddenValue {
        /// The forbidden prefix as listed in the settings (never the caller's value).
        prefix: String,
    },
}

impl Decision {
    /// The audit source of a decided outcome: `forbidden-arg`, `explicit-deny` or `rules`.
    /// `None` for [`Decision::Unresolved`], which the caller resolves.
    pub fn source(&self) -> Option<&'static str> {
        match self {
            Decision::Allowed { .. } => Some("rules"),
            Decision::Unresolved => None,
            Decision::DeniedExplicit { .. } => Some("explicit-deny"),
            Decision::Forbidden { .. } | Decision::ForbiddenValue { .. } => Some("forbidden-arg"),
        }
    }

    /// True only for [`Decision::Allowed`].
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allowed { .. })
    }

    /// The decision in words, naming the rule or argument that made it, e.g.
    /// `denied by deny "ecs execute-command"`.
    pub fn describe(&self) -> String {
        match self {
            Decision::Allowed { rule } => format!("allowed by accept {rule:?}"),
            Decision::Unresolved => "unresolved (no rule decides it)".to_string(),
            Decision::DeniedExplicit { rule } => format!("denied by deny {rule:?}"),
            Decision::Forbidden { arg } => format!("denied by forbidden argument {arg:?}"),
            Decision::ForbiddenValue { prefix } => {
                format!("denied by forbidden value prefix {prefix:?}")
            }
        }
    }

    /// True for [`Decision::DeniedExplicit`], [`Decision::Forbidden`] and
    /// [`Decision::ForbiddenValue`].
    pub fn is_denied(&self) -> bool {
        matches!(
            self,
            Decision::DeniedExplicit { .. }
                | Decision::Forbidden { .. }
                | Decision::ForbiddenValue { .. }
        )
    }
}

/// A decision plus what the caller must audit about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    /// The decision.
    pub decision: Decision,
    /// Accepts ignored for being narrower than `minimum_accept_tokens` that would have matched
    /// this vector, in file order. Filled only when the accept stage ran (the decision is
    /// `Allowed` or `Unresolved`); the caller audits each as `invalid-accept`.
    pub ignored_accept_matches: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_ranks_strictness() {
        let allowed = Decision::Allowed { rule: "z".into() };
        let denied = Decision::DeniedExplicit { rule: "a".into() };
        let forbidden = Decision::Forbidden { arg: "-f".into() };
        assert!(allowed < Decision::Unresolved);
        assert!(Decision::Unresolved < denied);
        assert!(denied < forbidden);
        assert_eq!(
            [allowed, Decision::Unresolved, forbidden, denied]
                .into_iter()
                .max()
                .and_then(|strictest| strictest.source()),
            Some("forbidden-arg")
        );
    }
}

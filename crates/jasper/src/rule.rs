//! One rule of `rules.yaml`, checked and classified: a token prefix, or a `/pattern/flags`
//! regex validated on its own so that an error names the rule.

use regex::RegexBuilder;

use crate::error::RuleError;

/// Upper bound on the compiled size of one regex rule, far above any sensible content check.
pub(crate) const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A rule ready to be indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Whole tokens that must equal the first items of the evaluated argv.
    Prefix(Vec<String>),
    /// A pattern for the regex crate, the rule's flags already written inline as `(?flags)`.
    Regex(String),
}

impl Rule {
    /// Classifies and checks a rule. Surrounding whitespace is ignored; a rule whose first
    /// non-blank character is `/` is a regex.
    pub(crate) fn parse(text: &str) -> Result<Rule, RuleError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(RuleError::Empty);
        }
        match trimmed.strip_prefix('/') {
            Some(body) => parse_regex(text, body).map(Rule::Regex),
            None => Ok(Rule::Prefix(
                trimmed.split_whitespace().map(str::to_string).collect(),
            )),
        }
    }
}

/// `body` is the rule after its leading `/`: the pattern runs to the last `/`, flags follow.
fn parse_regex(rule: &str, body: &str) -> Result<String, RuleError> {
    let Some((pattern, flags)) = body.rsplit_once('/') else {
        return Err(RuleError::MissingClosingSlash { rule: rule.into() });
    };
    if pattern.is_empty() {
        return Err(RuleError::EmptyPattern { rule: rule.into() });
    }
    let mut seen = String::new();
    for flag in flags.chars() {
        if !matches!(flag, 'i' | 'm' | 's' | 'x') {
            return Err(RuleError::UnknownFlag {
                rule: rule.into(),
                flag,
            });
        }
        if seen.contains(flag) {
            return Err(RuleError::RepeatedFlag {
                rule: rule.into(),
                flag,
            });
        }
        seen.push(flag);
    }
    // A leading `(?flags)` applies to the whole pattern and cannot be closed by it.
    let pattern = if flags.is_empty() {
        pattern.to_string()
    } else {
        format!("(?{flags}){pattern}")
    };
    check_compiles(rule, &pattern)?;
    Ok(pattern)
}

fn check_compiles(rule: &str, pattern: &str) -> Result<(), RuleError> {
    match RegexBuilder::new(pattern)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
    {
        Ok(_) => Ok(()),
        Err(regex::Error::CompiledTooBig(limit)) => Err(RuleError::TooLarge {
            rule: rule.into(),
            limit,
        }),
        Err(error) => Err(RuleError::Syntax {
            rule: rule.into(),
            reason: syntax_reason(&error.to_string()),
        }),
    }
}

/// The regex crate draws a caret diagram over several lines; keep its one-line `error:` part.
fn syntax_reason(message: &str) -> String {
    message
        .lines()
        .find_map(|line| line.trim().strip_prefix("error: "))
        .unwrap_or_else(|| message.lines().next().unwrap_or(message))
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_rules_split_on_any_whitespace() {
        assert_eq!(
            Rule::parse("  s3\tls \n").unwrap(),
            Rule::Prefix(vec!["s3".into(), "ls".into()])
        );
    }

    #[test]
    fn regex_pattern_runs_to_the_last_slash() {
        assert_eq!(
            Rule::parse("/a/b/i").unwrap(),
            Rule::Regex("(?i)a/b".into())
        );
        assert_eq!(Rule::parse("/a b/").unwrap(), Rule::Regex("a b".into()));
        assert_eq!(
            Rule::parse(" /x/sm ").unwrap(),
            Rule::Regex("(?sm)x".into())
        );
    }

    #[test]
    fn regex_syntax_errors_keep_one_line() {
        let error = Rule::parse("/(/").unwrap_err();
        assert_eq!(error.to_string(), "invalid regex \"/(/\": unclosed group");
    }

    #[test]
    fn oversized_regex_is_refused() {
        let error = Rule::parse(r"/\w{1000}\w{1000}/").unwrap_err();
        assert!(matches!(error, RuleError::TooLarge { .. }), "{error}");
    }
}

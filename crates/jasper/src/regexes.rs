//! The regex rules of one list compiled into a single `RegexSet`, so that a decision runs one
//! linear-time search however many regex rules there are.

use regex::{RegexSet, RegexSetBuilder};

use crate::rule::REGEX_SIZE_LIMIT;

#[derive(Debug)]
pub(crate) struct RegexRules {
    set: RegexSet,
    /// For each pattern of the set, the index of its rule in its list (increasing).
    rule_index: Vec<usize>,
}

impl RegexRules {
    /// `patterns` are `(index in list, pattern)` pairs in list order, each already checked alone.
    pub(crate) fn build(patterns: Vec<(usize, String)>) -> Result<RegexRules, regex::Error> {
        let (rule_index, patterns): (Vec<usize>, Vec<String>) = patterns.into_iter().unzip();
        // Every pattern fits REGEX_SIZE_LIMIT alone, so their sum bounds the set.
        let limit = REGEX_SIZE_LIMIT.saturating_mul(patterns.len().max(1));
        let set = RegexSetBuilder::new(patterns).size_limit(limit).build()?;
        Ok(RegexRules { set, rule_index })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rule_index.is_empty()
    }

    /// The index of the earliest rule whose pattern matches anywhere in `haystack`.
    pub(crate) fn earliest_match(&self, haystack: &str) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        // SetMatches iterates in increasing pattern order, and patterns are in list order.
        let first = self.set.matches(haystack).iter().next()?;
        self.rule_index.get(first).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_the_earliest_matching_rule() {
        let rules =
            RegexRules::build(vec![(2, "b".into()), (5, "(?i)A".into()), (9, "a".into())]).unwrap();
        assert_eq!(rules.earliest_match("xa"), Some(5));
        assert_eq!(rules.earliest_match("ab"), Some(2));
        assert_eq!(rules.earliest_match("zz"), None);
    }

    #[test]
    fn empty_set_matches_nothing() {
        let rules = RegexRules::build(Vec::new()).unwrap();
        assert!(rules.is_empty());
        assert_eq!(rules.earliest_match(""), None);
    }
}

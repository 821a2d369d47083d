//! Token trie over the prefix rules. Evaluation walks one node per argument, so the cost of a
//! decision does not grow with the number of prefix rules.

use std::collections::HashMap;

/// What a prefix rule does once its last token is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    Deny,
    Accept,
    /// An accept narrower than `minimum_accept_tokens`: reported, never allowing.
    IgnoredAccept,
}

#[derive(Debug, Default)]
pub(crate) struct Trie {
    root: Node,
}

#[derive(Debug, Default)]
struct Node {
    children: HashMap<String, Node>,
    /// Earliest deny rule (index in the `deny` list) ending here.
    deny: Option<usize>,
    /// Earliest valid accept rule (index in the `accept` list) ending here.
    accept: Option<usize>,
    /// Every ignored accept rule ending here, in file order.
    ignored_accepts: Vec<usize>,
}

/// The prefix rules that match one argument vector.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct PrefixMatches {
    pub(crate) deny: Option<usize>,
    pub(crate) accept: Option<usize>,
    pub(crate) ignored_accepts: Vec<usize>,
}

impl Trie {
    /// Adds a rule of one or more tokens; `index` is its position in its list.
    pub(crate) fn insert(&mut self, tokens: &[String], slot: Slot, index: usize) {
        let mut node = &mut self.root;
        for token in tokens {
            node = node.children.entry(token.clone()).or_default();
        }
        match slot {
            Slot::Deny => node.deny = earliest(node.deny, Some(index)),
            Slot::Accept => node.accept = earliest(node.accept, Some(index)),
            Slot::IgnoredAccept => node.ignored_accepts.push(index),
        }
    }

    /// Every rule whose tokens are a prefix of `args`.
    pub(crate) fn matches(&self, args: &[&str]) -> PrefixMatches {
        let mut found = PrefixMatches::default();
        let mut node = &self.root;
        for arg in args {
            let Some(child) = node.children.get(*arg) else {
                break;
            };
            node = child;
            found.deny = earliest(found.deny, node.deny);
            found.accept = earliest(found.accept, node.accept);
            found.ignored_accepts.extend(&node.ignored_accepts);
        }
        found.ignored_accepts.sort_unstable();
        found
    }
}

/// The smaller index of two optional ones: the rule written first wins.
pub(crate) fn earliest(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(rule: &str) -> Vec<String> {
        rule.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn matches_whole_tokens_along_the_path() {
        let mut trie = Trie::default();
        trie.insert(&tokens("s3"), Slot::IgnoredAccept, 0);
        trie.insert(&tokens("s3 ls"), Slot::Accept, 1);
        trie.insert(&tokens("s3 ls"), Slot::Deny, 4);
        trie.insert(&tokens("s3 ls --recursive"), Slot::Deny, 2);
        trie.insert(&tokens("s3api"), Slot::Deny, 3);

        let found = trie.matches(&["s3", "ls", "bucket"]);
        assert_eq!(
            found,
            PrefixMatches {
                deny: Some(4),
                accept: Some(1),
                ignored_accepts: vec![0]
            }
        );
        assert_eq!(trie.matches(&["s3", "ls", "--recursive"]).deny, Some(2));
        assert_eq!(trie.matches(&["s3a"]), PrefixMatches::default());
        assert_eq!(trie.matches(&[]), PrefixMatches::default());
    }

    #[test]
    fn duplicate_rules_keep_the_earliest_index() {
        let mut trie = Trie::default();
        trie.insert(&tokens("get pods"), Slot::Accept, 7);
        trie.insert(&tokens("get pods"), Slot::Accept, 3);
        assert_eq!(trie.matches(&["get", "pods"]).accept, Some(3));
    }
}

//! The human's language: what the windows and the control-plane CLI say, in English or
//! Brazilian Portuguese.
//!
//! Everything an agent or a machine reads stays English whatever is chosen: MCP messages and
//! results, tool descriptions, the audit log, `--json` output, file formats, and the English
//! texts the book quotes verbatim. Only what a person reads goes through here.
//!
//! The messages live in Project Fluent catalogues (`catalogue/en.ftl`, `catalogue/pt-BR.ftl`),
//! built into the binary; [`tr!`](crate::tr) formats one in the current language. The
//! language is chosen once per process ([`choose`]): `TORII_LANG`, else `settings.yaml`
//! `language`, else the system's locale, else English. The approval window gets the server's
//! choice in its request, so one server speaks one language.

mod choose;

use std::cell::Cell;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};

pub use choose::{LANGUAGE_ENV, LanguageError, choose};

/// A language the human side speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    #[default]
    #[serde(rename = "en")]
    English,
    #[serde(rename = "pt-BR")]
    BrazilianPortuguese,
}

impl Language {
    /// Every language, English first.
    pub const ALL: [Language; 2] = [Language::English, Language::BrazilianPortuguese];

    /// The tag written in `settings.yaml` and `TORII_LANG`.
    pub fn tag(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::BrazilianPortuguese => "pt-BR",
        }
    }

    /// The language a tag names: `en` or `pt-BR` (any case, `_` for `-`).
    pub fn from_tag(tag: &str) -> Option<Language> {
        Language::ALL
            .into_iter()
            .find(|language| language.tag().eq_ignore_ascii_case(&tag.replace('_', "-")))
    }

    fn catalogue(self) -> &'static str {
        match self {
            Language::English => include_str!("catalogue/en.ftl"),
            Language::BrazilianPortuguese => include_str!("catalogue/pt-BR.ftl"),
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

static PROCESS: OnceLock<Language> = OnceLock::new();

thread_local! {
    static THREAD: Cell<Option<Language>> = const { Cell::new(None) };
}

/// Makes `language` the one this process speaks. The first call wins: a process speaks one
/// language.
pub fn set_for_process(language: Language) {
    let _ = PROCESS.set(language);
}

/// Makes this thread speak `language`, whatever the process speaks: a window draws in the
/// language its request names (the tests draw windows in both languages side by side).
pub fn set_for_thread(language: Language) {
    THREAD.with(|current| current.set(Some(language)));
}

/// The language messages are formatted in on this thread.
pub fn current() -> Language {
    THREAD
        .with(Cell::get)
        .or_else(|| PROCESS.get().copied())
        .unwrap_or_default()
}

/// The catalogue of `language`, parsed on first use.
fn bundle(language: Language) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: [OnceLock<FluentBundle<FluentResource>>; 2] =
        [OnceLock::new(), OnceLock::new()];
    let index = Language::ALL
        .iter()
        .position(|known| *known == language)
        .unwrap_or(0);
    BUNDLES[index].get_or_init(|| build(language))
}

fn build(language: Language) -> FluentBundle<FluentResource> {
    let id = language
        .tag()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // The windows and terminals show left-to-right text only; Unicode isolation marks would be
    // drawn as boxes by egui.
    bundle.set_use_isolating(false);
    // A catalogue that does not parse is caught by the tests; whatever parsed is still used.
    let resource = match FluentResource::try_new(language.catalogue().to_string()) {
        Ok(resource) | Err((resource, _)) => resource,
    };
    let _ = bundle.add_resource(resource);
    bundle
}

/// The message `key` in the current language, with `args`. A key missing from that
/// catalogue falls back to English, and one missing there too to the key itself; the tests
/// make sure neither happens.
pub fn format(key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    format_in(current(), key, args)
}

/// [`format`] in a given language.
pub fn format_in(language: Language, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    [language, Language::English]
        .into_iter()
        .find_map(|language| format_strictly(language, key, args).ok())
        .unwrap_or_else(|| key.to_string())
}

/// `key` in `language` alone, with no fallback: the formatted text, or what went wrong.
pub(crate) fn format_strictly(
    language: Language,
    key: &str,
    args: &[(&str, FluentValue<'_>)],
) -> Result<String, String> {
    let bundle = bundle(language);
    let pattern = bundle
        .get_message(key)
        .and_then(|message| message.value())
        .ok_or_else(|| format!("no message {key}"))?;
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    let args = (!args.is_empty()).then_some(&fluent_args);
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, args, &mut errors);
    if errors.is_empty() {
        Ok(text.into_owned())
    } else {
        Err(format!("{errors:?}"))
    }
}

/// A message of the catalogues in the current language, by its key alone or with named
/// arguments (`name = value`), each a string or a number.
#[macro_export]
macro_rules! tr {
    ($key:literal) => {
        $crate::language::format($key, &[])
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::language::format(
            $key,
            &[$((stringify!($name), $crate::language::value($value))),+],
        )
    };
}

/// A message without arguments named once and shown in several places: a button or field
/// label that the view draws and the tests and the window driver look up by its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label(pub &'static str);

impl Label {
    /// The label in the current language.
    pub fn text(self) -> String {
        format(self.0, &[])
    }
}

/// The label in the current language.
impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

/// A message argument: strings and numbers.
pub fn value<'a>(value: impl Into<FluentValue<'a>>) -> FluentValue<'a> {
    value.into()
}

/// The keys of a catalogue, with the names of the arguments each uses, for the tests.
#[cfg(test)]
pub(crate) fn catalogue_keys(
    language: Language,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    use fluent_syntax::ast;
    let resource = match FluentResource::try_new(language.catalogue().to_string()) {
        Ok(resource) => resource,
        Err((_, errors)) => panic!("{language}: the catalogue does not parse: {errors:?}"),
    };
    let mut keys = std::collections::BTreeMap::new();
    for entry in resource.entries() {
        if let ast::Entry::Message(message) = entry {
            let mut names = std::collections::BTreeSet::new();
            if let Some(pattern) = &message.value {
                variables(pattern, &mut names);
            }
            keys.insert(message.id.name.to_string(), names);
        }
    }
    keys
}

#[cfg(test)]
fn variables(
    pattern: &fluent_syntax::ast::Pattern<&str>,
    names: &mut std::collections::BTreeSet<String>,
) {
    use fluent_syntax::ast::{Expression, InlineExpression, PatternElement};
    fn inline(expression: &InlineExpression<&str>, names: &mut std::collections::BTreeSet<String>) {
        if let InlineExpression::VariableReference { id } = expression {
            names.insert(id.name.to_string());
        }
    }
    for element in &pattern.elements {
        let PatternElement::Placeable { expression } = element else {
            continue;
        };
        match expression {
            Expression::Inline(expression) => inline(expression, names),
            Expression::Select { selector, variants } => {
                inline(selector, names);
                for variant in variants {
                    variables(&variant.value, names);
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;

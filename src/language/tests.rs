use std::collections::BTreeSet;
use std::path::Path;

use super::choose::{choose_with, from_locale};
use super::*;

#[test]
fn every_message_is_in_both_languages_with_the_same_arguments() {
    let english = catalogue_keys(Language::English);
    let portuguese = catalogue_keys(Language::BrazilianPortuguese);
    let only_english: Vec<&String> = english
        .keys()
        .filter(|key| !portuguese.contains_key(*key))
        .collect();
    let only_portuguese: Vec<&String> = portuguese
        .keys()
        .filter(|key| !english.contains_key(*key))
        .collect();
    assert!(
        only_english.is_empty(),
        "missing from pt-BR.ftl: {only_english:?}"
    );
    assert!(
        only_portuguese.is_empty(),
        "missing from en.ftl: {only_portuguese:?}"
    );
    for (key, arguments) in &english {
        assert_eq!(
            arguments, &portuguese[key],
            "{key}: the two languages take other arguments"
        );
    }
}

/// Every `tr!("…")` and `Label("…")` call in the sources: its key, the argument names it
/// passes, and where it is.
fn calls() -> Vec<(String, BTreeSet<String>, String)> {
    let key = regex::Regex::new(r#"^\s*"([a-z0-9-]+)""#).unwrap();
    let argument = regex::Regex::new(r",\s*([a-z_]+)\s*=[^=]").unwrap();
    let mut found_calls = Vec::new();
    let mut pending = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            if path.extension().is_none_or(|extension| extension != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for opening in ["tr!(", "Label("] {
                for (start, _) in text.match_indices(opening) {
                    let call = balanced(&text[start + opening.len()..]);
                    let Some(found) = key.captures(call) else {
                        continue;
                    };
                    let names = argument
                        .captures_iter(call)
                        .map(|name| name[1].to_string())
                        .collect();
                    let line = text[..start].lines().count();
                    found_calls.push((
                        found[1].to_string(),
                        names,
                        format!("{}:{line}", path.display()),
                    ));
                }
            }
        }
    }
    found_calls
}

/// The text up to the parenthesis that closes the one just opened.
fn balanced(text: &str) -> &str {
    let mut depth = 0usize;
    for (index, character) in text.char_indices() {
        match character {
            '(' => depth += 1,
            ')' if depth == 0 => return &text[..index],
            ')' => depth -= 1,
            _ => {}
        }
    }
    text
}

#[test]
fn every_message_is_used_and_every_use_has_a_message() {
    let catalogue = catalogue_keys(Language::English);
    let calls = calls();
    let used: BTreeSet<&String> = calls.iter().map(|(key, _, _)| key).collect();
    let unused: Vec<&String> = catalogue.keys().filter(|key| !used.contains(key)).collect();
    assert!(
        unused.is_empty(),
        "in the catalogues but never used: {unused:?}"
    );
    for (key, passed, at) in &calls {
        let Some(wanted) = catalogue.get(key) else {
            panic!("{at}: {key} is in no catalogue");
        };
        // Each call on its own: one that forgets an argument prints the bare key.
        assert!(
            wanted.is_subset(passed),
            "{at}: {key} is given {passed:?}, its message uses {wanted:?}"
        );
    }
}

/// Each catalogue on its own (no fallback to English can hide an error), and every branch of
/// every selector: each argument takes in turn the numbers and words the code passes.
#[test]
fn every_message_formats_in_both_languages() {
    let samples = || {
        [
            FluentValue::from(0),
            FluentValue::from(1),
            FluentValue::from(2),
            FluentValue::from("yes"),
            FluentValue::from("no"),
            FluentValue::from("setups"),
            FluentValue::from("origin"),
        ]
    };
    for language in Language::ALL {
        for (key, arguments) in catalogue_keys(language) {
            for sample in samples() {
                let args: Vec<(&str, FluentValue<'_>)> = arguments
                    .iter()
                    .map(|name| (name.as_str(), sample.clone()))
                    .collect();
                let text = format_strictly(language, &key, &args)
                    .unwrap_or_else(|error| panic!("{language}: {key}: {error}"));
                assert!(
                    !text.contains('{'),
                    "{language}: {key} left a placeable: {text}"
                );
            }
        }
    }
}

/// `key` with `count`, and `name` set to `value`, in `language` alone.
fn counted(language: Language, key: &str, count: u32, name: &str, value: &str) -> String {
    let args = [
        ("count", FluentValue::from(count)),
        (name, FluentValue::from(value)),
    ];
    format_strictly(language, key, &args).unwrap()
}

/// CLDR: English `one` is 1; Portuguese `one` is 0 and 1, so 0 needs a variant of its own.
#[test]
fn plurals_follow_each_language() {
    let (en, pt) = (Language::English, Language::BrazilianPortuguese);
    let filled = |language, count| counted(language, "auth-filled", count, "names", "A");
    assert_eq!(filled(en, 1), "Filled 1 field from the clipboard: A.");
    assert_eq!(filled(en, 2), "Filled 2 fields from the clipboard: A.");
    assert_eq!(
        filled(pt, 1),
        "1 campo preenchido da área de transferência: A."
    );
    assert_eq!(
        filled(pt, 3),
        "3 campos preenchidos da área de transferência: A."
    );
    let exact = |count| counted(pt, "op-exact-group", count, "unused", "");
    assert_eq!(exact(0), "Invocação exata (nenhum argumento)");
    assert_eq!(exact(1), "Invocação exata (1 argumento)");
    assert_eq!(exact(3), "Invocação exata (3 argumentos)");
    let alert = |count, others| counted(pt, "lease-alert", count, "others", others);
    assert!(alert(1, "hml").starts_with("Adicionar mantém hml ativo também"));
    assert!(alert(2, "hml, prd").starts_with("Adicionar mantém hml, prd ativos também"));
}

#[test]
fn a_thread_speaks_its_own_language() {
    let english = std::thread::spawn(|| tr!("action-deny")).join().unwrap();
    assert_eq!(english, "Deny");
    let portuguese = std::thread::spawn(|| {
        set_for_thread(Language::BrazilianPortuguese);
        tr!("op-allowed-for", duration = "2 min")
    })
    .join()
    .unwrap();
    assert_eq!(portuguese, "👍 Acesso autorizado por 2 min.");
}

/// An environment of these pairs, as the functions that read variables take it.
pub(crate) fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        pairs
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.to_string())
    }
}

#[test]
fn torii_lang_then_settings_then_the_locale_then_english() {
    let pt = Language::BrazilianPortuguese;
    let en = Language::English;
    type Case<'a> = (&'a [(&'a str, &'a str)], Option<Language>, Language);
    let cases: [Case<'_>; 9] = [
        (
            &[("TORII_LANG", "pt-BR"), ("LANG", "en_US.UTF-8")],
            Some(en),
            pt,
        ),
        (&[("TORII_LANG", "en")], Some(pt), en),
        (&[("TORII_LANG", "pt_br")], None, pt),
        (&[("TORII_LANG", ""), ("LANG", "pt_BR.UTF-8")], None, pt),
        (&[("LANG", "pt_BR.UTF-8")], Some(en), en),
        (
            &[("LC_ALL", "pt_BR.UTF-8"), ("LANG", "en_US.UTF-8")],
            None,
            pt,
        ),
        (&[("LC_MESSAGES", "en_GB"), ("LANG", "pt_BR")], None, en),
        (&[("LANG", "de_DE.UTF-8")], None, en),
        (&[], None, en),
    ];
    for (pairs, configured, expected) in cases {
        let chosen = choose_with(configured, &env(pairs)).unwrap();
        #[cfg(unix)]
        assert_eq!(chosen, expected, "{pairs:?} {configured:?}");
        #[cfg(not(unix))]
        let _ = (chosen, expected);
    }
}

#[test]
fn an_unknown_torii_lang_is_an_error_naming_it() {
    let error = choose_with(None, &env(&[("TORII_LANG", "fr")])).unwrap_err();
    assert_eq!(error.to_string(), "TORII_LANG is `fr`: use `en` or `pt-BR`");
}

#[test]
fn locale_names() {
    let pt = Some(Language::BrazilianPortuguese);
    let en = Some(Language::English);
    for (locale, expected) in [
        ("pt_BR.UTF-8", pt),
        ("pt-BR", pt),
        ("pt_PT@euro", pt),
        ("en_US.UTF-8", en),
        ("C", en),
        ("POSIX", en),
        ("C.UTF-8", en),
        ("ja_JP", None),
    ] {
        assert_eq!(from_locale(locale), expected, "{locale}");
    }
    assert_eq!(Language::from_tag("PT-br"), pt);
    assert_eq!(Language::from_tag("english"), None);
}

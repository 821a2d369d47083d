//! Which language a process speaks.

use super::Language;

/// Names the language of one process, over `settings.yaml`: `en` or `pt-BR`.
pub const LANGUAGE_ENV: &str = "TORII_LANG";

/// `TORII_LANG` names no language Torii speaks.
#[derive(Debug, thiserror::Error)]
#[error("{LANGUAGE_ENV} is `{value}`: use `en` or `pt-BR`")]
pub struct LanguageError {
    value: String,
}

/// The language of this process: `TORII_LANG`, else `configured` (`settings.yaml`
/// `language`), else the system's locale, else English.
pub fn choose(configured: Option<Language>) -> Result<Language, LanguageError> {
    choose_with(configured, &|name| std::env::var(name).ok())
}

/// [`choose`] with the environment read through `env`.
pub(super) fn choose_with(
    configured: Option<Language>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Language, LanguageError> {
    let set = |name: &str| env(name).filter(|value| !value.is_empty());
    if let Some(value) = set(LANGUAGE_ENV) {
        return Language::from_tag(&value).ok_or(LanguageError { value });
    }
    Ok(configured
        .or_else(|| system_locale(&set).as_deref().and_then(from_locale))
        .unwrap_or(Language::English))
}

/// The first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set, as POSIX orders them.
#[cfg(unix)]
fn system_locale(set: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    ["LC_ALL", "LC_MESSAGES", "LANG"].into_iter().find_map(set)
}

/// The user's UI language.
#[cfg(not(unix))]
fn system_locale(_set: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    sys_locale::get_locale()
}

/// The language of a locale name: `pt_BR.UTF-8`, `pt-BR`, `pt` (any Portuguese: the
/// Brazilian catalogue is the closest Torii has) or `en_US`; `C` and `POSIX` are English.
pub(super) fn from_locale(locale: &str) -> Option<Language> {
    let language = locale
        .split(['_', '-', '.', '@'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match language.as_str() {
        "pt" => Some(Language::BrazilianPortuguese),
        "en" | "c" | "posix" => Some(Language::English),
        _ => None,
    }
}

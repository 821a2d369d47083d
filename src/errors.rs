//! Error chains for people: an error and its causes on one line, `error: cause: cause`.
//!
//! The convention this relies on: an error's `Display` never repeats its `source()`. A type
//! either keeps its cause as a `#[source]` and leaves it out of its message, or writes the cause
//! into its message and does not expose it as a source; `#[error(transparent)]` is both at once.

/// `error` and every cause below it, joined by `: `.
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::chain;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read /r/settings.yaml")]
    struct Read(#[source] std::io::Error);

    #[derive(Debug, thiserror::Error)]
    enum Outer {
        #[error(transparent)]
        Read(#[from] Read),
    }

    #[test]
    fn every_cause_is_printed_once_in_order() {
        let error = Outer::from(Read(std::io::Error::other("permission denied")));
        assert_eq!(
            chain(&error),
            "cannot read /r/settings.yaml: permission denied"
        );
    }

    /// The printer no longer hides a cause whose text happens to appear earlier.
    #[test]
    fn a_cause_is_printed_even_when_its_text_appeared_before() {
        let error = Read(std::io::Error::other("settings.yaml"));
        assert_eq!(chain(&error), "cannot read /r/settings.yaml: settings.yaml");
    }
}

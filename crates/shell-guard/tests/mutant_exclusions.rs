//! `.cargo/mutants.toml` excludes some equivalent mutants of this crate by their position
//! (`src/word.rs:268:49: replace \+ with - in has_pattern`). A position that no longer names the
//! operator it excludes would silently exclude nothing, or something else: each must still
//! point at that operator.

#[test]
fn every_positional_exclusion_names_its_operator() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = std::fs::read_to_string(root.join("../../.cargo/mutants.toml")).unwrap();
    let mut checked = 0;
    for line in config.lines().map(str::trim) {
        let Some(rest) = line
            .strip_prefix("'shell-guard/src/")
            .and_then(|rest| rest.strip_suffix("',"))
        else {
            continue;
        };
        let mut parts = rest.splitn(4, ':');
        let (Some(file), Some(number), Some(column), Some(what)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(number), Ok(column)) = (number.parse::<usize>(), column.parse::<usize>()) else {
            continue;
        };
        let operator = what
            .trim_start()
            .strip_prefix("replace ")
            .and_then(|what| what.split(" with ").next())
            .unwrap_or_else(|| panic!("{line}: not a `replace … with …` mutant"))
            .replace('\\', "");
        let source = std::fs::read_to_string(root.join("src").join(file)).unwrap();
        let text = source.lines().nth(number - 1).unwrap_or_default();
        let found = text.get(column - 1..column - 1 + operator.len());
        assert_eq!(
            found,
            Some(operator.as_str()),
            "{line}: line {number} of {file} is now `{}`; move the exclusion with the code",
            text.trim()
        );
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} positional exclusions read");
}

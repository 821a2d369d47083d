//! The clipboard button's text: `KEY=value` lines in the shapes shells print them, keeping only
//! the form's declared names. Nothing read here is logged or shown back: values go straight
//! into the (masked) fields.

/// `(name, value)` for every line that sets a declared name, in order (a later line for the
/// same name wins when applied). Accepted shapes, with optional spaces around `=` and a value
/// in matching single or double quotes:
/// `export KEY=value` (sh), `SET KEY=value` (cmd), `$Env:KEY=value` (PowerShell), `KEY=value`.
pub fn parse(text: &str, declared: &[&str]) -> Vec<(String, String)> {
    text.lines()
        .filter_map(parse_line)
        .filter(|(name, _)| declared.contains(&name.as_str()))
        .collect()
}

fn parse_line(line: &str) -> Option<(String, String)> {
    let line = line.trim();
    let rest = strip_prefix_ignore_case(line, "export ")
        .or_else(|| strip_prefix_ignore_case(line, "set "))
        .or_else(|| strip_prefix_ignore_case(line, "$env:"))
        .unwrap_or(line);
    let (name, value) = rest.split_once('=')?;
    let name = name.trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    Some((name.to_string(), unquote(value.trim()).to_string()))
}

fn strip_prefix_ignore_case<'a>(line: &'a str, prefix: &str) -> Option<&'a str> {
    let head = line.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| line.get(prefix.len()..))
        .flatten()
        .map(str::trim_start)
}

fn unquote(value: &str) -> &str {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    const DECLARED: &[&str] = &[
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
    ];

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    #[test]
    fn reads_the_shapes_shells_print() {
        let cases: [(&str, Vec<(String, String)>); 10] = [
            (
                "export AWS_ACCESS_KEY_ID=AKIA1",
                pairs(&[("AWS_ACCESS_KEY_ID", "AKIA1")]),
            ),
            (
                "SET AWS_ACCESS_KEY_ID=AKIA2",
                pairs(&[("AWS_ACCESS_KEY_ID", "AKIA2")]),
            ),
            (
                "set AWS_ACCESS_KEY_ID=AKIA3",
                pairs(&[("AWS_ACCESS_KEY_ID", "AKIA3")]),
            ),
            (
                "$Env:AWS_ACCESS_KEY_ID=\"AKIA4\"",
                pairs(&[("AWS_ACCESS_KEY_ID", "AKIA4")]),
            ),
            (
                "$env:AWS_ACCESS_KEY_ID = 'AKIA5'",
                pairs(&[("AWS_ACCESS_KEY_ID", "AKIA5")]),
            ),
            (
                "AWS_ACCESS_KEY_ID=AKIA6",
                pairs(&[("AWS_ACCESS_KEY_ID", "AKIA6")]),
            ),
            (
                "  export   AWS_SESSION_TOKEN=\"a=b==\"  ",
                pairs(&[("AWS_SESSION_TOKEN", "a=b==")]),
            ),
            // Undeclared names, comments, blank lines and lines without `=` are ignored.
            ("export HOME=/root\n# AWS_ACCESS_KEY_ID=x\n\nhello", vec![]),
            ("\"AWS_ACCESS_KEY_ID\"=x", vec![]),
            // Mismatched quotes stay as they are.
            (
                "AWS_ACCESS_KEY_ID=\"half",
                pairs(&[("AWS_ACCESS_KEY_ID", "\"half")]),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(text, DECLARED), expected, "{text:?}");
        }
    }

    #[test]
    fn a_block_of_several_lines() {
        let text = "[default]\r\nexport AWS_ACCESS_KEY_ID=A\r\nexport AWS_SECRET_ACCESS_KEY=S\r\nexport AWS_REGION=us-east-1\r\n";
        assert_eq!(
            parse(text, DECLARED),
            pairs(&[("AWS_ACCESS_KEY_ID", "A"), ("AWS_SECRET_ACCESS_KEY", "S")])
        );
    }
}

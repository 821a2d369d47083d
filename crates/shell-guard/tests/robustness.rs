//! `check` never panics, never overflows the stack and stays fast, whatever the input.
//!
//! Tests run on threads with 2 MiB of stack, like tokio's workers: a stack overflow aborts the
//! whole test binary, which fails the run.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use shell_guard::{Guard, GuardError, MAX_SCRIPT_BYTES};

fn guard() -> Guard {
    Guard::new(["kubectl", "aws", "az", "snow", "/opt/tools/terraform"])
}

/// Pieces of shell syntax, for inputs that reach deep into the parser.
const PIECES: &[&str] = &[
    "kubectl",
    " ",
    "\n",
    ";",
    "&",
    "&&",
    "|",
    "||",
    "(",
    ")",
    "{",
    "}",
    "$(",
    "${",
    "$((",
    "))",
    "`",
    "'",
    "\"",
    "\\",
    "$'",
    "$\"",
    "<(",
    ">(",
    "<<",
    "<<-",
    "<<<",
    "EOF",
    ">",
    "<",
    "2>&1",
    "#",
    "=",
    "x=",
    "*",
    "?",
    "[",
    "]",
    ",",
    "..",
    "~",
    "$",
    "@",
    "!",
    "if",
    "then",
    "fi",
    "case",
    "in",
    "esac",
    "for",
    "do",
    "done",
    "while",
    "[[",
    "]]",
    "sh",
    "-c",
    "env",
    "-S",
    "sudo",
    "--",
    "eval",
    "pwsh",
    "-Command",
    "cmd",
    "/c",
    "xargs",
    "-I{}",
    "{}",
    "find",
    "-exec",
    "\\;",
    "%X%",
    "^",
    "$x",
    "\t",
    "é",
    "\u{e000}",
    "0",
    "99999999999",
    "function",
    "f()",
    "coproc",
    "time",
];

fn shellish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|p| p.concat())
}

proptest! {
    // A fixed seed: the suite runs the same inputs every time (a random one found, once, a
    // tokenizer loop; see `empty_heredoc_delimiter`). Explore with PROPTEST_RNG_SEED=random.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(13),
        ..ProptestConfig::default()
    })]

    #[test]
    fn never_panics_on_arbitrary_text(s in "\\PC{0,200}") {
        let _ = guard().check(&s);
    }

    #[test]
    fn never_panics_on_shell_like_text(s in shellish()) {
        let _ = guard().check(&s);
    }

    #[test]
    fn never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = guard().check(&String::from_utf8_lossy(&bytes));
    }
}

/// Inputs built to exhaust stacks or make a backtracking parser explode.
fn pathological() -> Vec<String> {
    let units = [
        "(",
        "( ",
        "((",
        "$(",
        "\"$(",
        "${a:-",
        "${",
        "$((",
        "$[",
        "{ ",
        "if a; then ",
        "`",
        "<(",
        "'",
        "\"",
        "\\",
        "a[",
        "$'",
        "eval ",
        "sh -c ",
        "sudo ",
        "env ",
        "x=$(",
        "$(( (",
        "$((echo ",
        "case a in a) ",
        "while a; do ",
        "f() ",
        "[[ ( ",
        "! ",
        "time ",
        "a | ",
        "a && ",
        "<<E\n",
        "echo \"",
        "@(",
        "\"`",
        "$(echo ')'",
    ];
    let mut inputs = Vec::new();
    for unit in units {
        for n in [8, 13, 20, 40, 200, 2000, 30_000] {
            let open = unit.repeat(n);
            if open.len() > MAX_SCRIPT_BYTES {
                continue;
            }
            inputs.push(open.clone());
            inputs.push(format!("{open}kubectl"));
            let close: String = unit
                .chars()
                .rev()
                .map(|c| match c {
                    '(' => ')',
                    '{' => '}',
                    '[' => ']',
                    c => c,
                })
                .collect::<String>()
                .repeat(n);
            let balanced = format!("{open}kubectl{close}");
            if balanced.len() <= MAX_SCRIPT_BYTES {
                inputs.push(balanced);
            }
        }
    }
    // A computed editor value is read for what its expansions may put there; within single
    // quotes its `${` nest without bound.
    for unit in ["${a:-", "${a/b/", "${a:=x${"] {
        for n in [2000, 30_000] {
            inputs.push(format!("EDITOR=$X'{}kubectl' git commit", unit.repeat(n)));
        }
    }
    // Long text after many open patterns; many commands, each read on its own.
    inputs.push(format!(
        "EDITOR=$X'{}{} kubectl' git commit",
        "${a/".repeat(4000),
        "x".repeat(44_000)
    ));
    for unit in ["a;", ";", "a\n", "[ ;"] {
        inputs.push(format!(
            "EDITOR=$X'{}kubectl' git commit",
            unit.repeat(30_000)
        ));
    }
    inputs
}

#[test]
fn pathological_inputs_are_answered_quickly() -> Result<(), String> {
    let worker = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let guard = guard();
            let mut slow = Vec::new();
            for input in pathological() {
                let start = Instant::now();
                let _ = guard.check(&input);
                let elapsed = start.elapsed();
                // Generous for an unoptimised build on a loaded machine.
                if elapsed > Duration::from_secs(3) {
                    let shown: String = input.chars().take(40).collect();
                    slow.push(format!("{elapsed:?} for {} bytes: {shown:?}…", input.len()));
                }
            }
            slow
        })
        .map_err(|e| e.to_string())?;
    let slow = worker
        .join()
        .map_err(|_| "the worker panicked".to_owned())?;
    if slow.is_empty() {
        Ok(())
    } else {
        Err(format!("slow inputs:\n{}", slow.join("\n")))
    }
}

#[test]
fn too_long_is_an_error() {
    let long = "a".repeat(MAX_SCRIPT_BYTES + 1);
    assert!(matches!(
        guard().check(&long),
        Err(GuardError::TooLong { .. })
    ));
    let ok = format!("{}\nkubectl", "ls\n".repeat((MAX_SCRIPT_BYTES - 8) / 3));
    assert!(matches!(guard().check(&ok), Ok(Some(_))));
}

#[test]
fn a_hit_wins_over_an_error() {
    assert!(matches!(guard().check("$X; kubectl get pods"), Ok(Some(_))));
    assert!(guard().check("$X; ls").is_err());
}

#[test]
fn protected_names_are_normalised() {
    let guard = Guard::new(["/usr/local/bin/kubectl", r"C:\tools\AZ.cmd", "", "kubectl"]);
    assert_eq!(guard.programs().collect::<Vec<_>>(), ["kubectl", "AZ"]);
    assert!(matches!(
        guard.check("az login"),
        Ok(Some(hit)) if hit.program == "AZ" && hit.word == "az"
    ));
}

#[test]
fn powershell_and_cmd_command_lines() {
    use shell_guard::Shell;
    let guard = guard();
    let program =
        |shell: Shell, line: &str| guard.check_as(shell, line).map(|h| h.map(|h| h.program));
    let kubectl = Ok(Some("kubectl".to_owned()));
    assert_eq!(program(Shell::PowerShell, "kubectl get pods"), kubectl);
    assert_eq!(
        program(
            Shell::PowerShell,
            "Get-ChildItem; & 'C:\\tools\\kubectl.exe' get pods"
        ),
        kubectl
    );
    assert_eq!(
        program(
            Shell::PowerShell,
            "$pods = (kubectl get pods -o json) | ConvertFrom-Json"
        ),
        kubectl
    );
    assert_eq!(program(Shell::PowerShell, "Write-Output kubectl"), Ok(None));
    assert_eq!(program(Shell::PowerShell, "$x = 1; $x"), Ok(None));
    assert!(program(Shell::PowerShell, "& $tool get pods").is_err());
    assert_eq!(
        program(Shell::PowerShell, "bash -c 'kubectl get pods'"),
        kubectl
    );
    assert_eq!(program(Shell::Cmd, "dir && kubectl get pods"), kubectl);
    assert_eq!(program(Shell::Cmd, "echo kubectl"), Ok(None));
    assert!(program(Shell::Cmd, "%TOOL% get pods").is_err());
}

#[test]
fn a_guard_protecting_nothing_allows_everything() {
    assert_eq!(
        Guard::new(Vec::<String>::new()).check("$EDITOR x"),
        Ok(None)
    );
}

#[test]
fn a_gate_lets_through_the_uses_it_does_not_block() {
    // Blocked unless the first argument is known and is `doctor`.
    let guard = guard().gated(
        "torii",
        |args| !matches!(args.first(), Some(Some(first)) if first == "doctor"),
    );
    let program = |line: &str| guard.check(line).map(|h| h.map(|h| h.program));
    assert_eq!(program("torii doctor"), Ok(None));
    assert_eq!(program("env torii doctor --verbose"), Ok(None));
    assert_eq!(program("sh -c 'torii doctor'"), Ok(None));
    let torii = Ok(Some("torii".to_owned()));
    assert_eq!(program("torii target activate kubectl prod"), torii);
    assert_eq!(program("env torii \"$CMD\""), torii);
    // The gate only decides for the gated program.
    assert_eq!(program("kubectl doctor"), Ok(Some("kubectl".to_owned())));
}

#[test]
fn gating_adds_no_program_already_protected_or_unnamed() {
    // A program already protected stays listed once (and ungated); so does one gated twice.
    let guard = guard()
        .gated("kubectl", |_| false)
        .gated("torii", |_| true)
        .gated("/usr/bin/torii", |_| false);
    let programs: Vec<&str> = guard.programs().collect();
    assert_eq!(
        programs,
        ["kubectl", "aws", "az", "snow", "terraform", "torii"]
    );
    assert_eq!(
        guard
            .check("kubectl get pods")
            .map(|h| h.map(|h| h.program)),
        Ok(Some("kubectl".to_owned()))
    );
    // A name with no final component protects nothing: the guard still allows everything.
    let nothing = Guard::new(Vec::<String>::new())
        .gated("", |_| true)
        .gated("/usr/bin/", |_| true);
    assert_eq!(nothing.programs().count(), 0);
    assert_eq!(nothing.check("$EDITOR x"), Ok(None));
}

#[test]
fn a_hit_reports_the_command_word_as_written() {
    // zsh's `=cmd` names the program `cmd`; `==…` is no such expansion and stays as written
    // (bash runs the file `kubectl` in a directory `==`).
    let word = |line: &str| guard().check(line).map(|h| h.map(|h| h.word));
    assert_eq!(word("=kubectl get pods"), Ok(Some("kubectl".to_owned())));
    assert_eq!(
        word("==/usr/bin/kubectl get pods"),
        Ok(Some("==/usr/bin/kubectl".to_owned()))
    );
}

#[test]
fn the_length_limit_is_64_kib_exactly() {
    use shell_guard::Shell;
    let guard = guard();
    // Written out rather than taken from MAX_SCRIPT_BYTES, so a change of the limit shows.
    let line = |len: usize| {
        let command = "kubectl get pods";
        format!("{}{command}", " ".repeat(len - command.len()))
    };
    let at_limit = line(64 * 1024);
    let over = line(64 * 1024 + 1);
    assert!(matches!(guard.check(&at_limit), Ok(Some(hit)) if hit.program == "kubectl"));
    assert_eq!(
        guard.check(&over),
        Err(GuardError::TooLong {
            len: 64 * 1024 + 1,
            limit: 64 * 1024
        })
    );
    // `inspect` keeps the same limit, for every dialect (the foreign splitter has no limit
    // of its own).
    let inspection = guard.inspect(Shell::Posix, &at_limit);
    assert!(matches!(inspection.verdict, Ok(Some(_))));
    assert!(!inspection.words.is_empty());
    let ps_over = line(64 * 1024 + 1).replace("kubectl get pods", "Write-Output x;ls");
    for shell in [Shell::Posix, Shell::PowerShell, Shell::Cmd] {
        let inspection = guard.inspect(shell, &ps_over);
        assert!(
            matches!(inspection.verdict, Err(GuardError::TooLong { .. })),
            "{shell:?}: {:?}",
            inspection.verdict
        );
        assert!(inspection.words.is_empty());
    }
}

#[test]
fn an_oversized_descriptor_is_refused_before_the_parser_sees_it() {
    // brush-parser panics on it; the guard must refuse it itself rather than rely on catching
    // that panic (which a `panic = "abort"` build could not).
    let result = guard().check("99999999999>x");
    assert!(
        matches!(&result, Err(GuardError::Syntax(m)) if m.contains("descriptor")),
        "{result:?}"
    );
}

#[test]
fn a_dash_here_document_without_delimiter_is_refused_promptly() {
    // brush-parser's tokenizer loops for ever on `$(<<- (#`.
    let result = answer_soon("echo $(<<- (#").expect("no answer within 20 s");
    assert!(matches!(result, Err(GuardError::Syntax(_))), "{result:?}");
}

#[test]
fn powershell_and_cmd_separators_and_quotes() {
    use shell_guard::Shell;
    let guard = guard();
    let program =
        |shell: Shell, line: &str| guard.check_as(shell, line).map(|h| h.map(|h| h.program));
    let kubectl = Ok(Some("kubectl".to_owned()));
    // `^` is cmd's escape only: in PowerShell the `;` after it still ends the command.
    assert_eq!(
        program(Shell::PowerShell, "echo ^; kubectl get pods"),
        kubectl
    );
    // `||` glued to both commands.
    assert_eq!(program(Shell::Cmd, "dir||kubectl get pods"), kubectl);
    assert_eq!(
        program(Shell::PowerShell, "Get-Date||kubectl get pods"),
        kubectl
    );
    // A doubled quote inside double quotes is one quote, and the string ends at the next one.
    assert_eq!(
        program(
            Shell::PowerShell,
            "Write-Output \"a\"\"b\"; kubectl get pods"
        ),
        kubectl
    );
    assert_eq!(
        program(Shell::Cmd, "echo \"a\"\"b\" & kubectl get pods"),
        kubectl
    );
    // A backquote escape inside double quotes takes one character: `` `" `` does not end the
    // string, and what follows the string is still read.
    assert_eq!(
        program(
            Shell::PowerShell,
            "Write-Output \"a`\"b\"; kubectl get pods"
        ),
        kubectl
    );
    assert_eq!(
        program(Shell::PowerShell, "Write-Output \"`n\"; kubectl get pods"),
        kubectl
    );
    // `${…}` and `$name` are variables; the commands after them are still seen.
    assert_eq!(
        program(Shell::PowerShell, "Write-Output ${x}; kubectl get pods"),
        kubectl
    );
    assert_eq!(
        program(
            Shell::PowerShell,
            "Write-Output $(Get-Date); kubectl get pods"
        ),
        kubectl
    );
    assert_eq!(
        program(
            Shell::PowerShell,
            "& ${env:ProgramFiles}\\kubectl\\kubectl.exe get pods"
        ),
        kubectl
    );
    // With delayed expansion on, cmd removes a `!` that closes no `!NAME!` (`kube!!ctl` runs
    // `kubectl`), and expands `!NAME!` inside double quotes too: the guard cannot know whether
    // it is on, so a command word with a `!` cannot be known. In an argument it is no matter.
    for line in [
        "kubectl!! get pods",
        "!kubectl get pods",
        "kube!X!ctl get pods",
        "\"kube!X!ctl\" get pods",
        "!! & dir",
    ] {
        assert!(
            matches!(
                program(Shell::Cmd, line),
                Err(GuardError::DynamicProgram { .. })
            ),
            "{line}: {:?}",
            program(Shell::Cmd, line)
        );
    }
    assert_eq!(program(Shell::Cmd, "echo Hello! & dir"), Ok(None));
    assert_eq!(
        program(Shell::Cmd, "echo \"a!b\" & kubectl get pods"),
        kubectl
    );
}

#[test]
fn powershell_subexpressions_nest_16_levels_deep() {
    use shell_guard::Shell;
    let guard = guard();
    // Written out rather than taken from MAX_NESTING, so a change of the limit shows.
    let nested = |levels: usize| {
        let mut line = "kubectl get pods".to_owned();
        for _ in 0..levels {
            line = format!("Write-Output $({line})");
        }
        line
    };
    let at_limit = guard.check_as(Shell::PowerShell, &nested(16));
    assert!(
        matches!(&at_limit, Ok(Some(hit)) if hit.program == "kubectl"),
        "{at_limit:?}"
    );
    let over = guard.check_as(Shell::PowerShell, &nested(17));
    assert!(matches!(&over, Err(GuardError::TooDeep { .. })), "{over:?}");
}

#[test]
fn a_caller_with_a_small_stack_is_safe() {
    // The guard parses and walks on a stack of its own: a caller's thread with little stack
    // (here 256 KiB) does not overflow, even on constructs nested up to the budget.
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let line = format!("{}kubectl get pods{}", "{ ".repeat(30), "; }".repeat(30));
            guard().check(&line).map(|h| h.map(|h| h.program))
        })
        .expect("spawn");
    let result = worker.join().expect("the worker panicked");
    assert_eq!(result, Ok(Some("kubectl".to_owned())));
}

#[test]
fn eval_reads_its_words_as_sh_c_reads_the_same_string() {
    // `eval WORDS…` runs its words joined with blanks: the command string it analyses is the
    // one `sh -c` gets when given that string, within the same length limit. Computed parts
    // stand in for longer than they are written, so the string can reach the limit while the
    // line does not: right at the limit, eval and sh -c must still agree.
    let guard = guard();
    let string = |pad: usize| format!("kubectl get pods $x $x $x $x {}", "y".repeat(pad));
    let found = |line: &str| matches!(guard.check(line), Ok(Some(hit)) if hit.program == "kubectl");
    let sh_c = |pad: usize| found(&format!("sh -c \"{}\"", string(pad)));
    // The longest padding with which sh -c still finds kubectl.
    let (mut lo, mut hi) = (0, MAX_SCRIPT_BYTES - 64);
    assert!(sh_c(lo) && !sh_c(hi));
    assert!(guard.check(&format!("sh -c \"{}\"", string(hi))).is_err());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if sh_c(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    for pad in [lo, hi] {
        let quoted = format!("eval \"{}\"", string(pad));
        let words = format!("eval {}", string(pad));
        assert_eq!(found(&quoted), sh_c(pad), "{quoted}");
        assert_eq!(found(&words), sh_c(pad), "{words}");
    }
}

/// The guard's answer on `line` (the program it hit), or an error when it takes more than 20 s
/// (a debug build on a loaded machine; the inputs this catches took minutes).
fn answer_soon(
    line: &str,
) -> Result<Result<Option<String>, GuardError>, std::sync::mpsc::RecvTimeoutError> {
    let line = line.to_owned();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(guard().check(&line).map(|h| h.map(|h| h.program)));
    });
    receive.recv_timeout(Duration::from_secs(20))
}

#[test]
fn words_read_two_ways_are_bounded() {
    // Each short `/word` after a launcher is read as a switch and as a program; when it is a
    // launcher itself the work doubled with each (24 of them took minutes).
    let line = format!("rr{} true", " /rr".repeat(200));
    assert!(matches!(
        answer_soon(&line).expect("no answer within 20 s"),
        Err(GuardError::TooDeep { .. }) | Ok(None)
    ));
    let line = format!("rr{} kubectl get pods", " /rr".repeat(3));
    assert_eq!(
        answer_soon(&line).expect("no answer within 20 s"),
        Ok(Some("kubectl".to_owned()))
    );
}

#[test]
fn array_subscripts_are_bounded_across_the_line() {
    // Each word at the nesting limit parses in a fraction of a second; 40 of them took 10 s.
    let word = "y[${a3[${a2[${a1[${a0[0]}]}]}]}]=2";
    let line = vec![word; 40].join("; ");
    assert!(matches!(
        answer_soon(&line).expect("no answer within 20 s"),
        Err(GuardError::TooDeep { .. })
    ));
    // Plain subscripts, however many, are read.
    let line = format!("{} kubectl get pods", "a[${#a[@]}]=x; ".repeat(500));
    assert_eq!(
        answer_soon(&line).expect("no answer within 20 s"),
        Ok(Some("kubectl".to_owned()))
    );
}

#[test]
fn completion_options_after_a_computed_word_are_read() {
    // `compgen $X -C CMD`: a computed word is skipped, and the `-C` after it still runs CMD.
    assert_eq!(
        answer_soon("compgen \"$X\" -C 'kubectl get pods' x").expect("no answer within 20 s"),
        Ok(Some("kubectl".to_owned()))
    );
}

#[test]
fn expansions_in_one_string_are_budgeted_at_4096() {
    // Written out rather than taken from the budget, so a change of the limit shows. At the
    // limit the line is still read (and kubectl found); one more expansion is refused.
    let line = |expansions: usize| format!("echo {}; kubectl get pods", "${a}".repeat(expansions));
    assert_eq!(
        answer_soon(&line(4096)).expect("no answer within 20 s"),
        Ok(Some("kubectl".to_owned()))
    );
    assert!(matches!(
        answer_soon(&line(4097)).expect("no answer within 20 s"),
        Err(GuardError::TooDeep { .. })
    ));
}

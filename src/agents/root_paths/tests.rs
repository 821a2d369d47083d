//! The rules of `root_paths`, case by case.

use super::*;

fn paths() -> RootPaths {
    RootPaths::with(
        Path::new("/home/u/.config/torii"),
        Some(PathBuf::from("/home/u")),
        vec![
            ("HOME", PathBuf::from("/home/u")),
            ("TORII_CONFIG_DIR", PathBuf::from("/home/u/.config/torii")),
        ],
    )
}

fn word(written: &str, value: Option<&str>) -> shell_guard::Word {
    shell_guard::Word {
        written: written.to_string(),
        value: value.map(str::to_string),
    }
}

fn known(text: &str) -> shell_guard::Word {
    word(text, Some(text))
}

const CWD: &str = "/home/u/project";

fn cwd() -> Bases {
    Bases::one(Path::new(CWD))
}

#[test]
fn spellings_of_the_root_reach_it() {
    let paths = paths();
    for (written, value) in [
        (
            "/home/u/.config/torii/grants",
            Some("/home/u/.config/torii/grants"),
        ),
        ("~/.config/torii", None),
        ("\"$HOME\"/.config/torii/providers", None),
        ("${TORII_CONFIG_DIR}/rules.yaml", None),
        ("${HOME%/}/.config/torii/x", None),
        ("${HOME:-/x}/.config/torii/x", None),
        ("${XDG_CONFIG_HOME:-$HOME/.config}/torii/x", None),
        ("\"${XDG_CONFIG_HOME:-~/.config}\"/torii/x", None),
        ("$PWD/../.config/torii/x", None),
        ("$OLDPWD/../.config/torii/x", None),
        ("~+/../.config/torii/x", None),
        ("~-/../.config/torii/x", None),
        ("~1/../.config/torii/x", None),
        ("~u/.config/torii/x", None),
        ("$HOME/.config/$'torii'/x", None),
        ("~/$'\\x2e'config/torii/x", None),
        ("$HOME/$'\\056'config/torii/x", None),
        ("~/.con$@fig/torii/x", None),
        ("$H/.config/$X", None),
        // A replacement's text is written in the line; `$"…"` is a quoted string; text after
        // a computed start ends a name.
        ("\"${HOME%/}/${HOME/*/.config/torii/grants}\"", None),
        ("\"${HOME/%//.config/torii/grants}\"", None),
        ("$\"$HOME\"/.config/torii/grants", None),
        ("\"$(printf %s ~/.conf)ig/torii/grants\"", None),
        ("\"${A}ig/torii/x\"", None),
        ("~/$D/torii", None),
        ("~/.con${X:+}fig/torii/x", None),
        ("../.config/torii/x", Some("../.config/torii/x")),
        (
            "--kubeconfig=/home/u/.config/torii/k",
            Some("--kubeconfig=/home/u/.config/torii/k"),
        ),
        (
            "fileb:///home/u//.config/./torii/a",
            Some("fileb:///home/u//.config/./torii/a"),
        ),
        (
            "-o/home/u/.config/torii/b",
            Some("-o/home/u/.config/torii/b"),
        ),
        (
            "/home/*/.con*/t?rii/grants",
            Some("/home/*/.con*/t?rii/grants"),
        ),
        (
            "/home/u/.c[o]nfig/tor[]i]i/x",
            Some("/home/u/.c[o]nfig/tor[]i]i/x"),
        ),
        (
            "/home/u/@(.config)/torii/x",
            Some("/home/u/@(.config)/torii/x"),
        ),
        ("~/.config", None),
        ("/home/u/.c{onfig,x}/", Some("/home/u/.c{onfig,x}/")),
        (
            "/home/{zzz,u/.config/torii}/x",
            Some("/home/{zzz,u/.config/torii}/x"),
        ),
        ("{~,/x}/.config/torii/x", Some("{~,/x}/.config/torii/x")),
        ("~/.con{f..f}ig/torii/x", Some("~/.con{f..f}ig/torii/x")),
        (
            "/proc/self/cwd/../.config/torii/x",
            Some("/proc/self/cwd/../.config/torii/x"),
        ),
        (
            "/tmp/../home/u/.config/torii",
            Some("/tmp/../home/u/.config/torii"),
        ),
        (
            "os.listdir('/home/u/.config/torii')",
            Some("os.listdir('/home/u/.config/torii')"),
        ),
        (
            "os.system('cat ~/.config/torii/x')",
            Some("os.system('cat ~/.config/torii/x')"),
        ),
        ("a:~/.config/torii/x", Some("a:~/.config/torii/x")),
        (
            "a\n*** Add File: ../.config/torii/x\n",
            Some("a\n*** Add File: ../.config/torii/x\n"),
        ),
    ] {
        assert!(
            paths.word_reaches(&word(written, value), &cwd(), Globs::Shell),
            "{written}"
        );
    }
    let many = format!("~/{{.config,.x}}/torii/x{{{}}}", ",".repeat(300));
    assert!(paths.word_reaches(&known(&many), &cwd(), Globs::Shell));
    assert!(paths.word_reaches(&known("~/*/torii/x"), &cwd(), Globs::Wide));
}

#[test]
fn other_paths_do_not() {
    let paths = paths();
    for (written, value) in [
        ("get", Some("get")),
        ("src/main.rs", Some("src/main.rs")),
        ("src/**/*.rs", Some("src/**/*.rs")),
        ("~", None),
        ("/", Some("/")),
        ("/home/*", Some("/home/*")),
        ("~/*", None),
        ("/home/u/**/grants", Some("/home/u/**/grants")),
        ("~/.config/git/config", None),
        (
            "/home/u/.config/torii-other",
            Some("/home/u/.config/torii-other"),
        ),
        ("$X/grants", None),
        ("\"$HOME\"", None),
        // Every part computed: not seen, as `$X` alone is not (a loop's `cat "$D/$f"`).
        ("\"$DIR/$F\"", None),
        ("\"$SRC$NAME\"", None),
        ("$A/$B/", None),
        ("\"$D\"/*", None),
        ("\"$src\"/*/", None),
    ] {
        assert!(
            !paths.word_reaches(&word(written, value), &cwd(), Globs::Shell),
            "{written}"
        );
    }
    for pattern in ["src/**/*.ts", "tests/**/*.py", "**/*.rs", "*"] {
        assert!(!paths.names_reach(pattern, Path::new(CWD)), "{pattern}");
        assert!(!paths.file_reaches(pattern, Path::new(CWD)), "{pattern}");
    }
}

#[test]
fn a_cd_makes_relative_paths_count_from_there() {
    let paths = paths();
    for line in [
        vec![vec![known("cd"), word("~/.config", None)]],
        vec![vec![known("cd"), known("-P"), known("/home/u/.config")]],
        vec![vec![known("cd")]],
        vec![vec![known("builtin"), known("cd")]],
        vec![
            vec![known("pushd"), known("..")],
            vec![known("cd"), known(".config")],
        ],
    ] {
        let bases = paths.shell_bases(&line, Path::new(CWD)).unwrap();
        let target = if line
            .iter()
            .any(|c| c.len() == 2 && c[1].written == ".config")
            || line[0].len() > 1 && line[0].last().unwrap().written.ends_with(".config")
        {
            known("torii/grants")
        } else {
            known(".config/torii/grants")
        };
        assert!(
            paths.word_reaches(&target, &bases, Globs::Shell),
            "{line:?}"
        );
        assert!(!paths.word_reaches(&target, &cwd(), Globs::Shell));
    }
}

#[test]
fn many_directory_changes_are_bounded() {
    let paths = paths();
    let line: Vec<Vec<shell_guard::Word>> = (0..200)
        .map(|i| vec![known("cd"), known(&format!("../d{i}"))])
        .collect();
    assert_eq!(
        paths.shell_bases(&line, Path::new(CWD)).err(),
        Some(TooManyDirectories)
    );
}

#[test]
fn file_tools_list_names_above_the_root_but_not_inside_it() {
    let paths = paths();
    let home = Path::new("/home/u");
    assert!(!paths.names_reach("*", home));
    assert!(paths.names_reach("**/grants", home));
    assert!(paths.names_reach(".config/torii/*", home));
    assert!(paths.names_reach(".con{f..f}ig/torii/**", home));
    assert!(paths.file_reaches(".config", home));
    assert!(paths.file_reaches("~/.config/torii/x", Path::new("/")));
    assert!(paths.file_reaches("/home/u/.config/torii/providers/x", Path::new("/")));
}

/// 5,000 stars: a backtracking matcher would not finish (the test runner stops it and the
/// test fails); the linear one answers at once.
#[test]
fn a_long_glob_is_matched_in_linear_time() {
    let pattern = format!("/home/u/.{}/torii", "*".repeat(5000));
    assert!(paths().word_reaches(&known(&pattern), &cwd(), Globs::Shell));
}

#[test]
fn ansi_c_quotes_are_decoded() {
    assert_eq!(ansi_c("\\x2econfig"), ".config");
    assert_eq!(ansi_c("\\056x\\n"), ".x\n");
}

#[cfg(unix)]
#[test]
fn links_count_in_paths_and_globs_and_dot_dot_follows_them() {
    let scratch = tempfile::tempdir().unwrap();
    let base = scratch.path().canonicalize().unwrap();
    let root = base.join("home/.config/torii");
    std::fs::create_dir_all(root.join("providers/kubectl")).unwrap();
    std::fs::create_dir_all(base.join("home/project")).unwrap();
    let link = base.join("elsewhere");
    std::os::unix::fs::symlink(&root, &link).unwrap();
    std::os::unix::fs::symlink(base.join("home/project"), base.join("p")).unwrap();
    std::os::unix::fs::symlink(&root, base.join("home/project/clink")).unwrap();
    let paths = RootPaths::with(&root, Some(base.join("home")), Vec::new());
    assert!(paths.file_reaches(
        &link.join("providers/new.yaml").display().to_string(),
        Path::new("/")
    ));
    assert!(paths.file_reaches("elsewhere/providers", &base));
    // `p/..` is the parent of p's target (home), not `base`.
    assert!(paths.file_reaches("p/../.config/torii/x", &base));
    // A glob that matches the link.
    let project = base.join("home/project");
    assert!(paths.word_reaches(
        &known("c*/providers/kubectl"),
        &Bases::one(&project),
        Globs::Shell
    ));
    assert!(paths.names_reach("*/providers/*", &project));
    assert!(!paths.file_reaches("other", &base));
}

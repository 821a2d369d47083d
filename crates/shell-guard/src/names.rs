//! Program names: a path or a command word reduced to what a protected name is compared with.

/// Extensions an executable may carry on Windows (and `.sh` for scripts), dropped before
/// comparing: `kubectl.exe` is `kubectl`.
const EXTENSIONS: [&str; 6] = [".exe", ".cmd", ".bat", ".com", ".ps1", ".sh"];

/// The final path component of `path`, split on `/` and `\`.
pub(crate) fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The final path component less a known extension, in its own case: what a [`crate::Hit`]
/// reports.
pub(crate) fn display_name(path: &str) -> String {
    // Windows ignores trailing dots and spaces in a file name (`kubectl.exe.` is `kubectl.exe`),
    // and `::$DATA` names a file's main stream.
    let trim = |name: &'_ str| -> String {
        let trimmed = name.trim_end_matches(['.', ' ']);
        if trimmed.is_empty() { name } else { trimmed }.to_owned()
    };
    let mut name = trim(file_name(path));
    if name.to_ascii_lowercase().ends_with("::$data") {
        name = trim(name.get(..name.len() - "::$data".len()).unwrap_or_default());
    }
    let name = name.as_str();
    let lower = name.to_ascii_lowercase();
    for ext in EXTENSIONS {
        if lower.len() > ext.len() && lower.ends_with(ext) {
            return name
                .get(..name.len() - ext.len())
                .unwrap_or(name)
                .to_owned();
        }
    }
    name.to_owned()
}

/// The name a command word or a protected program is compared by: [`display_name`], ASCII
/// lower case.
pub(crate) fn normalize(path: &str) -> String {
    display_name(path).to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduces_paths_and_extensions() {
        assert_eq!(normalize("kubectl"), "kubectl");
        assert_eq!(normalize("/usr/local/bin/kubectl"), "kubectl");
        assert_eq!(normalize(r"C:\tools\KubeCtl.EXE"), "kubectl");
        assert_eq!(normalize("az.cmd"), "az");
        assert_eq!(normalize("kubectl.exe."), "kubectl");
        assert_eq!(normalize("kubectl.exe::$DATA"), "kubectl");
        assert_eq!(normalize("kubectl.tar"), "kubectl.tar");
        assert_eq!(normalize(".sh"), ".sh");
        assert_eq!(normalize("dir/"), "");
        assert_eq!(normalize("."), ".");
        assert_eq!(normalize("-"), "-");
        assert_eq!(display_name("/opt/Terraform.exe"), "Terraform");
    }
}

//! When a window may open at all. Headless (`TORII_NO_GUI`) and builds without the `gui`
//! feature never open one: the caller denies (or cancels) without asking.

use std::ffi::OsStr;

/// The environment variable that disables every window.
pub const NO_GUI_ENV: &str = "TORII_NO_GUI";

/// Whether a human can be asked through a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    /// `torii __prompt` can show a window.
    Window,
    /// `TORII_NO_GUI` is set to something other than empty or `0`.
    Headless,
    /// This build has no windows (the `gui` feature is off).
    NoGuiBuild,
}

impl Availability {
    /// Why no human can be asked, worded for the agent; `None` when a window can open. The one
    /// wording of it: a denied call, a refused lease and a cancelled collection all say this.
    pub fn unavailable_reason(self) -> Option<&'static str> {
        match self {
            Availability::Window => None,
            Availability::Headless => Some("no human can be asked (headless: TORII_NO_GUI is set)"),
            Availability::NoGuiBuild => Some("this build of Torii has no approval windows"),
        }
    }
}

/// Reads `TORII_NO_GUI` from the process environment.
pub fn availability() -> Availability {
    availability_from(
        std::env::var_os(NO_GUI_ENV).as_deref(),
        cfg!(feature = "gui"),
    )
}

/// The decision itself, from the value of `TORII_NO_GUI` and whether windows were built in.
pub fn availability_from(no_gui: Option<&OsStr>, gui_built: bool) -> Availability {
    match no_gui {
        Some(value) if !value.is_empty() && value != "0" => Availability::Headless,
        _ if !gui_built => Availability::NoGuiBuild,
        _ => Availability::Window,
    }
}

/// `settings.yaml` `approval`: where a question no rule decides is asked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Approval {
    /// A window where one can open, else an attached `torii console`.
    #[default]
    Auto,
    /// Only a window.
    Window,
    /// Only an attached `torii console`.
    Console,
}

impl Approval {
    pub const ALL: [Approval; 3] = [Approval::Auto, Approval::Window, Approval::Console];

    pub fn as_str(self) -> &'static str {
        match self {
            Approval::Auto => "auto",
            Approval::Window => "window",
            Approval::Console => "console",
        }
    }
}

/// Whether a window would have a display to open on: always on Windows and macOS (a desktop
/// session), on other systems when `WAYLAND_DISPLAY` or `DISPLAY` is set.
pub fn display_present() -> bool {
    cfg!(any(windows, target_os = "macos"))
        || ["WAYLAND_DISPLAY", "DISPLAY"]
            .iter()
            .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_needs_the_feature_and_no_headless_flag() {
        let set = |value: &'static str| Some(OsStr::new(value));
        let cases = [
            (None, true, Availability::Window),
            (set(""), true, Availability::Window),
            (set("0"), true, Availability::Window),
            (set("1"), true, Availability::Headless),
            (set("yes"), true, Availability::Headless),
            (set("false"), true, Availability::Headless),
            (None, false, Availability::NoGuiBuild),
            (set("0"), false, Availability::NoGuiBuild),
            (set("1"), false, Availability::Headless),
        ];
        for (value, built, expected) in cases {
            assert_eq!(
                availability_from(value, built),
                expected,
                "{value:?} {built}"
            );
        }
        assert!(Availability::Window.unavailable_reason().is_none());
        assert!(Availability::Headless.unavailable_reason().is_some());
    }
}

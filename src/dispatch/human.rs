//! The human side of a decision that no rule made: an unresolved operation or an inactive
//! target alias. Without a human available the answer is always deny.
//!
//! `TORII_NO_GUI` set to anything but empty or `0` means headless: no window is ever opened.
//! The approval windows run in a `torii __prompt` subprocess; until that exists in this build,
//! a GUI-enabled server also denies, so nothing unresolved ever crosses by default.

use std::future::Future;
use std::pin::Pin;

use crate::auth::{CollectRequest, Collected, Collector};

/// The environment variable that disables every window.
pub const NO_GUI_ENV: &str = "TORII_NO_GUI";

/// How a human can be asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interface {
    /// `TORII_NO_GUI` is set: deny without asking.
    Headless,
    /// A GUI is allowed but this build has no approval window.
    NoWindow,
}

impl Interface {
    /// Reads `TORII_NO_GUI` from the process environment.
    pub fn from_env() -> Self {
        Self::from_value(std::env::var_os(NO_GUI_ENV).as_deref())
    }

    fn from_value(value: Option<&std::ffi::OsStr>) -> Self {
        match value {
            Some(value) if !value.is_empty() && value != "0" => Interface::Headless,
            _ => Interface::NoWindow,
        }
    }

    /// Why no human could decide, worded for the agent.
    pub fn unavailable_reason(self) -> &'static str {
        match self {
            Interface::Headless => "no human can be asked (headless: TORII_NO_GUI is set)",
            Interface::NoWindow => "no window to ask a human is available in this build of Torii",
        }
    }
}

/// Collects sessions from the human through the interface; without a window every collection
/// is cancelled safely: nothing is persisted and the call gets a clear error.
#[derive(Debug)]
pub struct HumanCollector {
    interface: Interface,
    #[cfg(debug_assertions)]
    responder: Option<super::responder::Responder>,
}

impl HumanCollector {
    pub fn new(interface: Interface) -> Self {
        Self {
            interface,
            #[cfg(debug_assertions)]
            responder: super::responder::Responder::from_env(),
        }
    }
}

impl Collector for HumanCollector {
    fn collect<'a>(
        &'a self,
        request: CollectRequest,
    ) -> Pin<Box<dyn Future<Output = Collected> + Send + 'a>> {
        #[cfg(debug_assertions)]
        if let Some(responder) = &self.responder {
            return Box::pin(responder.collect(request));
        }
        drop(request);
        let reason = self.interface.unavailable_reason().to_string();
        Box::pin(async move { Collected::Cancelled { refused: 0, reason } })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headless_is_any_non_empty_value_but_zero() {
        use std::ffi::OsStr;
        assert_eq!(
            Interface::from_value(Some(OsStr::new("1"))),
            Interface::Headless
        );
        assert_eq!(
            Interface::from_value(Some(OsStr::new("yes"))),
            Interface::Headless
        );
        assert_eq!(
            Interface::from_value(Some(OsStr::new("0"))),
            Interface::NoWindow
        );
        assert_eq!(
            Interface::from_value(Some(OsStr::new(""))),
            Interface::NoWindow
        );
        assert_eq!(Interface::from_value(None), Interface::NoWindow);
    }
}

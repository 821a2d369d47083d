//! `torii reauth <tool> [target]`: the human renews a managed session before a call needs it.
//! Inherited sessions and aws_profile aliases are renewed with the CLI's own flow instead.

use crate::paths::ConfigRoot;

use super::CliError;

pub fn run(tool: &str, target: Option<&str>, root: &ConfigRoot) -> Result<(), CliError> {
    let dispatcher = crate::mcp::build(root)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    runtime
        .block_on(dispatcher.reauth(tool, target))
        .map_err(CliError::Reauth)?;
    crate::console::progress(&crate::tr!("cli-reauth-done", tool = tool));
    Ok(())
}

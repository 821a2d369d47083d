// TEMPORARY local shim until the registry branch merges; never committed.
use std::sync::Arc;
#[derive(Debug, thiserror::Error)]
#[error("x")]
pub struct RegistryError;
pub struct ProviderConfig {
    pub tool: String,
    pub name: String,
    pub command: String,
}
pub struct Provider {
    pub config: ProviderConfig,
}
pub struct Registry {
    providers: Vec<Arc<Provider>>,
}
impl Registry {
    pub fn load(_root: &std::path::Path) -> Result<Self, RegistryError> {
        Ok(Self { providers: vec![] })
    }
    pub fn is_empty(&self) -> bool {
        self.providers.is_empty()
    }
    pub fn providers(&self) -> impl Iterator<Item = &Arc<Provider>> {
        self.providers.iter()
    }
}

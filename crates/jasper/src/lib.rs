//! Jasper: Torii's pure policy engine. It decides whether an argument vector may cross,
//! without processes, environment, credentials or any I/O beyond parsing given text.

pub mod yaml;

//! A permissive YAML value, so the grants reader can judge each entry on its own instead of
//! refusing a whole file for one bad entry. Depth and size are bounded by the decoder (`crate::from_str`).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

#[derive(Debug, Clone, PartialEq)]
pub enum Loose {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
    List(Vec<Loose>),
    Map(Vec<(Loose, Loose)>),
}

impl Loose {
    /// The value of `key` when `self` is a mapping.
    pub fn get(&self, key: &str) -> Option<&Loose> {
        match self {
            Loose::Map(pairs) => pairs
                .iter()
                .find(|(name, _)| matches!(name, Loose::Text(name) if name == key))
                .map(|(_, value)| value),
            _ => None,
        }
    }

    /// A non-negative YAML integer (never a float or a numeric string).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Loose::Unsigned(value) => Some(*value),
            Loose::Signed(value) => u64::try_from(*value).ok(),
            _ => None,
        }
    }

    /// The first key of a mapping that is not in `allowed`, rendered for a message.
    pub fn unknown_key(&self, allowed: &[&str]) -> Option<String> {
        let Loose::Map(pairs) = self else {
            return None;
        };
        pairs.iter().find_map(|(name, _)| match name {
            Loose::Text(name) if allowed.contains(&name.as_str()) => None,
            other => Some(other.to_string()),
        })
    }
}

impl fmt::Display for Loose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loose::Null => f.write_str("null"),
            Loose::Bool(value) => write!(f, "{value}"),
            Loose::Unsigned(value) => write!(f, "{value}"),
            Loose::Signed(value) => write!(f, "{value}"),
            Loose::Float(value) => write!(f, "{value}"),
            Loose::Text(value) => write!(f, "{value:?}"),
            Loose::List(_) => f.write_str("a list"),
            Loose::Map(_) => f.write_str("a mapping"),
        }
    }
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Loose, D::Error> {
        Loose::deserialize(deserializer)
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Loose, E> {
        Ok(Loose::Bool(value))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Loose, E> {
        Ok(Loose::Unsigned(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Loose, E> {
        Ok(Loose::Signed(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Loose, E> {
        Ok(Loose::Float(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Loose, E> {
        Ok(Loose::Text(value.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Loose::List(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
        let mut pairs = Vec::new();
        while let Some(pair) = map.next_entry()? {
            pairs.push(pair);
        }
        Ok(Loose::Map(pairs))
    }
}

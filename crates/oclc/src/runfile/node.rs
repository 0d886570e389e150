//! A TOML document as a tree whose values and keys keep their byte spans, so that every
//! run-file error can point at a line and column.
//!
//! The `toml` crate hands out spans through `toml::Spanned`'s private serde protocol; the
//! deserializer here speaks that protocol directly and also accepts plain (span-less) values,
//! which the TOML reader produces for implicitly created tables such as `args` in `[args.src]`.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::ops::Range;

const SPANNED_NAME: &str = "$__serde_spanned_private_Spanned";
const START_FIELD: &str = "$__serde_spanned_private_start";
const END_FIELD: &str = "$__serde_spanned_private_end";
const VALUE_FIELD: &str = "$__serde_spanned_private_value";
const SPANNED_FIELDS: &[&str] = &[START_FIELD, END_FIELD, VALUE_FIELD];
/// Key under which the TOML reader passes a datetime value.
const DATETIME_FIELD: &str = "$__toml_private_datetime";

/// One TOML value with the byte range it occupies in the file, when the reader knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Option<Range<usize>>,
    pub value: Value,
}

/// A table key with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub span: Option<Range<usize>>,
    pub name: String,
}

/// The TOML value kinds a run file can contain.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Datetime(String),
    Array(Vec<Node>),
    /// Entries in file order.
    Table(Vec<(Key, Node)>),
}

impl Value {
    /// The TOML kind, as error messages name it ("got a string").
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a boolean",
            Value::Datetime(_) => "a datetime",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
        }
    }
}

impl Node {
    /// Parses a whole TOML document; the error carries the TOML reader's span when it has one.
    pub fn parse_document(text: &str) -> Result<Node, toml::de::Error> {
        let value: PlainValue = toml::from_str(text)?;
        Ok(Node {
            span: None,
            value: value.0,
        })
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, NodeVisitor)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let node = d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, NodeVisitor)?;
        match node.value {
            Value::Str(name) => Ok(Key {
                span: node.span,
                name,
            }),
            other => Err(de::Error::custom(format!(
                "expected a key, got {}",
                other.kind()
            ))),
        }
    }
}

/// A value deserialized without asking for its span (the inner value of a spanned map).
struct PlainValue(Value);

impl<'de> Deserialize<'de> for PlainValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor).map(|n| PlainValue(n.value))
    }
}

struct NodeVisitor;

fn plain(value: Value) -> Node {
    Node { span: None, value }
}

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TOML value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(plain(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(plain(Value::Int(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        match i64::try_from(v) {
            Ok(v) => Ok(plain(Value::Int(v))),
            Err(_) => Err(E::custom("integer out of range")),
        }
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(plain(Value::Float(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(plain(Value::Str(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(plain(Value::Str(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Node>()? {
            items.push(item);
        }
        Ok(plain(Value::Array(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let Some(first) = map.next_key::<Key>()? else {
            return Ok(plain(Value::Table(Vec::new())));
        };
        if first.name == START_FIELD {
            return spanned(map);
        }
        if first.name == DATETIME_FIELD {
            let text: String = map.next_value::<DatetimeText>()?.0;
            return Ok(plain(Value::Datetime(text)));
        }
        let mut entries = Vec::new();
        let value = map.next_value::<Node>()?;
        entries.push((first, value));
        while let Some(key) = map.next_key::<Key>()? {
            let value = map.next_value::<Node>()?;
            entries.push((key, value));
        }
        Ok(plain(Value::Table(entries)))
    }
}

/// The rest of a spanned map (start already read): end, then the value.
fn spanned<'de, A: MapAccess<'de>>(mut map: A) -> Result<Node, A::Error> {
    let start: usize = map.next_value()?;
    let mut end = start;
    let mut value = None;
    while let Some(key) = map.next_key::<Key>()? {
        if key.name == END_FIELD {
            end = map.next_value()?;
        } else if key.name == VALUE_FIELD {
            value = Some(map.next_value::<PlainValue>()?.0);
        } else {
            return Err(de::Error::custom("malformed spanned value"));
        }
    }
    match value {
        Some(value) => Ok(Node {
            span: Some(start..end.max(start)),
            value,
        }),
        None => Err(de::Error::custom("malformed spanned value")),
    }
}

/// A datetime's text, whatever form the reader delivers it in.
struct DatetimeText(String);

impl<'de> Deserialize<'de> for DatetimeText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = DatetimeText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a datetime")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<DatetimeText, E> {
                Ok(DatetimeText(v.to_owned()))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(node: &Node) -> &[(Key, Node)] {
        match &node.value {
            Value::Table(t) => t,
            _ => &[],
        }
    }

    #[test]
    fn spans_of_keys_and_values() {
        let text = "kernel = \"copy\"\n[args]\nn = { value = 7 }\n";
        let doc = Node::parse_document(text).map_err(|e| e.to_string());
        let doc = doc.as_ref().map(table);
        let Ok([(k, v), (a, args)]) = doc else {
            panic!("unexpected shape: {doc:?}");
        };
        assert_eq!(k.name, "kernel");
        assert_eq!(k.span, Some(0..6));
        assert_eq!(v.value, Value::Str("copy".into()));
        assert_eq!(v.span, Some(9..15));
        assert_eq!(a.name, "args");
        let [(n, nv)] = table(args) else {
            panic!("args shape: {args:?}");
        };
        assert_eq!(n.span, Some(23..24));
        let [(val, seven)] = table(nv) else {
            panic!("n shape: {nv:?}");
        };
        assert_eq!(val.name, "value");
        assert_eq!(seven.value, Value::Int(7));
        assert_eq!(seven.span.clone().map(|r| &text[r]), Some("7"));
    }

    #[test]
    fn dotted_tables_arrays_floats_and_datetimes() {
        let text = "[args.src]\nbuffer = \"float\"\ninit = [1.5, nan, -inf]\nwhen = 1979-05-27\n";
        let doc = Node::parse_document(text).map_err(|e| e.to_string());
        let Ok(doc) = doc else { panic!("{doc:?}") };
        let [(args, argt)] = table(&doc) else {
            panic!("{doc:?}")
        };
        assert_eq!(args.name, "args");
        let [(src, srct)] = table(argt) else {
            panic!("{argt:?}")
        };
        assert_eq!(src.name, "src");
        let entries = table(srct);
        assert_eq!(entries.len(), 3);
        let Value::Array(items) = &entries[1].1.value else {
            panic!("{entries:?}")
        };
        assert_eq!(items[0].value, Value::Float(1.5));
        assert!(matches!(items[1].value, Value::Float(x) if x.is_nan()));
        assert_eq!(items[2].value, Value::Float(f64::NEG_INFINITY));
        assert_eq!(entries[2].1.value, Value::Datetime("1979-05-27".into()));
    }

    #[test]
    fn syntax_errors_have_spans() {
        let err = Node::parse_document("a = \n").err();
        assert!(err.and_then(|e| e.span()).is_some());
    }
}

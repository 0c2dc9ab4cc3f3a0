//! Columns as `get` and `scan` name them, and the value converters a column may carry.
//!
//! hbase-shell's `table.rb` reads each column with `parse_column_name`: `KeyValue.parseColumn`
//! splits at the first `:` into family and qualifier, and `set_converter` splits the qualifier
//! again, so `'f:c:toLong'` selects `f:c` and prints its values with `Bytes.toLong`, and
//! `'f:c:c(org.apache.hadoop.hbase.util.Bytes).toInt'` names the class as well. The columns
//! then go to `Get.addFamily`/`addColumn` (`Scan` has the same two), whose family map this
//! module keeps: `addFamily` replaces whatever the family had, and `addColumn` after
//! `addFamily` narrows the family to that column again.

use crate::bytes::to_printable;

/// The family map of a `Get` or `Scan`: per family (in the order first named) every column,
/// or `None` for the whole family.
pub type FamilyMap = Vec<(Vec<u8>, Option<Vec<Vec<u8>>>)>;

/// The class `convert` in `table.rb` uses when the converter names none.
const BYTES_CLASS: &str = "org.apache.hadoop.hbase.util.Bytes";

/// A column as `(family, qualifier)`.
type ColumnKey = (Vec<u8>, Vec<u8>);

/// The converters of one read, by column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Converters {
    by_column: Vec<(ColumnKey, String)>,
    /// A read's `FORMATTER` (a `Bytes` method) and `FORMATTER_CLASS`: what prints the row key,
    /// the column names and every value whose column has no converter of its own.
    formatter: Option<(String, Option<String>)>,
    /// Units of the read table's timestamps in a millisecond (1,000 for a Bigtable table's
    /// microseconds), which a printed timestamp is divided by: the shell prints milliseconds.
    /// 0 stands for 1.
    per_ms: u64,
}

/// Columns and converters parsed from a read's column specs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    pub families: FamilyMap,
    pub converters: Converters,
}

impl Columns {
    /// Adds one column spec as `table.rb`'s `parse_column_name` and `Get.addFamily` /
    /// `addColumn` do.
    pub fn add(&mut self, spec: &[u8]) {
        match split_once(spec) {
            None => self.add_family(spec),
            Some((family, rest)) => {
                // `parse_column_format_spec` (2.5.9 on, HBASE-28549): the text after the
                // qualifier's last `:` is a converter only if it names one; otherwise the
                // `:` is part of the qualifier (`f:a:b` is column `a:b` of `f`).
                let split = rest.iter().rposition(|b| *b == b':').and_then(|i| {
                    let converter = rest.get(i + 1..)?;
                    is_converter(converter).then_some((rest.get(..i)?, converter))
                });
                let qualifier = match split {
                    Some((qualifier, converter)) => {
                        self.converters.set(
                            family,
                            qualifier,
                            String::from_utf8_lossy(converter).into_owned(),
                        );
                        qualifier
                    }
                    None => rest,
                };
                self.add_column(family, qualifier);
            }
        }
    }

    /// `addFamily`: the whole family, whatever was asked of it before.
    fn add_family(&mut self, family: &[u8]) {
        match self.families.iter_mut().find(|(f, _)| f == family) {
            Some((_, cols)) => *cols = None,
            None => self.families.push((family.to_vec(), None)),
        }
    }

    /// `addColumn`: one more column of the family; after `addFamily` (a `null` set in
    /// HBase's map) the family starts a new set holding just this column.
    fn add_column(&mut self, family: &[u8], qualifier: &[u8]) {
        match self.families.iter_mut().find(|(f, _)| f == family) {
            Some((_, Some(cols))) => {
                if !cols.iter().any(|c| c == qualifier) {
                    cols.push(qualifier.to_vec());
                }
            }
            Some((_, cols)) => *cols = Some(vec![qualifier.to_vec()]),
            None => self
                .families
                .push((family.to_vec(), Some(vec![qualifier.to_vec()]))),
        }
    }

    /// The family map as the engine's scan takes it: `(family, None)` for a whole family,
    /// `(family, Some(qualifier))` per column.
    pub fn scan_columns(&self) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
        let mut out = Vec::new();
        for (family, cols) in &self.families {
            match cols {
                None => out.push((family.clone(), None)),
                Some(cols) => {
                    out.extend(cols.iter().map(|q| (family.clone(), Some(q.clone()))));
                }
            }
        }
        out
    }
}

/// The static methods of HBase's `Bytes` (hbase-common, 2.5), which a converter may name.
const BYTES_METHODS: &[&str] = &[
    "add",
    "binarySearch",
    "bytesToVint",
    "compareTo",
    "contains",
    "copy",
    "createMaxByteArray",
    "equals",
    "findCommonPrefix",
    "fromHex",
    "getBytes",
    "getUtf8ByteArrays",
    "hashCode",
    "head",
    "incrementBytes",
    "indexOf",
    "isSorted",
    "iterateOnSplits",
    "mapKey",
    "multiple",
    "padHead",
    "padTail",
    "putAsShort",
    "putBigDecimal",
    "putByte",
    "putByteBuffer",
    "putBytes",
    "putDouble",
    "putFloat",
    "putInt",
    "putLong",
    "putShort",
    "random",
    "readAsInt",
    "readAsVLong",
    "readByteArray",
    "readStringFixedSize",
    "readVLong",
    "searchDelimiterIndex",
    "searchDelimiterIndexInReverse",
    "secureRandom",
    "split",
    "startsWith",
    "tail",
    "toArray",
    "toBigDecimal",
    "toBinaryByteArrays",
    "toBinaryFromHex",
    "toBoolean",
    "toByteArrays",
    "toBytes",
    "toBytesBinary",
    "toDouble",
    "toFloat",
    "toHex",
    "toInt",
    "toLong",
    "toShort",
    "toString",
    "toStringBinary",
    "unsignedBinarySearch",
    "unsignedCopyAndIncrement",
    "vintToBytes",
    "writeByteArray",
    "writeStringFixedSize",
    "zero",
];

/// Methods every Ruby class object answers to, `Bytes` among them.
const CLASS_METHODS: &[&str] = &[
    "ancestors",
    "class",
    "clone",
    "display",
    "dup",
    "freeze",
    "hash",
    "inspect",
    "java_class",
    "methods",
    "name",
    "new",
    "object_id",
    "superclass",
    "to_s",
];

/// Whether `text` names a converter as `table.rb`'s `converter?` decides: `c(Class).method`
/// (`/^c\(.+\)\..+/`), or a method `Bytes.respond_to?`: a static method of `Bytes` by its
/// Java name or by the snake-case name JRuby gives it too (`to_string_binary`), or a class
/// object's own.
fn is_converter(text: &[u8]) -> bool {
    if class_and_method(&String::from_utf8_lossy(text)).is_some() {
        return true;
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return false;
    };
    let snake = |name: &str| {
        let mut out = String::new();
        let mut lower_before = false;
        for c in name.chars() {
            if c.is_ascii_uppercase() && lower_before {
                out.push('_');
            }
            lower_before = c.is_ascii_lowercase();
            out.push(c.to_ascii_lowercase());
        }
        out
    };
    CLASS_METHODS.contains(&text) || BYTES_METHODS.iter().any(|m| *m == text || snake(m) == text)
}

/// `KeyValue.parseColumn`: family and the rest, split at the first `:`.
fn split_once(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let i = bytes.iter().position(|b| *b == b':')?;
    Some((bytes.get(..i)?, bytes.get(i + 1..)?))
}

impl Converters {
    /// Prints the timestamps of a table that counts `per_ms` units a millisecond.
    pub fn set_per_ms(&mut self, per_ms: u64) {
        self.per_ms = per_ms;
    }

    /// A cell's timestamp in milliseconds.
    pub fn millis(&self, timestamp: u64) -> u64 {
        timestamp / self.per_ms.max(1)
    }

    fn set(&mut self, family: &[u8], qualifier: &[u8], converter: String) {
        let key = (family.to_vec(), qualifier.to_vec());
        match self.by_column.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => *c = converter,
            None => self.by_column.push((key, converter)),
        }
    }

    /// A read's `FORMATTER => 'method'` and `FORMATTER_CLASS => 'class'`.
    pub fn set_formatter(&mut self, method: String, class: Option<String>) {
        self.formatter = Some((method, class));
    }

    /// A cell's value as `table.rb`'s `convert` prints it: `Bytes.toStringBinary` unless its
    /// column has a converter, or the read a `FORMATTER`, which then runs; the error is the
    /// exception it raises. (`convert` leaves `FORMATTER_CLASS` out: its class is Bytes.)
    pub fn value(&self, family: &[u8], qualifier: &[u8], value: &[u8]) -> Result<String, String> {
        let converter = self
            .by_column
            .iter()
            .find(|((f, q), _)| f == family && q == qualifier)
            .map(|(_, c)| c.as_str())
            .or(self.formatter.as_ref().map(|(method, _)| method.as_str()));
        match converter {
            None => Ok(to_printable(value)),
            Some(spec) => convert(spec, value),
        }
    }

    /// A row key (`with_class` false) or a family or qualifier (true) as `convert_bytes`
    /// prints it: by the read's `FORMATTER`, and for the column's parts its `FORMATTER_CLASS`.
    pub fn name(&self, bytes: &[u8], with_class: bool) -> Result<String, String> {
        match &self.formatter {
            None => Ok(to_printable(bytes)),
            Some((method, Some(class))) if with_class && class != BYTES_CLASS => {
                convert(&format!("c({class}).{method}"), bytes)
            }
            Some((method, _)) => convert(method, bytes),
        }
    }
}

/// Runs a converter spec (`toLong`, or `c(class).method`) on a value.
pub fn convert(spec: &str, value: &[u8]) -> Result<String, String> {
    let (class, method) = match class_and_method(spec) {
        Some((class, method)) => (class, method),
        None => (BYTES_CLASS, spec),
    };
    if class != BYTES_CLASS {
        return Err(format!(
            "Rowkey runs only the {BYTES_CLASS} converters; c({class}).{method} names a class of \
             your own, which an HBase shell would load from its classpath"
        ));
    }
    bytes_method(method, value).unwrap_or_else(|| {
        Err(format!(
            "NameError: undefined method `{method}' for class `Java::OrgApacheHadoopHbaseUtil::Bytes'\n\
             Rowkey runs these Bytes converters: {}",
            METHODS.join(", ")
        ))
    })
}

/// `/c\((.+)\)\.(.+)/` of `table.rb`'s `convert`: greedy, so the class runs to the last `).`.
fn class_and_method(spec: &str) -> Option<(&str, &str)> {
    let start = spec.find("c(")?;
    let inner = spec.get(start + 2..)?;
    let close = inner.rfind(").")?;
    let class = inner.get(..close)?;
    let method = inner.get(close + 2..)?;
    (!class.is_empty() && !method.is_empty()).then_some((class, method))
}

/// The `Bytes` methods Rowkey runs as converters.
pub const METHODS: &[&str] = &[
    "toStringBinary",
    "toString",
    "toLong",
    "toInt",
    "toShort",
    "toFloat",
    "toDouble",
    "toBoolean",
    "toHex",
];

/// One `Bytes` method on a whole array, printed as Ruby prints what it returns; `None` for a
/// method Rowkey does not run.
fn bytes_method(method: &str, v: &[u8]) -> Option<Result<String, String>> {
    Some(match method {
        "toStringBinary" => Ok(to_printable(v)),
        "toString" => Ok(String::from_utf8_lossy(v).into_owned()),
        "toHex" => Ok(v.iter().map(|b| format!("{b:02x}")).collect()),
        "toLong" => fixed::<8>(v).map(|b| i64::from_be_bytes(b).to_string()),
        "toInt" => fixed::<4>(v).map(|b| i32::from_be_bytes(b).to_string()),
        "toShort" => fixed::<2>(v).map(|b| i16::from_be_bytes(b).to_string()),
        "toFloat" => fixed::<4>(v).map(|b| ruby_float(f64::from(f32::from_be_bytes(b)))),
        "toDouble" => fixed::<8>(v).map(|b| ruby_float(f64::from_be_bytes(b))),
        "toBoolean" => match v {
            [b] => Ok((*b != 0).to_string()),
            _ => Err(format!("Array has wrong size: {}", v.len())),
        },
        _ => return None,
    })
}

/// The first `N` bytes, as `Bytes.toLong(bytes, 0, SIZEOF_LONG)` and its kin read them: a
/// longer array is read from its start, a shorter one raises what
/// `Bytes.explainWrongLengthOrOffset` says.
fn fixed<const N: usize>(v: &[u8]) -> Result<[u8; N], String> {
    v.get(..N)
        .and_then(|b| <[u8; N]>::try_from(b).ok())
        .ok_or_else(|| {
            format!(
                "offset (0) + length ({N}) exceed the capacity of the array: {}",
                v.len()
            )
        })
}

/// Ruby's `Float#to_s`: the shortest text that reads back, with `.0` on whole numbers, and
/// exponent form (`1.0e+16`, `1.5e-05`) outside `1e-4 <= |x| < 1e16`.
pub fn ruby_float(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let abs = x.abs();
    if abs == 0.0 || (1e-4..1e16).contains(&abs) {
        let s = format!("{x}");
        return if s.contains('.') { s } else { format!("{s}.0") };
    }
    let s = format!("{x:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let mantissa = if mantissa.contains('.') {
        mantissa.to_string()
    } else {
        format!("{mantissa}.0")
    };
    let (sign, digits) = match exp.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', exp),
    };
    format!("{mantissa}e{sign}{digits:0>2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ruby_float_matches_float_to_s() {
        assert_eq!(ruby_float(1.0), "1.0");
        assert_eq!(ruby_float(1.5), "1.5");
        assert_eq!(ruby_float(-0.0), "-0.0");
        assert_eq!(ruby_float(1e16), "1.0e+16");
        assert_eq!(ruby_float(1.5e-5), "1.5e-05");
        assert_eq!(ruby_float(f64::from(0.1f32)), "0.10000000149011612");
    }

    /// `parse_column_format_spec` (hbase-shell's `table.rb`, 2.5.9 on): the text after the
    /// last `:` is a converter when `converter?` says so, else part of the qualifier.
    #[test]
    fn a_qualifier_keeps_its_colons_unless_a_converter_ends_it() {
        let read = |spec: &str| {
            let mut c = Columns::default();
            c.add(spec.as_bytes());
            let column = c.scan_columns().pop().and_then(|(f, q)| Some((f, q?)));
            let converter = c.converters.by_column.first().map(|(_, m)| m.clone());
            column.map(|(f, q)| {
                (
                    String::from_utf8_lossy(&f).into_owned(),
                    String::from_utf8_lossy(&q).into_owned(),
                    converter,
                )
            })
        };
        let col =
            |f: &str, q: &str, c: Option<&str>| Some((f.into(), q.into(), c.map(String::from)));
        assert_eq!(read("f:a:b"), col("f", "a:b", None));
        assert_eq!(read("f:x:y:toLong"), col("f", "x:y", Some("toLong")));
        assert_eq!(read("f:q:to_long"), col("f", "q", Some("to_long")));
        assert_eq!(
            read("f:q:to_string_binary"),
            col("f", "q", Some("to_string_binary"))
        );
        assert_eq!(
            read("f:q:c(org.apache.hadoop.hbase.util.Bytes).toInt"),
            col(
                "f",
                "q",
                Some("c(org.apache.hadoop.hbase.util.Bytes).toInt")
            )
        );
        assert_eq!(read("f:q:name"), col("f", "q", Some("name")));
        assert_eq!(read("f:q"), col("f", "q", None));
        assert_eq!(read("f:q:"), col("f", "q:", None));
    }

    #[test]
    fn class_and_method_is_greedy_like_the_regex() {
        assert_eq!(
            class_and_method("c(org.apache.hadoop.hbase.util.Bytes).toInt"),
            Some(("org.apache.hadoop.hbase.util.Bytes", "toInt"))
        );
        assert_eq!(class_and_method("toInt"), None);
    }
}

//! The JRuby form of a filter: `FILTER => org.apache.hadoop.hbase.filter.ColumnPaginationFilter.new(1, 0)`,
//! as `scan.rb`'s help shows it. `table.rb` hands any FILTER that is not a String to
//! `Scan.setFilter` as the Java object it is. Rowkey reads such a constructor call and writes
//! the same filter in the filter language, whose constructors `ParseFilter` registers with the
//! same arguments in the same order; the filter language's parser then builds it.
//!
//! Arguments: numbers, `true`/`false`, strings (`'r1'`, `'r1'.to_java_bytes`,
//! `Bytes.toBytes('r1')`, `Bytes.toBytesBinary("\x00r")`), arrays (Java lists and byte-array
//! arrays: `TimestampsFilter.new([1, 2])`), comparison operators (`CompareOperator::EQUAL`,
//! `CompareFilter::CompareOp.valueOf('EQUAL')`), comparators (`BinaryComparator.new(...)`,
//! `BinaryPrefixComparator`, `RegexStringComparator`, `SubstringComparator`) and filter lists
//! (`FilterList.new(FilterList::Operator::MUST_PASS_ONE, [f1, f2])`).

use super::args::{fail, kind_name, Res};
use crate::bytes::{to_bytes_binary, to_printable};
use crate::filter::{filter_names, is_filter};
use crate::shell::ast::{Spanned, Value};

/// The package the shell's examples name filters by.
const FILTER_PACKAGE: &str = "org.apache.hadoop.hbase.filter.";

/// The filter-language text of a JRuby filter object.
pub(super) fn filter_text(v: &Spanned) -> Res<String> {
    let (name, args) = match &v.value {
        Value::Call { name, args } => (name.as_str(), args.as_slice()),
        // `KeyOnlyFilter.new` without parentheses is a call in Ruby.
        Value::Ident(name) => (name.as_str(), &[][..]),
        other => {
            return fail(
                format!("expected a filter object, found {}", kind_name(other)),
                v.span.clone(),
            )
        }
    };
    let class = constructor(name).map_or_else(
        || {
            fail(
                format!("expected a filter's constructor, such as {FILTER_PACKAGE}PageFilter.new(10), found {name}"),
                v.span.clone(),
            )
        },
        Ok,
    )?;
    if class == "FilterList" {
        return filter_list(args, v);
    }
    if class == "FuzzyRowFilter" {
        return fuzzy_row_filter(args, v);
    }
    if !is_filter(class) {
        return fail(
            format!(
                "{class} is not a filter Rowkey has; it has {}",
                filter_names().collect::<Vec<_>>().join(", ")
            ),
            v.span.clone(),
        );
    }
    let mut parts = Vec::new();
    for a in args {
        argument(a, &mut parts)?;
    }
    Ok(format!("{class}({})", parts.join(", ")))
}

/// The class of `Name.new` or `org.apache.hadoop.hbase.filter.Name.new`.
fn constructor(name: &str) -> Option<&str> {
    let class = name.strip_suffix(".new")?;
    let class = class.strip_prefix(FILTER_PACKAGE).unwrap_or(class);
    (!class.contains('.')).then_some(class)
}

/// `FilterList.new(operator, [filters])` or `FilterList.new(operator, f1, f2, ...)`; without
/// an operator `MUST_PASS_ALL` (`FilterList(Filter...)`).
fn filter_list(args: &[Spanned], v: &Spanned) -> Res<String> {
    let mut op = " AND ";
    let mut rest = args;
    if let Some((first, tail)) = args.split_first() {
        if let Value::Ident(w) = &first.value {
            op = match w.rsplit("::").next().unwrap_or(w) {
                "MUST_PASS_ALL" => " AND ",
                "MUST_PASS_ONE" => " OR ",
                _ => {
                    return fail(
                        format!(
                        "expected FilterList::Operator::MUST_PASS_ALL or MUST_PASS_ONE, found {w}"
                    ),
                        first.span.clone(),
                    )
                }
            };
            rest = tail;
        }
    }
    let mut filters = Vec::new();
    for a in rest {
        match &a.value {
            Value::Array(items) => {
                for i in items {
                    filters.push(format!("({})", filter_text(i)?));
                }
            }
            _ => filters.push(format!("({})", filter_text(a)?)),
        }
    }
    if filters.is_empty() {
        return fail("a FilterList needs at least one filter", v.span.clone());
    }
    Ok(filters.join(op))
}

/// `FuzzyRowFilter.new([Pair.new(key, mask), ...])`: the constructor takes a
/// `List<Pair<byte[], byte[]>>`, which JRuby makes of a Ruby array (or
/// `java.util.Arrays.asList(...)`) of `org.apache.hadoop.hbase.util.Pair.new(a, b)`, each side a
/// byte array (`'k'.to_java_bytes`, `Bytes.toBytes('k')`, `Bytes.toBytesBinary('\x00k')`).
/// Written for [`crate::filter::parse_java_filter`] as `FuzzyRowFilter('key', 'mask', ...)`
/// with the bytes binary-escaped. Refused as the constructor refuses them: a key and mask of
/// different lengths. Rowkey also refuses mask bytes other than 0 (fixed) and 1 (any), which
/// HBase takes without a word and then matches unpredictably.
fn fuzzy_row_filter(args: &[Spanned], v: &Spanned) -> Res<String> {
    let usage = "FuzzyRowFilter.new takes a list of pairs: FuzzyRowFilter.new([org.apache.hadoop.hbase.util.Pair.new('key'.to_java_bytes, \"\\x00\\x01\".to_java_bytes)])";
    let pairs: &[Spanned] = match args {
        [Spanned {
            value: Value::Array(items),
            ..
        }] => items,
        [Spanned {
            value: Value::Call { name, args },
            ..
        }] if name.ends_with("Arrays.asList") => args,
        _ => return fail(usage, v.span.clone()),
    };
    let mut parts = Vec::new();
    for p in pairs {
        let (key, mask) = match &p.value {
            Value::Call { name, args } if name == "Pair.new" || name.ends_with(".Pair.new") => {
                match args.as_slice() {
                    [k, m] => (java_bytes(k)?, java_bytes(m)?),
                    _ => return fail("Pair.new takes two byte arrays", p.span.clone()),
                }
            }
            _ => return fail(usage, p.span.clone()),
        };
        let (k, m) = (to_printable(&key), to_printable(&mask));
        if key.len() != mask.len() {
            return fail(
                format!("Fuzzy pair lengths do not match: {{{k},{m}}}"),
                p.span.clone(),
            );
        }
        if let Some(at) = mask.iter().position(|b| *b > 1) {
            return fail(
                format!("Rowkey takes fuzzy masks of \\x00 (fixed) and \\x01 (any) bytes; byte {at} of {m} is neither (write the mask in double quotes: \"\\x00\\x01\")"),
                p.span.clone(),
            );
        }
        parts.push(quote(k.as_bytes()));
        parts.push(quote(m.as_bytes()));
    }
    Ok(format!("FuzzyRowFilter({})", parts.join(", ")))
}

/// A Java byte array: a string (`'k'.to_java_bytes`) or `Bytes.toBytes`/`toBytesBinary`.
fn java_bytes(a: &Spanned) -> Res<Vec<u8>> {
    match &a.value {
        Value::Str(b) => Ok(b.clone()),
        Value::Call { name, args }
            if name.ends_with("Bytes.toBytes") || name.ends_with("Bytes.toBytesBinary") =>
        {
            Ok(unquote(&call(name, args, a)?))
        }
        other => fail(
            format!("expected a byte array, found {}", kind_name(other)),
            a.span.clone(),
        ),
    }
}

/// One constructor argument as filter-language text (an array adds one item per element).
fn argument(a: &Spanned, out: &mut Vec<String>) -> Res<()> {
    match &a.value {
        Value::Int(i) => out.push(i.to_string()),
        Value::Float(_) => {
            return fail(
                "expected a number, string or array, found a Float",
                a.span.clone(),
            )
        }
        Value::Str(b) => out.push(quote(b)),
        Value::Array(items) => {
            for i in items {
                argument(i, out)?;
            }
        }
        Value::Ident(w) if w == "true" || w == "false" => out.push(w.clone()),
        Value::Ident(w) => out.push(operator(w).map_or_else(
            || {
                fail(
                    format!("expected a number, string or CompareOperator, found {w}"),
                    a.span.clone(),
                )
            },
            |s| Ok(s.to_string()),
        )?),
        Value::Call { name, args } => out.push(call(name, args, a)?),
        Value::Hash(_) => {
            return fail(
                "expected a number, string or array, found a hash",
                a.span.clone(),
            )
        }
    }
    Ok(())
}

/// A call inside a constructor's arguments: byte conversions, operators and comparators.
fn call(name: &str, args: &[Spanned], at: &Spanned) -> Res<String> {
    let short = name.rsplit(['.', ':']).nth(1).unwrap_or(name);
    let method = name.rsplit('.').next().unwrap_or(name);
    let one_string = || -> Res<Vec<u8>> {
        match args {
            [Spanned {
                value: Value::Str(b),
                ..
            }] => Ok(b.clone()),
            _ => fail(format!("{name} takes one string"), at.span.clone()),
        }
    };
    match (short, method) {
        ("Bytes", "toBytes") => Ok(quote(&one_string()?)),
        ("Bytes", "toBytesBinary") => Ok(quote(&to_bytes_binary(&one_string()?))),
        (_, "valueOf") if name.contains("CompareOp") => {
            let text = String::from_utf8_lossy(&one_string()?).into_owned();
            operator(&text).map_or_else(
                || fail(format!("No enum constant {name}: {text}"), at.span.clone()),
                |s| Ok(s.to_string()),
            )
        }
        (comparator, "new") => {
            let prefix = match comparator {
                "BinaryComparator" => "binary",
                "BinaryPrefixComparator" => "binaryprefix",
                "RegexStringComparator" => "regexstring",
                "SubstringComparator" => "substring",
                _ => {
                    return fail(
                        format!("{comparator} cannot be an argument here; expected a comparator (BinaryComparator, BinaryPrefixComparator, RegexStringComparator, SubstringComparator) or Bytes.toBytes"),
                        at.span.clone(),
                    )
                }
            };
            let mut value = prefix.as_bytes().to_vec();
            value.push(b':');
            match args {
                [Spanned {
                    value: Value::Str(b),
                    ..
                }] => value.extend_from_slice(b),
                [Spanned {
                    value: Value::Call { name, args },
                    ..
                }] if name.ends_with("toBytes") || name.ends_with("toBytesBinary") => {
                    let inner = call(name, args, at)?;
                    value.extend_from_slice(&unquote(&inner));
                }
                _ => {
                    return fail(
                        format!("{comparator}.new takes one string"),
                        at.span.clone(),
                    )
                }
            }
            Ok(quote(&value))
        }
        _ => fail(
            format!("{name} cannot be an argument here"),
            at.span.clone(),
        ),
    }
}

/// The filter-language symbol of `CompareOperator::EQUAL`, `CompareFilter::CompareOp::LESS` ...
fn operator(word: &str) -> Option<&'static str> {
    Some(match word.rsplit("::").next().unwrap_or(word) {
        "EQUAL" => "=",
        "NOT_EQUAL" => "!=",
        "LESS" => "<",
        "LESS_OR_EQUAL" => "<=",
        "GREATER" => ">",
        "GREATER_OR_EQUAL" => ">=",
        _ => return None,
    })
}

/// A filter-language string literal: single quotes, a quote doubled.
fn quote(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    format!("'{}'", text.replace('\'', "''"))
}

/// The bytes of a literal [`quote`] wrote.
fn unquote(literal: &str) -> Vec<u8> {
    let inner = literal
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or(literal);
    inner.replace("''", "'").into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parser::parse_command;

    fn text_of(src: &str) -> String {
        let Ok(cmd) = parse_command(&format!("scan 't', {{FILTER => {src}}}")) else {
            return "parse error".into();
        };
        let Some(Value::Hash(pairs)) = cmd.args.get(1).map(|a| &a.value) else {
            return "no hash".into();
        };
        match pairs.first() {
            Some((_, v)) => filter_text(v).unwrap_or_else(|e| format!("error: {}", e.message)),
            None => "empty".into(),
        }
    }

    #[test]
    fn constructors_become_filter_language() {
        assert_eq!(
            text_of("org.apache.hadoop.hbase.filter.ColumnPaginationFilter.new(1, 0)"),
            "ColumnPaginationFilter(1, 0)"
        );
        assert_eq!(text_of("KeyOnlyFilter.new"), "KeyOnlyFilter()");
        assert_eq!(
            text_of("PrefixFilter.new(Bytes.toBytes('r'))"),
            "PrefixFilter('r')"
        );
        assert_eq!(
            text_of(
                "ValueFilter.new(CompareOperator::EQUAL, BinaryComparator.new('v'.to_java_bytes))"
            ),
            "ValueFilter(=, 'binary:v')"
        );
        assert_eq!(
            text_of("FilterList.new(FilterList::Operator::MUST_PASS_ONE, [PageFilter.new(1), FirstKeyOnlyFilter.new()])"),
            "(PageFilter(1)) OR (FirstKeyOnlyFilter())"
        );
        assert_eq!(
            text_of("TimestampsFilter.new([3, 5])"),
            "TimestampsFilter(3, 5)"
        );
    }
}

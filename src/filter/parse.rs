//! HBase's filter language: `Name(args)` expressions joined by `AND` and `OR`, wrapped by
//! `SKIP` and `WHILE`, grouped by parentheses. Precedence, highest first: SKIP/WHILE, AND, OR.
//! Errors carry HBase's message and the byte span in the filter string.

use std::ops::Range;

use rowkey_engine::filter::*;

/// A filter string HBase would refuse: its message and where in the string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct FilterError {
    pub message: String,
    pub span: Range<usize>,
    /// What refused a filter's arguments, when HBase's message is only `Incorrect filter
    /// string` and the expression: the filter's own check, which HBase logs and does not say.
    pub cause: Option<String>,
}

fn err<T>(message: impl Into<String>, span: Range<usize>) -> Result<T, FilterError> {
    Err(FilterError {
        message: message.into(),
        span,
        cause: None,
    })
}

/// A filter's refusal of its arguments as `ParseFilter.parseSimpleFilterExpression` reports
/// it: the filter's `createFilterFromArguments` runs by reflection, and whatever it throws
/// becomes `Incorrect filter string` and the whole expression (`expression`, as written).
/// The name of an unknown filter is checked before, and reported as it is.
fn refused(e: FilterError, expression: &[u8]) -> FilterError {
    if e.message.starts_with("Filter Name ") {
        return e;
    }
    FilterError {
        message: format!(
            "Incorrect filter string {}",
            String::from_utf8_lossy(expression)
        ),
        span: e.span,
        cause: Some(e.message),
    }
}

/// Parses a filter string into a filter.
pub fn parse_filter(text: &str) -> Result<Box<dyn Filter>, FilterError> {
    parse(text, false)
}

/// Parses the filter-language text the shell writes for a JRuby filter object: the filter
/// language, plus the filters HBase builds only from Java (`FuzzyRowFilter('key', 'mask',
/// ...)`, its bytes written as `Bytes.toStringBinary` writes them). `ParseFilter` registers no
/// such name, so a FILTER string cannot use them, as in HBase.
pub fn parse_java_filter(text: &str) -> Result<Box<dyn Filter>, FilterError> {
    parse(text, true)
}

fn parse(text: &str, java: bool) -> Result<Box<dyn Filter>, FilterError> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
        depth: 0,
        java,
    };
    let filter = p.or_expr()?;
    p.skip_ws();
    if p.pos < p.s.len() {
        if p.s.get(p.pos) == Some(&b')') {
            return err("Mismatched parenthesis", p.pos..p.pos + 1);
        }
        return err("Incorrect Filter String", p.pos..p.s.len());
    }
    Ok(filter)
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    /// Nesting of parentheses, SKIP and WHILE.
    depth: usize,
    /// Whether Java-only filters are known ([`parse_java_filter`]).
    java: bool,
}

/// Deepest nesting accepted, far below what would exhaust the stack.
const MAX_DEPTH: usize = 64;

/// One argument of a simple filter expression.
struct Arg {
    bytes: Vec<u8>,
    quoted: bool,
    span: Range<usize>,
}

impl<'a> Parser<'a> {
    /// Skips spaces and tabs, the only blanks `ParseFilter.parseFilterString` passes over
    /// (`ParseConstants.WHITESPACE`, `TAB`): a newline or carriage return starts a filter name
    /// there, which no filter has.
    fn skip_ws(&mut self) {
        while matches!(self.s.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    /// True (and consumed) when the keyword stands here, followed by a space or a parenthesis.
    fn keyword(&mut self, word: &str) -> bool {
        let end = self.pos + word.len();
        if self.s.get(self.pos..end) == Some(word.as_bytes())
            && matches!(self.s.get(end), Some(b' ' | b'\t' | b'('))
        {
            self.pos = end;
            return true;
        }
        false
    }

    fn or_expr(&mut self) -> Result<Box<dyn Filter>, FilterError> {
        let mut items = vec![self.and_expr("Incorrect input string - an OR needs two filters")?];
        loop {
            self.skip_ws();
            if !self.keyword("OR") {
                break;
            }
            items.push(self.and_expr("Incorrect input string - an OR needs two filters")?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Box::new(FilterList::new(false, items))
        })
    }

    fn and_expr(&mut self, missing: &str) -> Result<Box<dyn Filter>, FilterError> {
        let mut items = vec![self.unary(missing)?];
        loop {
            self.skip_ws();
            if !self.keyword("AND") {
                break;
            }
            items.push(self.unary("Incorrect input string - an AND needs two filters")?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Box::new(FilterList::new(true, items))
        })
    }

    fn unary(&mut self, missing: &str) -> Result<Box<dyn Filter>, FilterError> {
        self.skip_ws();
        let start = self.pos;
        if self.depth >= MAX_DEPTH {
            return err(
                format!("Filter nested deeper than {MAX_DEPTH} levels"),
                start..start + 1,
            );
        }
        self.depth += 1;
        let result = self.unary_inner(start, missing);
        self.depth -= 1;
        result
    }

    fn unary_inner(&mut self, start: usize, missing: &str) -> Result<Box<dyn Filter>, FilterError> {
        if self.pos >= self.s.len() {
            let msg = if start == 0 {
                "Incorrect Filter String"
            } else {
                missing
            };
            return err(msg, start..start);
        }
        if self.keyword("SKIP") {
            let inner = self.unary("Incorrect input string - a SKIP wraps a filter")?;
            return Ok(Box::new(SkipFilter::new(inner)));
        }
        if self.keyword("WHILE") {
            let inner = self.unary("Incorrect input string - a WHILE wraps a filter")?;
            return Ok(Box::new(WhileMatchFilter::new(inner)));
        }
        match self.s.get(self.pos) {
            Some(b'(') => {
                self.pos += 1;
                let inner = self.or_expr()?;
                self.skip_ws();
                if self.s.get(self.pos) != Some(&b')') {
                    return err("Mismatched parenthesis", start..start + 1);
                }
                self.pos += 1;
                Ok(inner)
            }
            Some(b')') => err("Mismatched parenthesis", start..start + 1),
            _ => self.simple(),
        }
    }

    /// `Name(arg, arg, ...)`.
    fn simple(&mut self) -> Result<Box<dyn Filter>, FilterError> {
        let start = self.pos;
        while self
            .s
            .get(self.pos)
            .is_some_and(|b| !matches!(b, b'(' | b' ' | b'\t' | b')'))
        {
            self.pos += 1;
        }
        let name_span = start..self.pos;
        let name =
            String::from_utf8_lossy(self.s.get(name_span.clone()).unwrap_or(&[])).into_owned();
        if name.is_empty() {
            return err("Incorrect Filter Name", start..start + 1);
        }
        self.skip_ws();
        if self.s.get(self.pos) != Some(&b'(') {
            return err(
                "Incorrect Filter String",
                start..self.pos.max(start + 1).min(self.s.len()),
            );
        }
        self.pos += 1;
        let args = self.args(start)?;
        let span = start..self.pos;
        if self.java && name == "FuzzyRowFilter" {
            return fuzzy_row_filter(&args, span);
        }
        let expression = self.s.get(span.clone()).unwrap_or_default();
        build(&name, name_span, args, span).map_err(|e| refused(e, expression))
    }

    fn args(&mut self, expr_start: usize) -> Result<Vec<Arg>, FilterError> {
        let mut args = Vec::new();
        loop {
            while matches!(self.s.get(self.pos), Some(b' ' | b'\t' | b',')) {
                self.pos += 1;
            }
            match self.s.get(self.pos) {
                None => return err("Incorrect Filter String", expr_start..self.s.len()),
                Some(b')') => {
                    self.pos += 1;
                    return Ok(args);
                }
                Some(b'\'') => {
                    let open = self.pos;
                    let mut bytes = Vec::new();
                    self.pos += 1;
                    loop {
                        match self.s.get(self.pos) {
                            None => return err("Incorrect argument list", open..self.s.len()),
                            Some(b'\'') if self.s.get(self.pos + 1) == Some(&b'\'') => {
                                bytes.push(b'\'');
                                self.pos += 2;
                            }
                            Some(b'\'') => {
                                self.pos += 1;
                                break;
                            }
                            Some(b) => {
                                bytes.push(*b);
                                self.pos += 1;
                            }
                        }
                    }
                    args.push(Arg {
                        bytes,
                        quoted: true,
                        span: open..self.pos,
                    });
                }
                Some(_) => {
                    let open = self.pos;
                    while self
                        .s
                        .get(self.pos)
                        .is_some_and(|b| !matches!(b, b' ' | b'\t' | b',' | b')'))
                    {
                        self.pos += 1;
                    }
                    if self.pos >= self.s.len() {
                        return err("Incorrect argument list", open..self.s.len());
                    }
                    let bytes = self.s.get(open..self.pos).unwrap_or(&[]).to_vec();
                    args.push(Arg {
                        bytes,
                        quoted: false,
                        span: open..self.pos,
                    });
                }
            }
        }
    }
}

fn count(
    args: &[Arg],
    allowed: &[usize],
    wording: &str,
    span: &Range<usize>,
) -> Result<(), FilterError> {
    if allowed.contains(&args.len()) {
        return Ok(());
    }
    err(
        format!("Expected {wording} but got: {}", args.len()),
        span.clone(),
    )
}

fn quoted(arg: &Arg) -> Result<Vec<u8>, FilterError> {
    if !arg.quoted {
        return err(
            "removeQuotesFromByteArray needs a quoted byte array",
            arg.span.clone(),
        );
    }
    Ok(arg.bytes.clone())
}

fn boolean(arg: &Arg) -> Result<bool, FilterError> {
    match String::from_utf8_lossy(&arg.bytes)
        .to_ascii_lowercase()
        .as_str()
    {
        "true" if !arg.quoted => Ok(true),
        "false" if !arg.quoted => Ok(false),
        _ => err("Incorrect Boolean Expression", arg.span.clone()),
    }
}

/// A number as `ParseFilter.convertByteArrayToLong` reads it: a `-` or none, then digits
/// only (no `+`; a lone `-` is 0). A quoted argument keeps its quotes, which are no digits.
fn integer(arg: &Arg) -> Result<i64, FilterError> {
    let (negative, digits) = match arg.bytes.split_first() {
        Some((b'-', rest)) if !arg.quoted => (true, rest),
        _ => (false, arg.bytes.as_slice()),
    };
    if arg.quoted || !digits.iter().all(u8::is_ascii_digit) {
        return err("Byte Array should only contain digits", arg.span.clone());
    }
    let mut value: i64 = 0;
    for d in digits {
        value = match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(d - b'0')))
        {
            Some(v) => v,
            None => return err("Long Argument too large", arg.span.clone()),
        };
    }
    Ok(if negative { -value } else { value })
}

fn compare_op(arg: &Arg) -> Result<CompareOp, FilterError> {
    match std::str::from_utf8(&arg.bytes)
        .ok()
        .filter(|_| !arg.quoted)
        .and_then(CompareOp::parse)
    {
        Some(op) => Ok(op),
        None => err("Invalid compare operator", arg.span.clone()),
    }
}

fn comparator(arg: &Arg) -> Result<Comparator, FilterError> {
    let bytes = quoted(arg)?;
    let Some(colon) = bytes.iter().position(|b| *b == b':') else {
        return err("Incorrect comparator", arg.span.clone());
    };
    let (kind, value) = (
        bytes.get(..colon).unwrap_or(&[]),
        bytes.get(colon + 1..).unwrap_or(&[]),
    );
    Ok(match kind {
        b"binary" => Comparator::Binary(value.to_vec()),
        b"binaryprefix" => Comparator::BinaryPrefix(value.to_vec()),
        // `regexstringnocase:` is `RegexStringComparator(value, CASE_INSENSITIVE | DOTALL)`
        // (`ParseFilter.createComparator`): Java's case folding without UNICODE_CASE is
        // ASCII's, as `(?i)` here.
        b"regexstring" | b"regexstringnocase" => {
            let mut pattern: String = value.iter().map(|&b| char::from(b)).collect();
            if kind == b"regexstringnocase" {
                pattern.insert_str(0, "(?i)");
            }
            match rowkey_engine::kit::regex::Regex::dot_matches_new_line(&pattern) {
                Ok(re) => Comparator::Regex(re),
                Err(e) => return err(format!("Invalid regular expression: {e}"), arg.span.clone()),
            }
        }
        b"substring" => Comparator::Substring(
            String::from_utf8_lossy(value)
                .chars()
                .map(rowkey_engine::filter::compare::latin1_lowercase)
                .collect(),
        ),
        _ => return err("Incorrect comparatorType", arg.span.clone()),
    })
}

/// The operator and comparator of a compare filter, checked together as HBase checks them.
fn op_and_comparator(op: &Arg, cmp: &Arg) -> Result<(CompareOp, Comparator), FilterError> {
    let o = compare_op(op)?;
    let c = comparator(cmp)?;
    if c.equality_only() && !matches!(o, CompareOp::Equal | CompareOp::NotEqual) {
        return err("A regexstring comparator and substring comparator can only be used with EQUAL and NOT_EQUAL", op.span.start..cmp.span.end);
    }
    Ok((o, c))
}

fn arg(args: &[Arg], i: usize) -> Result<&Arg, FilterError> {
    match args.get(i) {
        Some(a) => Ok(a),
        None => err("Incorrect argument list", 0..0),
    }
}

/// The names HBase registers, for help and completion.
/// `FuzzyRowFilter('key', 'mask', ...)`: pairs of binary-escaped strings.
fn fuzzy_row_filter(args: &[Arg], span: Range<usize>) -> Result<Box<dyn Filter>, FilterError> {
    if args.len() % 2 != 0 {
        return err("FuzzyRowFilter takes (key, mask) pairs", span);
    }
    let mut rules = Vec::new();
    for pair in args.chunks(2) {
        let (Some(key), Some(mask)) = (pair.first(), pair.get(1)) else {
            return err("FuzzyRowFilter takes (key, mask) pairs", span);
        };
        let key = crate::bytes::to_bytes_binary(&quoted(key)?);
        let mask = crate::bytes::to_bytes_binary(&quoted(mask)?);
        rules.push((key, mask));
    }
    Ok(Box::new(FuzzyRowFilter::new(rules)))
}

/// One filter of the filter language (`FILTER => "..."`): its name as `ParseFilter` knows it
/// (`ParseFilter.getSupportedFilters`), its arguments and an example. The parser's names,
/// `show_filters`, completion and the JRuby path read this one table.
#[derive(Debug)]
pub struct FilterSpec {
    pub name: &'static str,
    /// The arguments, as the filter's `createFilterFromArguments` takes them.
    pub args: &'static str,
    /// A call that parses and runs.
    pub example: &'static str,
}

/// Every filter the language knows, in `ParseFilter`'s registration order.
pub const FILTERS: &[FilterSpec] = &[
    FilterSpec {
        name: "KeyOnlyFilter",
        args: "([lenAsValue])",
        example: "KeyOnlyFilter()",
    },
    FilterSpec {
        name: "FirstKeyOnlyFilter",
        args: "()",
        example: "FirstKeyOnlyFilter()",
    },
    FilterSpec {
        name: "PrefixFilter",
        args: "('prefix')",
        example: "PrefixFilter('r')",
    },
    FilterSpec {
        name: "ColumnPrefixFilter",
        args: "('prefix')",
        example: "ColumnPrefixFilter('q')",
    },
    FilterSpec {
        name: "MultipleColumnPrefixFilter",
        args: "('prefix', ...)",
        example: "MultipleColumnPrefixFilter('a', 'q')",
    },
    FilterSpec {
        name: "ColumnCountGetFilter",
        args: "(limit)",
        example: "ColumnCountGetFilter(2)",
    },
    FilterSpec {
        name: "PageFilter",
        args: "(pageSize)",
        example: "PageFilter(10)",
    },
    FilterSpec {
        name: "ColumnPaginationFilter",
        args: "(limit, offset)",
        example: "ColumnPaginationFilter(2, 0)",
    },
    FilterSpec {
        name: "InclusiveStopFilter",
        args: "('stopRow')",
        example: "InclusiveStopFilter('r9')",
    },
    FilterSpec {
        name: "TimestampsFilter",
        args: "(timestamp, ...)",
        example: "TimestampsFilter(1000, 2000)",
    },
    FilterSpec {
        name: "RowFilter",
        args: "(op, 'comparator:value')",
        example: "RowFilter(=, 'binary:r1')",
    },
    FilterSpec {
        name: "FamilyFilter",
        args: "(op, 'comparator:value')",
        example: "FamilyFilter(=, 'binary:f1')",
    },
    FilterSpec {
        name: "QualifierFilter",
        args: "(op, 'comparator:value')",
        example: "QualifierFilter(=, 'substring:q')",
    },
    FilterSpec {
        name: "ValueFilter",
        args: "(op, 'comparator:value')",
        example: "ValueFilter(!=, 'regexstring:^x')",
    },
    FilterSpec {
        name: "ColumnRangeFilter",
        args: "('min', minInclusive, 'max', maxInclusive)",
        example: "ColumnRangeFilter('a', true, 'z', false)",
    },
    FilterSpec {
        name: "SingleColumnValueFilter",
        args:
            "('family', 'qualifier', op, 'comparator:value'[, filterIfMissing, latestVersionOnly])",
        example: "SingleColumnValueFilter('f1', 'q', =, 'binary:v')",
    },
    FilterSpec {
        name: "SingleColumnValueExcludeFilter",
        args:
            "('family', 'qualifier', op, 'comparator:value'[, filterIfMissing, latestVersionOnly])",
        example: "SingleColumnValueExcludeFilter('f1', 'q', =, 'binary:v')",
    },
    FilterSpec {
        name: "DependentColumnFilter",
        args: "('family', 'qualifier'[, dropDependent[, op, 'comparator:value']])",
        example: "DependentColumnFilter('f1', 'q')",
    },
    FilterSpec {
        name: "ColumnValueFilter",
        args: "('family', 'qualifier', op, 'comparator:value')",
        example: "ColumnValueFilter('f1', 'q', =, 'binary:v')",
    },
];

/// The names of [`FILTERS`].
pub fn filter_names() -> impl Iterator<Item = &'static str> + Clone {
    FILTERS.iter().map(|f| f.name)
}

/// Whether the filter language knows `name`.
pub fn is_filter(name: &str) -> bool {
    FILTERS.iter().any(|f| f.name == name)
}

fn build(
    name: &str,
    name_span: Range<usize>,
    args: Vec<Arg>,
    span: Range<usize>,
) -> Result<Box<dyn Filter>, FilterError> {
    let a = |i: usize| arg(&args, i);
    Ok(match name {
        "KeyOnlyFilter" => {
            count(&args, &[0, 1], ": 0 or 1", &span)?;
            let len_as_value = match args.first() {
                Some(x) => boolean(x)?,
                None => false,
            };
            Box::new(KeyOnlyFilter { len_as_value })
        }
        "FirstKeyOnlyFilter" => {
            count(&args, &[0], "0", &span)?;
            Box::new(FirstKeyOnlyFilter::default())
        }
        "PrefixFilter" => {
            count(&args, &[1], "1", &span)?;
            Box::new(PrefixFilter::new(&quoted(a(0)?)?))
        }
        "ColumnPrefixFilter" => {
            count(&args, &[1], "1", &span)?;
            Box::new(ColumnPrefixFilter {
                prefix: quoted(a(0)?)?,
            })
        }
        "MultipleColumnPrefixFilter" => {
            let prefixes = args.iter().map(quoted).collect::<Result<Vec<_>, _>>()?;
            match MultipleColumnPrefixFilter::new(prefixes) {
                Some(f) => Box::new(f),
                None => return err("prefixes must be distinct", span),
            }
        }
        "ColumnCountGetFilter" => {
            count(&args, &[1], "1", &span)?;
            Box::new(ColumnCountGetFilter::new(integer(a(0)?)?))
        }
        "PageFilter" => {
            count(&args, &[1], "1", &span)?;
            let page_size = integer(a(0)?)?;
            if page_size < 0 {
                return err(
                    format!("Page size must be positive: {page_size}"),
                    a(0)?.span.clone(),
                );
            }
            Box::new(PageFilter::new(page_size))
        }
        "ColumnPaginationFilter" => {
            count(&args, &[2], "2", &span)?;
            let (limit, offset) = (integer(a(0)?)?, integer(a(1)?)?);
            if limit < 0 || offset < 0 {
                return err(
                    "limit and offset must be non-negative",
                    a(0)?.span.start..a(1)?.span.end,
                );
            }
            Box::new(ColumnPaginationFilter::new(limit, offset))
        }
        "InclusiveStopFilter" => {
            count(&args, &[1], "1", &span)?;
            Box::new(InclusiveStopFilter::new(quoted(a(0)?)?))
        }
        "TimestampsFilter" => {
            let mut timestamps = Vec::with_capacity(args.len());
            for x in &args {
                let ts = integer(x)?;
                if ts < 0 {
                    return err(
                        format!("Timestamps must not be negative: {ts}"),
                        x.span.clone(),
                    );
                }
                timestamps.push(ts as u64);
            }
            // The filter language builds it without seek hints, as HBase's parser does.
            Box::new(TimestampsFilter::new(timestamps, false))
        }
        "RowFilter" | "FamilyFilter" | "QualifierFilter" | "ValueFilter" => {
            count(&args, &[2], "2", &span)?;
            let (op, comparator) = op_and_comparator(a(0)?, a(1)?)?;
            match name {
                "RowFilter" => Box::new(RowFilter::new(op, comparator)),
                "FamilyFilter" => Box::new(FamilyFilter { op, comparator }),
                "QualifierFilter" => Box::new(QualifierFilter { op, comparator }),
                _ => Box::new(ValueFilter { op, comparator }),
            }
        }
        "ColumnRangeFilter" => {
            count(&args, &[4], "4", &span)?;
            let min = quoted(a(0)?)?;
            let max = quoted(a(2)?)?;
            Box::new(ColumnRangeFilter {
                min: (!min.is_empty()).then_some(min),
                min_inclusive: boolean(a(1)?)?,
                max: (!max.is_empty()).then_some(max),
                max_inclusive: boolean(a(3)?)?,
            })
        }
        "SingleColumnValueFilter" | "SingleColumnValueExcludeFilter" => {
            count(&args, &[4, 6], "4 or 6", &span)?;
            let family = quoted(a(0)?)?;
            let qualifier = quoted(a(1)?)?;
            let (op, comparator) = op_and_comparator(a(2)?, a(3)?)?;
            let (filter_if_missing, latest_version_only) = if args.len() == 6 {
                (boolean(a(4)?)?, boolean(a(5)?)?)
            } else {
                (false, true)
            };
            Box::new(SingleColumnValueFilter::new(
                family,
                qualifier,
                op,
                comparator,
                filter_if_missing,
                latest_version_only,
                name == "SingleColumnValueExcludeFilter",
            ))
        }
        "DependentColumnFilter" => {
            count(&args, &[2, 3, 5], "2, 3 or 5", &span)?;
            let family = quoted(a(0)?)?;
            let qualifier = quoted(a(1)?)?;
            let drop_dependent = if args.len() >= 3 {
                boolean(a(2)?)?
            } else {
                false
            };
            let compare = if args.len() == 5 {
                Some(op_and_comparator(a(3)?, a(4)?)?)
            } else {
                None
            };
            Box::new(DependentColumnFilter::new(
                family,
                qualifier,
                drop_dependent,
                compare,
            ))
        }
        "ColumnValueFilter" => {
            // `ColumnValueFilter.createFilterFromArguments`.
            if args.len() != 4 {
                return err(format!("Expect 4 arguments: {}", args.len()), span);
            }
            let family = quoted(a(0)?)?;
            let qualifier = quoted(a(1)?)?;
            let (op, comparator) = op_and_comparator(a(2)?, a(3)?)?;
            Box::new(ColumnValueFilter::new(family, qualifier, op, comparator))
        }
        _ => return err(format!("Filter Name {name} not supported"), name_span),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What refused `text` (for a filter's arguments, its own check, which HBase wraps) and
    /// where.
    fn error(text: &str) -> (String, Range<usize>) {
        match parse_filter(text) {
            Ok(f) => panic!("{text} parsed as {f:?}"),
            Err(e) => (e.cause.unwrap_or(e.message), e.span),
        }
    }

    /// `ParseFilter.parseSimpleFilterExpression` turns whatever a filter's
    /// `createFilterFromArguments` throws into `Incorrect filter string` and the expression;
    /// an unknown name and the language's own errors are reported as they are.
    #[test]
    fn a_filter_refusing_its_arguments_is_an_incorrect_filter_string() {
        for (text, expression, cause) in [
            (
                "PrefixFilter(1)",
                "PrefixFilter(1)",
                "removeQuotesFromByteArray needs a quoted byte array",
            ),
            (
                "KeyOnlyFilter() AND ValueFilter(=, 'binary:a', 3)",
                "ValueFilter(=, 'binary:a', 3)",
                "Expected 2 but got: 3",
            ),
            (
                "PageFilter(+1)",
                "PageFilter(+1)",
                "Byte Array should only contain digits",
            ),
            (
                "PageFilter('1')",
                "PageFilter('1')",
                "Byte Array should only contain digits",
            ),
            (
                "PageFilter(99999999999999999999)",
                "PageFilter(99999999999999999999)",
                "Long Argument too large",
            ),
        ] {
            let e = parse_filter(text).err().map(|e| (e.message, e.cause));
            assert_eq!(
                e,
                Some((
                    format!("Incorrect filter string {expression}"),
                    Some(cause.to_string())
                )),
                "{text}"
            );
        }
        let e = parse_filter("Foo(1)").err().map(|e| (e.message, e.cause));
        assert_eq!(e, Some(("Filter Name Foo not supported".to_string(), None)));
        let e = parse_filter("PrefixFilter('a'")
            .err()
            .map(|e| (e.message, e.cause));
        assert_eq!(e, Some(("Incorrect Filter String".to_string(), None)));
    }

    /// `convertByteArrayToLong` takes a `-` and digits; a lone `-` reads as 0.
    #[test]
    fn numbers_are_read_as_hbase_reads_them() -> Result<(), FilterError> {
        for text in [
            "PageFilter(-)",
            "PageFilter(0)",
            "ColumnPaginationFilter(-, 0)",
        ] {
            parse_filter(text)?;
        }
        Ok(())
    }

    #[test]
    fn unknown_filter_points_at_its_name() {
        assert_eq!(
            error("PrefixFilter('a') AND NoSuchFilter('b')"),
            ("Filter Name NoSuchFilter not supported".into(), 22..34)
        );
    }

    #[test]
    fn wrong_argument_count_uses_hbase_wording() {
        assert_eq!(error("PrefixFilter('a', 'b')").0, "Expected 1 but got: 2");
        assert_eq!(
            error("SingleColumnValueFilter('f', 'q', =)").0,
            "Expected 4 or 6 but got: 3"
        );
    }

    #[test]
    fn regex_comparator_refuses_ordering_operators() {
        let (msg, span) = error("ValueFilter(<, 'regexstring:a.*')");
        assert!(msg.starts_with("A regexstring comparator and substring comparator"));
        assert_eq!(span, 12..32);
    }

    #[test]
    fn mismatched_parentheses_and_dangling_operators() {
        assert_eq!(error("(PrefixFilter('a')").0, "Mismatched parenthesis");
        assert_eq!(error("PrefixFilter('a'))").0, "Mismatched parenthesis");
        assert_eq!(
            error("PrefixFilter('a') AND ").0,
            "Incorrect input string - an AND needs two filters"
        );
        assert_eq!(error("").0, "Incorrect Filter String");
    }

    #[test]
    fn doubled_quotes_are_one_quote() -> Result<(), FilterError> {
        // The prefix is `it's`: a row starting with it passes, one starting `it''s` does not.
        let mut f = parse_filter("PrefixFilter('it''s')")?;
        assert!(!f.filter_row_key(b"it's a row"));
        assert!(f.filter_row_key(b"it''s a row"));
        assert!(f.filter_row_key(b"its"));
        Ok(())
    }
}

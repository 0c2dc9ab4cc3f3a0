//! Rowkey's own commands, which HBase does not have: `generate` fills a table with rows whose
//! keys follow a template, so a design can be tried on a million rows in seconds.
//!
//! A key template is text with placeholders for the row number `n`:
//! `%d` (decimal), `%x` (hexadecimal), each with an optional zero-padded width (`%08d`), `%h`
//! (a salt: the first hex digits of a hash of `n`, 4 unless a width 1..16 is given: `%2h`) and
//! `%%` (a percent sign). Row `i` of `count` has number `n = START + i * STEP`. Values are a
//! function of the row number and column, so a second run writes the same values.

use std::ops::Range;

use super::args::{bytes_of, columns_of, fail, uint_of, word_of, Args, Opts, Res};
use super::{Ctx, Reply, Step};
use crate::commands::{self, Dialect};
use crate::engine::Mutation;
use crate::kit::seeded::hash;
use crate::kit::text::plural;
use crate::shell::ast::Spanned;

pub(in crate::shell) fn generate(ctx: &mut Ctx<'_>, args: &Args<'_>) -> Res<Reply> {
    let budget = ctx.gen_budget;
    generate_rows(ctx, args, Progress::default(), budget)
}

/// Goes on with a `generate` for up to `rows` more rows.
pub(super) fn resume_generate(
    ctx: &mut Ctx<'_>,
    args: &Args<'_>,
    done: Progress,
    rows: usize,
) -> Res<Reply> {
    generate_rows(ctx, args, done, Some(rows))
}

/// How far a `generate` got.
#[derive(Clone, Debug, Default)]
pub(super) struct Progress {
    /// Rows written.
    pub(super) rows: u64,
    /// Cells written.
    pub(super) cells: u64,
    /// Rows the command writes in all.
    pub(super) total: u64,
    /// The table written to.
    pub(super) table: String,
}

/// The most rows one `generate` writes.
const MAX_ROWS: u64 = 10_000_000;
/// The largest value `VALUE_SIZE` allows.
const MAX_VALUE_SIZE: u64 = 65_536;

/// In which order the rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Sequential,
    Reversed,
    /// A fixed shuffle: row `(a * i + c) mod count` for a multiplier `a` near 0.618 `count`
    /// that shares no factor with `count`, so every row is written once.
    Random {
        a: u64,
        c: u64,
    },
}

/// A parsed `generate` command.
struct Plan {
    table: String,
    template: Template,
    count: u64,
    columns: Vec<(Vec<u8>, Vec<u8>)>,
    value_size: usize,
    start: u64,
    step: u64,
    order: Order,
}

fn generate_rows(
    ctx: &mut Ctx<'_>,
    args: &Args<'_>,
    mut done: Progress,
    budget: Option<usize>,
) -> Res<Reply> {
    let plan = plan(ctx, args)?;
    done.total = plan.count;
    done.table.clone_from(&plan.table);
    let budget = budget.map_or(u64::MAX, |b| b.max(1) as u64);
    let end = plan.count.min(done.rows.saturating_add(budget));
    let mut key = Vec::new();
    // One put a column, made once: each row writes its values into them (the engine copies
    // what it keeps).
    let mut mutations: Vec<Mutation> = plan
        .columns
        .iter()
        .map(|(family, qualifier)| Mutation::Put {
            family: family.clone(),
            qualifier: qualifier.clone(),
            timestamp: None,
            value: Vec::with_capacity(plan.value_size),
            ttl_ms: None,
        })
        .collect();
    while done.rows < end {
        let n = plan.number(done.rows);
        key.clear();
        plan.template.render(n, &mut key);
        for (c, m) in mutations.iter_mut().enumerate() {
            if let Mutation::Put { value: v, .. } = m {
                value_into(n, c as u64, plan.value_size, v);
            }
        }
        ctx.engine
            .mutate(&plan.table, &key, &mutations)
            .or_else(|e| fail(e.to_string(), args.span(0)))?;
        done.rows += 1;
        done.cells += mutations.len() as u64;
    }
    if done.rows < plan.count {
        ctx.more = Some(Step::Generate(done));
        return Ok(Some(String::new()));
    }
    Ok(Some(done.written()))
}

impl Progress {
    /// The line that reports what was written.
    pub(super) fn written(&self) -> String {
        format!(
            "{} {}, {} {} written to '{}'\n",
            self.rows,
            plural(self.rows, "row"),
            self.cells,
            plural(self.cells, "cell"),
            self.table
        )
    }
}

impl Plan {
    /// The row number of the `i`-th row written.
    fn number(&self, i: u64) -> u64 {
        let index = match self.order {
            Order::Sequential => i,
            Order::Reversed => self.count - 1 - i,
            Order::Random { a, c } => {
                ((u128::from(a) * u128::from(i) + u128::from(c)) % u128::from(self.count)) as u64
            }
        };
        self.start.saturating_add(index.saturating_mul(self.step))
    }
}

/// Reads and checks the command before anything is written.
fn plan(ctx: &Ctx<'_>, args: &Args<'_>) -> Res<Plan> {
    let table = args.table(0)?;
    let template_arg = args.get(1).ok_or_else(|| missing(args, "key template"))?;
    let template = Template::parse(&bytes_of(template_arg, "key template")?, template_arg)?;
    let count_arg = args.get(2).ok_or_else(|| missing(args, "row count"))?;
    let count = uint_of(count_arg, "row count")?;
    if !(1..=MAX_ROWS).contains(&count) {
        return fail(
            format!("row count must be 1 to {MAX_ROWS}"),
            count_arg.span.clone(),
        );
    }
    let descriptor = &ctx
        .engine
        .table(&table)
        .or_else(|e| fail(e.to_string(), args.span(0)))?
        .descriptor;
    let mut plan = Plan {
        columns: Vec::new(),
        table,
        template,
        count,
        value_size: 8,
        start: 0,
        step: 1,
        order: Order::Sequential,
    };
    let mut opts = match args.get(3) {
        Some(h) => Opts::of(h)?,
        None => Opts::empty(),
    };
    if let Some(v) = opts.take("COLUMNS") {
        for (family, qualifier) in columns_of(v)? {
            if descriptor.family(&family).is_none() {
                return fail(
                    format!(
                        "Column family {} does not exist in table {}",
                        crate::bytes::to_printable(&family),
                        plan.table
                    ),
                    v.span.clone(),
                );
            }
            plan.columns.push((family, qualifier.unwrap_or_default()));
        }
    }
    if plan.columns.is_empty() {
        let Some(first) = descriptor.families.first() else {
            return fail("the table has no column family", args.span(0));
        };
        plan.columns
            .push((first.name.clone().into_bytes(), b"v".to_vec()));
    }
    if let Some(v) = opts.take("VALUE_SIZE") {
        let size = uint_of(v, "VALUE_SIZE")?;
        if size > MAX_VALUE_SIZE {
            return fail(
                format!("VALUE_SIZE must be at most {MAX_VALUE_SIZE}"),
                v.span.clone(),
            );
        }
        plan.value_size = size as usize;
    }
    if let Some(v) = opts.take("START") {
        plan.start = uint_of(v, "START")?;
    }
    if let Some(v) = opts.take("STEP") {
        plan.step = uint_of(v, "STEP")?;
        if plan.step == 0 {
            return fail("STEP must be positive", v.span.clone());
        }
    }
    if let Some(v) = opts.take("ORDER") {
        plan.order = order(v, count)?;
    }
    opts.done(commands::options(Dialect::HBase, "generate"), &[])?;
    Ok(plan)
}

fn missing(args: &Args<'_>, what: &str) -> Box<crate::shell::ShellError> {
    Box::new(crate::shell::ShellError {
        message: format!("missing {what}"),
        span: args.cmd.span.end..args.cmd.span.end,
        command: None,
    })
}

fn order(v: &Spanned, count: u64) -> Res<Order> {
    match word_of(&v.value).map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("sequential") => Ok(Order::Sequential),
        Some("reversed") => Ok(Order::Reversed),
        Some("random") => {
            let mut a = ((count as f64 * 0.618_033_988_7) as u64).max(1);
            while gcd(a, count) != 1 {
                a += 1;
            }
            Ok(Order::Random { a, c: count / 3 })
        }
        _ => fail(
            "ORDER must be 'sequential', 'random' or 'reversed'",
            v.span.clone(),
        ),
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Puts into `out`, in place of what it held, a cell value of `size` letters and digits, a
/// function of the row number and column.
fn value_into(n: u64, column: u64, size: usize, out: &mut Vec<u8>) {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let mut state = hash(n ^ column.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    out.clear();
    while out.len() < size {
        state = hash(state);
        for k in 0..12 {
            if out.len() == size {
                break;
            }
            out.push(ALPHABET[((state >> (k * 5)) & 31) as usize]);
        }
    }
}

/// One piece of a key template.
#[derive(Debug, PartialEq, Eq)]
enum Piece {
    Text(Vec<u8>),
    Decimal {
        width: usize,
    },
    Hex {
        width: usize,
    },
    /// The first `digits` hex digits of a hash of the row number.
    Salt {
        digits: usize,
    },
}

/// A parsed key template.
#[derive(Debug)]
struct Template(Vec<Piece>);

impl Template {
    fn parse(bytes: &[u8], arg: &Spanned) -> Res<Template> {
        // Where byte `i` of the template sits in the input (exact for a literal without
        // escapes, which templates almost always are).
        let at = |from: usize, to: usize| -> Range<usize> {
            let inner = arg.span.start + 1..arg.span.end.saturating_sub(1).max(arg.span.start + 1);
            (inner.start + from).min(inner.end)..(inner.start + to).min(inner.end)
        };
        let mut pieces = Vec::new();
        let mut text = Vec::new();
        let mut numbered = false;
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b != b'%' {
                text.push(b);
                i += 1;
                continue;
            }
            let start = i;
            i += 1;
            let digits_from = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            let width: Option<usize> =
                std::str::from_utf8(bytes.get(digits_from..i).unwrap_or(&[]))
                    .ok()
                    .and_then(|w| w.parse().ok());
            let Some(&kind) = bytes.get(i) else {
                return fail(
                    "unfinished placeholder at the end of the key template; expected %d, %x, %h or %%",
                    at(start, i),
                );
            };
            i += 1;
            let piece = match kind {
                b'%' if digits_from == i - 1 => {
                    text.push(b'%');
                    continue;
                }
                b'd' | b'x' => {
                    let width = width.unwrap_or(0);
                    if width > 20 {
                        return fail("a placeholder's width is at most 20", at(start, i));
                    }
                    numbered = true;
                    if kind == b'd' {
                        Piece::Decimal { width }
                    } else {
                        Piece::Hex { width }
                    }
                }
                b'h' => {
                    let digits = width.unwrap_or(4);
                    if !(1..=16).contains(&digits) {
                        return fail("%h takes 1 to 16 hex digits", at(start, i));
                    }
                    Piece::Salt { digits }
                }
                _ => {
                    return fail(
                        format!(
                        "unknown placeholder %{} in the key template; expected %d, %x, %h or %%",
                        String::from_utf8_lossy(bytes.get(digits_from..i).unwrap_or(&[]))
                    ),
                        at(start, i),
                    )
                }
            };
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(piece);
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        if !numbered {
            return fail(
                "the key template needs %d or %x so that every row gets its own key",
                arg.span.clone(),
            );
        }
        Ok(Template(pieces))
    }

    fn render(&self, n: u64, out: &mut Vec<u8>) {
        for piece in &self.0 {
            match piece {
                Piece::Text(t) => out.extend_from_slice(t),
                Piece::Decimal { width } => push_digits(out, n, 10, *width),
                Piece::Hex { width } => push_digits(out, n, 16, *width),
                Piece::Salt { digits } => {
                    // The first digits of the hash's 16 hex digits.
                    let start = out.len();
                    push_digits(out, hash(n), 16, 16);
                    out.truncate(start + digits);
                }
            }
        }
    }
}

/// `n`'s digits in `radix` (10, or 16 in lower case), zero-padded to `width`: what
/// `{n:0width$}` and `{n:0width$x}` write, without a formatter or a string for each key.
fn push_digits(out: &mut Vec<u8>, n: u64, radix: u64, width: usize) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut v = n;
    loop {
        at -= 1;
        buf[at] = b"0123456789abcdef"[(v % radix) as usize];
        v /= radix;
        if v == 0 {
            break;
        }
    }
    out.resize(out.len() + width.saturating_sub(buf.len() - at), b'0');
    out.extend_from_slice(&buf[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digits are `format!`'s, at every width a template allows, in both radixes.
    #[test]
    fn digits_are_formats() {
        let numbers = [
            0,
            1,
            9,
            10,
            15,
            16,
            255,
            4096,
            99_999,
            1 << 32,
            u64::MAX - 1,
            u64::MAX,
        ];
        for n in numbers {
            for width in 0..=20 {
                let mut out = b"k".to_vec();
                push_digits(&mut out, n, 10, width);
                assert_eq!(out, format!("k{n:0width$}").into_bytes());
                let mut out = Vec::new();
                push_digits(&mut out, n, 16, width);
                assert_eq!(out, format!("{n:0width$x}").into_bytes());
            }
        }
    }

    #[test]
    fn random_order_writes_every_row_once() {
        for count in [1, 2, 3, 10, 97, 1000] {
            let Ok(Order::Random { a, c }) = order(
                &Spanned {
                    value: crate::shell::Value::Str(b"random".to_vec()),
                    span: 0..0,
                },
                count,
            ) else {
                panic!("random order");
            };
            let mut seen: Vec<u64> = (0..count)
                .map(|i| {
                    ((u128::from(a) * u128::from(i) + u128::from(c)) % u128::from(count)) as u64
                })
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..count).collect::<Vec<_>>());
        }
    }

    fn value(n: u64, column: u64, size: usize) -> Vec<u8> {
        let mut out = Vec::new();
        value_into(n, column, size, &mut out);
        out
    }

    #[test]
    fn values_are_a_function_of_row_and_column() {
        // A buffer that held a longer value first holds the same value as a new one.
        let mut reused = value(9, 3, 40);
        value_into(7, 0, 16, &mut reused);
        assert_eq!(reused, value(7, 0, 16));
        assert_eq!(value(7, 0, 16), value(7, 0, 16));
        assert_ne!(value(7, 0, 16), value(7, 1, 16));
        assert_ne!(value(7, 0, 16), value(8, 0, 16));
        assert_eq!(value(7, 0, 40).len(), 40);
        assert!(value(7, 0, 40).iter().all(u8::is_ascii_alphanumeric));
    }
}

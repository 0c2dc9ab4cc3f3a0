//! The key template at work: the key of row n, made again the same way every time it is asked
//! for. Every random draw of a row comes from a generator seeded by the workload's seed, the
//! table and the row's number, so a get of row n finds the key its put wrote.

use md5::{Digest, Md5};

use super::workload::{
    Base, Distribution, KeyField, NumberFormat, TableLoad, TimeEncoding, Workload,
};
use super::SimulateError;
use crate::bytes::{from_printable, to_printable};
use crate::designs::gen::Gen;

/// A 64-bit hash of `x` (SplitMix64's output for the state `x`).
pub(crate) fn hash64(x: u64) -> u64 {
    Gen::new(x).next_u64()
}

/// A 64-bit hash of bytes.
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| hash64(h ^ u64::from(b)))
}

/// A key template made ready to write keys.
#[derive(Clone, Debug)]
pub struct KeyMaker {
    fields: Vec<KeyField>,
    /// Bytes of each constant field and each choice option, decoded once.
    texts: Vec<Vec<Vec<u8>>>,
    /// Per field: the field index an `md5` or `salt` reads, if any.
    sources: Vec<Option<usize>>,
    /// Per Zipf field: the CDF's normaliser.
    seed: u64,
}

/// One key made: its bytes, where each field ends, and the first entity field's id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MadeKey {
    pub key: Vec<u8>,
    /// `ends[i]` is the end offset of field i in `key`.
    pub ends: Vec<u32>,
    /// The id drawn by the key's first entity field.
    pub entity: Option<u64>,
}

impl MadeKey {
    /// The bytes of the first `fields` fields.
    pub fn prefix(&self, fields: usize) -> &[u8] {
        let end = match fields {
            0 => 0,
            n => self
                .ends
                .get(n - 1)
                .copied()
                .unwrap_or(self.key.len() as u32) as usize,
        };
        self.key.get(..end).unwrap_or(&self.key)
    }
}

impl KeyMaker {
    /// The maker of `table`'s keys under `seed`.
    pub fn new(table: &TableLoad, seed: u64, table_index: usize) -> KeyMaker {
        let texts = table
            .key
            .iter()
            .map(|f| match f {
                KeyField::Constant { text, .. } => vec![from_printable(text)],
                KeyField::Choice { options, .. } => {
                    options.iter().map(|o| from_printable(&o.text)).collect()
                }
                _ => Vec::new(),
            })
            .collect();
        let sources = table
            .key
            .iter()
            .map(|f| match f {
                KeyField::Md5 { of, .. } | KeyField::Salt { of: Some(of), .. } => {
                    table.key.iter().position(|g| g.name() == of)
                }
                _ => None,
            })
            .collect();
        KeyMaker {
            fields: table.key.clone(),
            texts,
            sources,
            seed: hash64(seed ^ hash64(table_index as u64 + 1)),
        }
    }

    /// The fields.
    pub fn fields(&self) -> &[KeyField] {
        &self.fields
    }

    /// The key of row `row` (0-based, in order of creation) made at `at_ms` (epoch ms), written
    /// into `out` (cleared first).
    pub fn make(&self, row: u64, at_ms: u64, out: &mut MadeKey) {
        let mut gen = Gen::new(hash64(self.seed ^ hash64(row)));
        out.key.clear();
        out.ends.clear();
        out.entity = None;
        // Pass 1: every field that needs no other field, drawing in field order; derived
        // fields (md5, salt of a field) keep their place empty for pass 2.
        let mut parts: Vec<Vec<u8>> = Vec::with_capacity(self.fields.len());
        for (i, field) in self.fields.iter().enumerate() {
            let mut bytes = Vec::new();
            match field {
                KeyField::Constant { .. } => {
                    bytes.extend_from_slice(self.texts[i].first().map_or(&[][..], |t| t))
                }
                KeyField::Sequence { start, format, .. } => {
                    write_number(start.saturating_add(row), *format, &mut bytes)
                }
                KeyField::Entity {
                    count,
                    distribution,
                    format,
                    ..
                } => {
                    let id = draw_entity(&mut gen, *count, *distribution);
                    if out.entity.is_none() {
                        out.entity = Some(id);
                    }
                    write_number(id, *format, &mut bytes);
                }
                KeyField::Timestamp { encoding, .. } => write_time(at_ms, *encoding, &mut bytes),
                KeyField::Salt {
                    buckets, of: None, ..
                } => {
                    let b = gen.below(*buckets);
                    write_salt(b, *buckets, &mut bytes);
                }
                KeyField::Choice { options, .. } => {
                    let total: f64 = options.iter().map(|o| o.weight).sum();
                    let mut pick = gen.unit() * total;
                    let mut chosen = options.len() - 1;
                    for (o, opt) in options.iter().enumerate() {
                        if pick < opt.weight {
                            chosen = o;
                            break;
                        }
                        pick -= opt.weight;
                    }
                    bytes.extend_from_slice(self.texts[i].get(chosen).map_or(&[][..], |t| t));
                }
                KeyField::Md5 { .. } | KeyField::Salt { .. } => {}
            }
            parts.push(bytes);
        }
        for (i, field) in self.fields.iter().enumerate() {
            let source = self.sources[i]
                .and_then(|s| parts.get(s))
                .cloned()
                .unwrap_or_default();
            match field {
                KeyField::Md5 { digits, .. } => {
                    let digest = Md5::digest(&source);
                    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                    parts[i] = hex.as_bytes()[..(*digits as usize).min(32)].to_vec();
                }
                KeyField::Salt {
                    buckets,
                    of: Some(_),
                    ..
                } => {
                    let mut bytes = Vec::new();
                    write_salt(hash_bytes(&source) % buckets, *buckets, &mut bytes);
                    parts[i] = bytes;
                }
                _ => {}
            }
        }
        for part in parts {
            out.key.extend_from_slice(&part);
            out.ends.push(out.key.len() as u32);
        }
    }

    /// The fraction of all rows that share the first `fields` fields of a key whose first
    /// entity id is `entity`: the product of each field's chance (1 for a constant or a field
    /// fixed by an earlier one, the entity's probability, 1 / buckets, the option's weight).
    /// `None` when the prefix holds a per-row field (a sequence or a timestamp), so it names one
    /// row.
    pub fn prefix_share(&self, fields: usize, key: &MadeKey) -> Option<f64> {
        let mut share = 1.0;
        let mut entity_seen = false;
        for (i, field) in self.fields.iter().take(fields).enumerate() {
            let source_in_prefix = self.sources[i].is_some_and(|s| s < fields);
            match field {
                KeyField::Sequence { .. } | KeyField::Timestamp { .. } => return None,
                KeyField::Entity {
                    count,
                    distribution,
                    ..
                } => {
                    if !entity_seen {
                        entity_seen = true;
                        let id = key.entity.unwrap_or(0);
                        share *= entity_probability(*count, *distribution, id);
                    } else {
                        share /= *count as f64;
                    }
                }
                KeyField::Salt { buckets, .. } if !source_in_prefix => share /= *buckets as f64,
                KeyField::Choice { options, .. } => {
                    let total: f64 = options.iter().map(|o| o.weight).sum();
                    let start = if i == 0 { 0 } else { key.ends[i - 1] as usize };
                    let end = key.ends[i] as usize;
                    let text = &key.key[start..end];
                    let w: f64 = self.texts[i]
                        .iter()
                        .zip(options)
                        .filter(|(t, _)| t.as_slice() == text)
                        .map(|(_, o)| o.weight)
                        .sum();
                    share *= w / total;
                }
                KeyField::Md5 { digits, .. } if !source_in_prefix => {
                    share /= 16f64.powi((*digits).min(15) as i32)
                }
                _ => {}
            }
        }
        Some(share)
    }

    /// How many distinct keys the template can make: `None` when a field is per row (a
    /// sequence, a timestamp). Fields made from another (an md5, a salt of a field) add none.
    pub fn cardinality(&self) -> Option<f64> {
        let mut k = 1.0;
        for (i, field) in self.fields.iter().enumerate() {
            match field {
                KeyField::Sequence { .. } | KeyField::Timestamp { .. } => return None,
                KeyField::Entity { count, .. } => k *= *count as f64,
                KeyField::Salt { buckets, .. } if self.sources[i].is_none() => k *= *buckets as f64,
                KeyField::Choice { options, .. } => k *= options.len() as f64,
                _ => {}
            }
        }
        Some(k)
    }

    /// The index of the first timestamp field, if any.
    pub fn timestamp_field(&self) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| matches!(f, KeyField::Timestamp { .. }))
    }

    /// The index of the first entity field, if any.
    pub fn entity_field(&self) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| matches!(f, KeyField::Entity { .. }))
    }
}

/// Writes `n` in `format`.
pub fn write_number(n: u64, format: NumberFormat, out: &mut Vec<u8>) {
    let width = format.width as usize;
    let text = match format.base {
        Base::Decimal => format!("{n:0width$}"),
        Base::Hex => format!("{n:0width$x}"),
    };
    if format.reverse {
        out.extend(text.bytes().rev());
    } else {
        out.extend_from_slice(text.as_bytes());
    }
}

fn write_salt(bucket: u64, buckets: u64, out: &mut Vec<u8>) {
    let width = buckets.saturating_sub(1).to_string().len();
    out.extend_from_slice(format!("{bucket:0width$}").as_bytes());
}

/// Writes the clock `ms` as `encoding` says.
pub fn write_time(ms: u64, encoding: TimeEncoding, out: &mut Vec<u8>) {
    let reversed = (i64::MAX as u64).saturating_sub(ms);
    match encoding {
        TimeEncoding::Millis => out.extend_from_slice(format!("{ms:013}").as_bytes()),
        TimeEncoding::MillisBytes => out.extend_from_slice(&ms.to_be_bytes()),
        TimeEncoding::ReverseDecimal => out.extend_from_slice(format!("{reversed:019}").as_bytes()),
        TimeEncoding::ReverseBytes => out.extend_from_slice(&reversed.to_be_bytes()),
    }
}

/// Draws an entity id in `0..count`.
pub fn draw_entity(gen: &mut Gen, count: u64, distribution: Distribution) -> u64 {
    let u = gen.unit();
    let last = count.saturating_sub(1);
    match distribution {
        Distribution::Uniform => ((u * count as f64) as u64).min(last),
        Distribution::Zipf { s } => {
            // The continuous Zipf law on [1, count + 1): rank x with density ∝ x^-s, by the
            // inverse of its CDF; entity = floor(x) - 1.
            let top = (count + 1) as f64;
            let x = if (s - 1.0).abs() < 1e-9 {
                top.powf(u)
            } else {
                let a = 1.0 - s;
                (1.0 + u * (top.powf(a) - 1.0)).powf(1.0 / a)
            };
            ((x.floor() as u64).saturating_sub(1)).min(last)
        }
        Distribution::Recent { decay } => {
            // A geometric age truncated to count: P(a) ∝ decay^a.
            let tail = decay.powf(count as f64);
            let age = ((1.0 - u * (1.0 - tail)).ln() / decay.ln()).floor() as u64;
            last - age.min(last)
        }
    }
}

/// The probability [`draw_entity`] gives `id`.
pub fn entity_probability(count: u64, distribution: Distribution, id: u64) -> f64 {
    match distribution {
        Distribution::Uniform => 1.0 / count as f64,
        Distribution::Zipf { s } => {
            let top = (count + 1) as f64;
            let cdf = |x: f64| {
                if (s - 1.0).abs() < 1e-9 {
                    x.ln() / top.ln()
                } else {
                    let a = 1.0 - s;
                    (x.powf(a) - 1.0) / (top.powf(a) - 1.0)
                }
            };
            let x = (id + 1) as f64;
            cdf(x + 1.0) - cdf(x)
        }
        Distribution::Recent { decay } => {
            let age = count.saturating_sub(1).saturating_sub(id) as f64;
            (1.0 - decay) * decay.powf(age) / (1.0 - decay.powf(count as f64))
        }
    }
}

/// How many new rows the uniqueness check makes.
pub const UNIQUE_CHECK_ROWS: u64 = 100_000;

/// Checks that the first rows of `table` get keys of their own, at its put rate from the
/// start: the keys of up to [`UNIQUE_CHECK_ROWS`] rows are made and compared.
pub(crate) fn check_unique(
    table: &TableLoad,
    at: &str,
    workload: &Workload,
) -> Result<(), SimulateError> {
    let t = workload
        .tables
        .iter()
        .position(|o| std::ptr::eq(o, table))
        .unwrap_or(0);
    let maker = KeyMaker::new(table, workload.seed, t);
    let per_sec: f64 = table
        .operations
        .iter()
        .filter(|o| matches!(o, super::workload::Operation::PutNew { .. }))
        .map(|o| o.rate().per_sec)
        .sum();
    let puts = (per_sec * workload.duration_ms as f64 / 1000.0) as u64 + table.initial_rows;
    let rows = puts.min(UNIQUE_CHECK_ROWS);
    let mut seen = crate::kit::hash::FastMap::default();
    seen.reserve(rows as usize);
    let mut made = MadeKey::default();
    for row in 0..rows {
        let at_ms = if per_sec > 0.0 {
            workload.start_ms + (row as f64 * 1000.0 / per_sec) as u64
        } else {
            workload.start_ms
        };
        maker.make(row, at_ms, &mut made);
        if let Some(first) = seen.insert(made.key.clone(), row) {
            return Err(SimulateError::invalid(
                format!("{at}.key"),
                format!(
                    "rows {first} and {row} both get the key '{}' though unique is set: add a sequence field, or a wider one",
                    to_printable(&made.key)
                ),
            ));
        }
    }
    Ok(())
}

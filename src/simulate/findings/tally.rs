//! Tallies the findings keep between calls: per row and per entity, what the samples hitting
//! it stand for. Samples are added a part at a time, in their order, so every sum is the one
//! a single pass gives; rows and prefixes are held as sample indices (never borrowed keys),
//! so a tally can wait in a run between two calls.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::kit::hash::FastMap;
use crate::simulate::run::Sample;
use crate::simulate::OpKind;

/// What the samples hitting one row stand for.
#[derive(Clone, Debug, Default)]
pub struct RowFigures {
    /// The first sample hitting the row (its key is the row's).
    pub sample: u32,
    /// Gets, puts and deletes hitting it (scans and the rows there before the start aside).
    pub hits: u32,
    /// The reads and the writes those stand for.
    pub reads: f64,
    pub writes: f64,
    /// Samples writing it (the rows there before the start included), the bytes they wrote
    /// and the dynamic cells they added.
    pub puts: u32,
    pub bytes: f64,
    pub cells: f64,
    /// The next row whose key has the same hash (`u32::MAX`: none).
    next: u32,
}

/// Per row (per distinct key), its [`RowFigures`], in the order rows were first hit; and the
/// table's reads and writes.
#[derive(Clone, Debug, Default)]
pub struct RowTally {
    /// A key's hash → its first row in `rows` (others with the hash chained by `next`).
    slots: FastMap<u64, u32>,
    pub rows: Vec<RowFigures>,
    /// Every operation's reads and writes (scans included).
    pub reads: f64,
    pub writes: f64,
}

fn hash(key: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    h.finish()
}

impl RowTally {
    /// Adds samples `first..end` of `all` (keys in `keys`); `dynamic_cells` is the table's
    /// count of dynamic columns.
    pub fn add(
        &mut self,
        all: &[Sample],
        first: usize,
        end: usize,
        keys: &[u8],
        dynamic_cells: f64,
    ) {
        for (i, s) in all.iter().enumerate().take(end).skip(first) {
            match s.kind {
                None => {}
                Some(k) if k.is_read() => self.reads += s.weight,
                _ => self.writes += s.weight,
            }
            let hit = !s.is_initial() && !s.is_scan();
            let put = matches!(s.kind, Some(OpKind::PutNew | OpKind::Update) | None);
            if !hit && !put {
                continue;
            }
            let row = self.row_of(all, i, keys);
            let Some(r) = self.rows.get_mut(row) else {
                continue;
            };
            if hit {
                r.hits += 1;
                if s.is_read() {
                    r.reads += s.weight;
                } else {
                    r.writes += s.weight;
                }
            }
            if put {
                r.bytes += s.bytes;
                r.cells += s.weight * dynamic_cells;
                r.puts += 1;
            }
        }
    }

    /// The row of sample `i` of `all`, made if new.
    fn row_of(&mut self, all: &[Sample], i: usize, keys: &[u8]) -> usize {
        let key = all.get(i).map_or(&[][..], |s| s.key(keys));
        let h = hash(key);
        let index = i as u32;
        let Some(&head) = self.slots.get(&h) else {
            self.slots.insert(h, self.rows.len() as u32);
            self.rows.push(RowFigures {
                sample: index,
                next: u32::MAX,
                ..RowFigures::default()
            });
            return self.rows.len() - 1;
        };
        let mut at = head as usize;
        loop {
            let r = &self.rows[at];
            let theirs = all.get(r.sample as usize).map(|s| s.key(keys));
            if theirs == Some(key) {
                return at;
            }
            if r.next == u32::MAX {
                break;
            }
            at = r.next as usize;
        }
        self.rows[at].next = self.rows.len() as u32;
        self.rows.push(RowFigures {
            sample: index,
            next: u32::MAX,
            ..RowFigures::default()
        });
        self.rows.len() - 1
    }
}

/// Per entity: the operations it stands for and the first two distinct key prefixes up to its
/// field (sample index and length); and every operation's weight.
#[derive(Clone, Debug, Default)]
pub struct EntityTally {
    pub entities: FastMap<u64, (f64, Vec<(u32, u32)>)>,
    pub total: f64,
}

impl EntityTally {
    /// Adds samples `first..` of `all` (keys in `keys`).
    pub fn add(&mut self, all: &[Sample], first: usize, end: usize, keys: &[u8]) {
        for (i, s) in all.iter().enumerate().take(end).skip(first) {
            if s.is_initial() {
                continue;
            }
            let Some(e) = s.entity else { continue };
            let key = s.key(keys);
            let len = (s.entity_end as usize).min(key.len());
            let entry = self.entities.entry(e).or_default();
            entry.0 += s.weight;
            if entry.1.len() < 2
                && !entry
                    .1
                    .iter()
                    .any(|&(j, l)| prefix(all, keys, j, l) == &key[..len])
            {
                entry.1.push((i as u32, len as u32));
            }
            self.total += s.weight;
        }
    }
}

/// The first `len` bytes of sample `i`'s key.
pub fn prefix<'k>(all: &[Sample], keys: &'k [u8], i: u32, len: u32) -> &'k [u8] {
    all.get(i as usize)
        .map(|s| s.key(keys))
        .and_then(|k| k.get(..len as usize))
        .unwrap_or(&[])
}

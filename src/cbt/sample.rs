//! `cbt samplerowkeys TABLE`: Bigtable's `SampleRowKeys`, over Rowkey's tablets.
//!
//! Bigtable answers with row keys that "delimit contiguous sections of the table of
//! approximately equal size", each with `offset_bytes`, the approximate storage used by the rows
//! before it, and a last sample with an empty key for the end of the table
//! (https://cloud.google.com/bigtable/docs/reference/data/rpc/google.bigtable.v2#samplerowkeysresponse).
//! Rowkey's sections are its tablets: one sample per tablet boundary (the start key of every
//! tablet after the first), then the empty key; an offset counts the bytes of the cell values
//! of the rows before the key, as the emulator's `rowsize` counts them (bttest `SampleRowKeys`).
//!
//! What cbt prints is one line per sample with a key, and the line is the sample's index: its
//! loop is `for k := range keys { fmt.Println(k) }` over the slice the Go client returns, which
//! holds the keys without the empty one (cbt.go of googleapis/cloud-bigtable-cbt-cli at 7fb42c4,
//! lines 2109-2122; the client's `Table.SampleRowKeys` skips an empty key).

use super::args::Call;
use super::session::Session;
use crate::engine::Scan;
use std::fmt::Write as _;

/// One sample: a key that ends a section of the table, and the bytes before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The key; empty for the end of the table.
    pub key: Vec<u8>,
    /// Bytes of cell values in the rows before `key` (all rows for the empty key).
    pub offset_bytes: u64,
}

impl Session {
    /// The samples Bigtable's `SampleRowKeys` would return for the table's tablets.
    pub fn sample_row_keys(&self, table: &str) -> Result<Vec<Sample>, String> {
        let boundaries = self.engine.splits(table).map_err(|e| e.to_string())?;
        let mut scan = Scan {
            max_versions: u32::MAX,
            ..Scan::default()
        };
        let rows = self
            .engine
            .read(table, &mut scan)
            .map_err(|e| e.to_string())?
            .rows;
        let mut samples = Vec::with_capacity(boundaries.len() + 1);
        let (mut offset, mut next) = (0u64, 0usize);
        for key in boundaries {
            while let Some(row) = rows.get(next).filter(|r| r.row() < key.as_slice()) {
                offset += row.cells.iter().map(|c| c.value.len() as u64).sum::<u64>();
                next += 1;
            }
            samples.push(Sample {
                key,
                offset_bytes: offset,
            });
        }
        let total: u64 = rows[next..]
            .iter()
            .flat_map(|r| &r.cells)
            .map(|c| c.value.len() as u64)
            .sum();
        samples.push(Sample {
            key: Vec::new(),
            offset_bytes: offset + total,
        });
        Ok(samples)
    }

    pub(super) fn samplerowkeys(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        self.bigtable("Could not sample row keys", &table)?;
        let samples = self
            .sample_row_keys(&table)
            .map_err(|e| format!("Could not sample row keys: {e}"))?;
        let mut out = String::new();
        for (i, _) in samples.iter().filter(|s| !s.key.is_empty()).enumerate() {
            let _ = writeln!(out, "{i}");
        }
        Ok(out.into_bytes())
    }
}

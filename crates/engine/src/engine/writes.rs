//! Writes: mutations of one row applied atomically, read-modify-writes (increment, append,
//! check-and-mutate).

use std::sync::Arc;

use super::cell::{CellKind, CellRef};
use super::error::{Error, Result};
use super::scan::Scan;
use super::stats::OpStats;
use super::{Condition, Engine, Mutation, MAX_ROW_LENGTH};

/// A cell a mutation writes, its timestamp and sequence number given, its qualifier and
/// value still the mutation's: the memstore makes the one copy it keeps.
struct Planned<'m> {
    family: Arc<[u8]>,
    qualifier: &'m [u8],
    timestamp: u64,
    kind: CellKind,
    seq: u64,
    ttl_ms: u64,
    value: &'m [u8],
}

impl Planned<'_> {
    /// The cell in `row`, read in place.
    fn cell<'a>(&'a self, row: &'a [u8]) -> CellRef<'a> {
        CellRef {
            row,
            family: &self.family,
            qualifier: self.qualifier,
            timestamp: self.timestamp,
            kind: self.kind,
            seq: self.seq,
            ttl_ms: self.ttl_ms,
            value: self.value,
        }
    }
}

impl Engine {
    /// Applies mutations to one row atomically: all are validated before any is applied.
    pub fn mutate(&mut self, table: &str, row: &[u8], mutations: &[Mutation]) -> Result<OpStats> {
        let cells = self.prepare(table, row, mutations)?;
        Ok(self.apply(table, row, cells))
    }

    /// Turns mutations into cells with their timestamps resolved, or says why they cannot apply.
    fn prepare<'m>(
        &mut self,
        table: &str,
        row: &[u8],
        mutations: &'m [Mutation],
    ) -> Result<Vec<Planned<'m>>> {
        let t = self.enabled_table(table)?;
        if t.descriptor.read_only() {
            return Err(Error::ReadOnly);
        }
        validate_row(row)?;
        let region = t.regions.get(t.region_index(row));
        // Family names are shared with the region's stores: no allocation per cell.
        let family_of = |name: &[u8]| -> Result<Arc<[u8]>> {
            let store = t
                .descriptor
                .family_index(name)
                .and_then(|i| region.and_then(|r| r.stores.get(i)));
            match store {
                Some(s) => Ok(s.family.clone()),
                None => Err(Error::no_such_family(
                    name,
                    &t.descriptor,
                    region.map(|r| r.name(table)).unwrap_or_default(),
                )),
            }
        };
        // Resolve everything that reads before anything is written.
        let mut planned: Vec<(Arc<[u8]>, &'m [u8], Option<u64>, CellKind, &'m [u8], u64)> =
            Vec::new();
        let families: Vec<Arc<[u8]>> = region
            .map(|r| r.stores.iter().map(|s| s.family.clone()).collect())
            .unwrap_or_default();
        for m in mutations {
            match m {
                Mutation::Put {
                    family,
                    qualifier,
                    timestamp,
                    value,
                    ttl_ms,
                } => {
                    check_timestamp(*timestamp)?;
                    planned.push((
                        family_of(family)?,
                        qualifier,
                        *timestamp,
                        CellKind::Put,
                        value,
                        ttl_ms.unwrap_or(0),
                    ));
                }
                Mutation::Delete {
                    family,
                    qualifier: Some(q),
                    timestamp,
                    all_versions,
                } => {
                    check_timestamp(*timestamp)?;
                    let fam = family_of(family)?;
                    if *all_versions {
                        planned.push((fam, q, *timestamp, CellKind::DeleteColumn, &[], 0));
                    } else {
                        // Without a timestamp a version delete targets the newest visible version.
                        let ts = match timestamp {
                            Some(ts) => Some(*ts),
                            None => self.latest_timestamp(table, row, family, q)?,
                        };
                        planned.push((fam, q, ts, CellKind::Delete, &[], 0));
                    }
                }
                Mutation::Delete {
                    family,
                    qualifier: None,
                    timestamp,
                    all_versions,
                } => {
                    check_timestamp(*timestamp)?;
                    let kind = if *all_versions {
                        CellKind::DeleteFamily
                    } else {
                        CellKind::DeleteFamilyVersion
                    };
                    planned.push((family_of(family)?, &[], *timestamp, kind, &[], 0));
                }
                Mutation::DeleteRow { timestamp } => {
                    check_timestamp(*timestamp)?;
                    for fam in &families {
                        planned.push((
                            fam.clone(),
                            &[],
                            *timestamp,
                            CellKind::DeleteFamily,
                            &[],
                            0,
                        ));
                    }
                }
            }
        }
        let unit = t.descriptor.rules.timestamps;
        let no_markers = !t.descriptor.rules.masks_deletes();
        let server_ts = if planned.iter().any(|p| p.2.is_none()) {
            unit.from_millis(self.next_timestamp())
        } else {
            0
        };
        // Without delete markers, a delete takes away every cell its scope holds when it is
        // written: it carries the highest timestamp, so it sorts before all of them, and masks
        // by sequence (`resolve::DeleteTracker`), so a later write of an older timestamp is
        // visible at once (Bigtable: https://cloud.google.com/bigtable/docs/delete-data).
        let mut cells = Vec::with_capacity(planned.len());
        for (family, qualifier, mut ts, kind, value, ttl_ms) in planned {
            if no_markers && kind.is_delete() {
                ts = Some(i64::MAX as u64);
            }
            let seq = self.next_seq(table);
            cells.push(Planned {
                family,
                qualifier,
                timestamp: ts.unwrap_or(server_ts),
                kind,
                seq,
                ttl_ms,
                value,
            });
        }
        Ok(cells)
    }

    /// Writes prepared cells of one row into its region and runs the region's upkeep.
    fn apply(&mut self, table: &str, row: &[u8], cells: Vec<Planned<'_>>) -> OpStats {
        self.tick += 1;
        let bytes: usize = cells.iter().map(|c| c.cell(row).size()).sum();
        let count = cells.len();
        let Some(t) = self.tables.get_mut(table) else {
            return OpStats::default();
        };
        let idx = t.region_index(row);
        t.keys.add(row, count as u32, bytes as u64);
        let Some(region) = t.regions.get_mut(idx) else {
            return OpStats::default();
        };
        let mut wal = Vec::new();
        for planned in &cells {
            let cell = planned.cell(row);
            if let Some(store) = region
                .stores
                .iter_mut()
                .find(|s| s.family == planned.family)
            {
                store.insert(cell);
            }
            if self.recording {
                wal.push(cell.to_cell(&planned.family));
            }
        }
        region.stats.record(0, count as u32, 0, bytes as u64);
        let stats = OpStats {
            regions: vec![region.id],
            memstores_touched: 1,
            cells_written: count as u64,
            bytes_written: bytes as u64,
            ..OpStats::default()
        };
        self.counters.mutations += 1;
        self.counters.cells_written += count as u64;
        self.counters.logical_bytes += bytes as u64;
        if self.recording {
            self.changes.wal.push((table.to_string(), wal));
        }
        let before = self.recorded_ops(table);
        if let Some(&region) = stats.regions.first() {
            self.note_write(table, row, region);
        }
        self.upkeep(table, idx);
        self.load_upkeep(table, before);
        stats
    }

    /// The timestamp of the newest visible version of a column.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn latest_timestamp(
        &self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
    ) -> Result<Option<u64>> {
        let mut scan = Scan::get(row);
        scan.columns = vec![(family.to_vec(), Some(qualifier.to_vec()))];
        let out = self.read(table, &mut scan)?;
        Ok(out
            .rows
            .first()
            .and_then(|r| r.cells.first())
            .map(|c| c.timestamp))
    }

    /// The newest visible value of a column, with its timestamp.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn latest_value(
        &self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
    ) -> Result<Option<(u64, Vec<u8>)>> {
        let mut scan = Scan::get(row);
        scan.columns = vec![(family.to_vec(), Some(qualifier.to_vec()))];
        let out = self.read(table, &mut scan)?;
        Ok(out
            .rows
            .into_iter()
            .next()
            .and_then(|r| r.cells.into_iter().next())
            .map(|c| (c.timestamp, c.value)))
    }

    /// Adds `amount` to an 8-byte big-endian counter (absent counts as 0) and returns the sum.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn increment(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        amount: i64,
    ) -> Result<i64> {
        let current = self.latest_value(table, row, family, qualifier)?;
        let (old_ts, old) = match &current {
            Some((ts, v)) => {
                let bytes: [u8; 8] = v
                    .as_slice()
                    .try_into()
                    .map_err(|_| Error::NotALong(v.len()))?;
                (Some(*ts), i64::from_be_bytes(bytes))
            }
            None => (None, 0),
        };
        let sum = old.wrapping_add(amount);
        self.write_derived(
            table,
            row,
            family,
            qualifier,
            old_ts,
            sum.to_be_bytes().to_vec(),
        )?;
        Ok(sum)
    }

    /// Appends `suffix` to a column's value and returns the new value.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn append(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        suffix: &[u8],
    ) -> Result<Vec<u8>> {
        let current = self.latest_value(table, row, family, qualifier)?;
        let old_ts = current.as_ref().map(|c| c.0);
        let mut value = current.map(|c| c.1).unwrap_or_default();
        value.extend_from_slice(suffix);
        self.write_derived(table, row, family, qualifier, old_ts, value.clone())?;
        Ok(value)
    }

    /// Writes the result of a read-modify-write at a timestamp newer than the value it read.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn write_derived(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        old_ts: Option<u64>,
        value: Vec<u8>,
    ) -> Result<()> {
        // HRegion.reckonDelta: `max(current timestamp + 1, now)`. A future-dated cell lifts
        // this one write only; later server timestamps still come from the clock.
        let unit = self.table(table)?.descriptor.rules.timestamps;
        let mut ts = unit.from_millis(self.next_timestamp());
        if let Some(old) = old_ts {
            if old >= ts {
                ts = old + 1;
            }
        }
        let put = Mutation::Put {
            family: family.to_vec(),
            qualifier: qualifier.to_vec(),
            timestamp: Some(ts),
            value,
            ttl_ms: None,
        };
        self.mutate(table, row, &[put]).map(|_| ())
    }

    /// Applies `mutations` to the row if the condition on one column holds; says whether it did.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn check_and_mutate(
        &mut self,
        table: &str,
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        condition: &Condition,
        mutations: &[Mutation],
    ) -> Result<bool> {
        self.enabled_table(table)?;
        validate_row(row)?;
        let current = self.latest_value(table, row, family, qualifier)?;
        let matches = match (condition, &current) {
            (Condition::NotExists, None) => true,
            (Condition::NotExists, Some(_)) => false,
            (Condition::Compare(_, _), None) => false,
            (Condition::Compare(op, expected), Some((_, actual))) => {
                // HBase's BinaryComparator: the expected bytes compared with the actual ones.
                op.matches(expected.as_slice().cmp(actual.as_slice()))
            }
        };
        if matches {
            self.mutate(table, row, mutations)?;
        }
        Ok(matches)
    }
}

fn validate_row(row: &[u8]) -> Result<()> {
    if row.is_empty() {
        return Err(Error::EmptyRow);
    }
    if row.len() > MAX_ROW_LENGTH {
        return Err(Error::IllegalArgument(format!(
            "Row length {} is > {}",
            row.len(),
            MAX_ROW_LENGTH
        )));
    }
    Ok(())
}

fn check_timestamp(ts: Option<u64>) -> Result<()> {
    match ts {
        Some(t) if t > i64::MAX as u64 => Err(Error::IllegalArgument(format!(
            "Timestamp {t} is out of range"
        ))),
        _ => Ok(()),
    }
}

//! Tables and their regions: key ranges, the stores inside them, and how they split.

use std::borrow::Cow;

use crate::kit::sorted::SortedMap;

use serde::{Deserialize, Serialize};

use super::family::FamilyDescriptor;
use super::keys::{KeyEntry, KeyIndex, RunRows};
use super::rules::Rules;
use super::stats::RegionStats;
use super::store::{Decoded, Store};

/// A stretch of consecutive cells of one row in one source: the row (borrowed from where it
/// is stored, or owned when it was counted when its run was stored), its cells, their bytes.
type Stretch<'a> = (Cow<'a, [u8]>, u32, u64);

/// Thresholds that drive flushes, compactions and splits, per table: `u64` on every target,
/// so a table with HBase's 10 GiB `MAX_FILESIZE` reads the same in the CLI and in the browser. The defaults are small on
/// purpose: a few thousand rows already show several flushes and regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSettings {
    /// A region flushes its memstores once they hold this many bytes together.
    pub flush_bytes: u64,
    /// A store compacts its runs (minor) once it has this many.
    pub compaction_threshold: u64,
    /// A region splits once it holds more than this many bytes; 0 turns automatic splits off.
    pub split_bytes: u64,
}

impl Default for TableSettings {
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn default() -> Self {
        TableSettings {
            flush_bytes: 16 * 1024,
            compaction_threshold: 3,
            split_bytes: 64 * 1024,
        }
    }
}

/// A table's schema: name, families (sorted by name), settings and rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableDescriptor {
    pub name: String,
    pub families: Vec<FamilyDescriptor>,
    pub settings: TableSettings,
    /// HBase's table attributes as `create` and `alter` set them (the descriptor's values:
    /// `MAX_FILESIZE`, `READONLY`, `DURABILITY`, `SPLIT_ENABLED`, metadata ...), which
    /// `describe` prints. MAX_FILESIZE and MEMSTORE_FLUSHSIZE also drive `settings`; the
    /// engine acts on READONLY ([`Self::read_only`]) and SPLIT_ENABLED ([`Self::split_enabled`]).
    #[serde(default)]
    pub attributes: SortedMap<String, String>,
    /// The rules the table's reads and rewrites follow (HBase's unless set otherwise; a
    /// catalog saved before tables carried rules reads as HBase's).
    #[serde(default)]
    pub rules: Rules,
}

impl TableDescriptor {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(name: &str, families: Vec<FamilyDescriptor>) -> TableDescriptor {
        TableDescriptor {
            name: name.to_string(),
            families,
            settings: TableSettings::default(),
            attributes: SortedMap::new(),
            rules: Rules::HBASE,
        }
    }

    /// `READONLY => true`: every write is refused (`HRegion.checkReadOnly`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn read_only(&self) -> bool {
        self.attribute_is("READONLY", true)
    }

    /// `SPLIT_ENABLED => false` stops automatic splits (`RegionSplitPolicy.shouldSplit` asks
    /// `TableDescriptor.isSplitEnabled`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn split_enabled(&self) -> bool {
        !self.attribute_is("SPLIT_ENABLED", false)
    }

    /// Whether a boolean attribute is set to `value` (Java's `Boolean.valueOf`: only "true",
    /// in any case, is true).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn attribute_is(&self, key: &str, value: bool) -> bool {
        self.attributes
            .get(key)
            .is_some_and(|v| v.eq_ignore_ascii_case("true") == value)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn family(&self, name: &[u8]) -> Option<&FamilyDescriptor> {
        self.families.iter().find(|f| f.name.as_bytes() == name)
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn family_index(&self, name: &[u8]) -> Option<usize> {
        self.families.iter().position(|f| f.name.as_bytes() == name)
    }
}

/// A contiguous key range `[start, end)` of a table with one store per family (in the
/// descriptor's family order). An empty `end` means "to the end of the table".
#[derive(Debug)]
pub struct Region {
    pub id: u64,
    pub start: Vec<u8>,
    pub end: Vec<u8>,
    pub stores: Vec<Store>,
    pub stats: RegionStats,
}

impl Region {
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn new(id: u64, start: Vec<u8>, end: Vec<u8>, families: &[FamilyDescriptor]) -> Region {
        Region {
            id,
            start,
            end,
            stores: families.iter().map(|f| Store::new(&f.name)).collect(),
            stats: RegionStats::default(),
        }
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn contains(&self, row: &[u8]) -> bool {
        row >= self.start.as_slice() && (self.end.is_empty() || row < self.end.as_slice())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn memstore_bytes(&self) -> usize {
        self.stores.iter().map(|s| s.memstore_bytes).sum()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn bytes(&self) -> usize {
        self.stores.iter().map(Store::bytes).sum()
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn run_count(&self) -> usize {
        self.stores.iter().map(|s| s.runs.len()).sum()
    }

    /// Per stretch of consecutive cells of one row (in a memstore or a run, read in place):
    /// the row, its cells and their bytes; unsorted, a row may appear once per source. Rows
    /// are borrowed from the memstore and the block bytes (`keys` holds the ones a delta
    /// encoding rebuilt): only the rows kept in the end are copied.
    ///
    /// A run whose rows `counted` holds (as they were counted when it was stored) is not
    /// walked: its stretches are those rows, moved out of `counted` with their keys (a run
    /// named twice is walked the second time).
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn row_sizes<'a>(&'a self, keys: &'a Decoded, counted: &mut RunRows) -> Vec<Stretch<'a>> {
        let mut out: Vec<Stretch<'a>> = Vec::new();
        for store in &self.stores {
            let mut fresh = true;
            for c in store.memstore_cells() {
                match out.last_mut() {
                    Some(last) if !fresh && *last.0 == *c.row => {
                        last.1 += 1;
                        last.2 += c.size() as u64;
                    }
                    _ => out.push((Cow::Borrowed(c.row), 1, c.size() as u64)),
                }
                fresh = false;
            }
            for run in &store.runs {
                if let Some(rows) = counted.remove(&run.id) {
                    out.extend(
                        rows.into_iter()
                            .map(|e| (Cow::Owned(e.key.into_vec()), e.cells, e.bytes)),
                    );
                    continue;
                }
                run.for_each_row_stretch(keys, |row, cells, bytes| {
                    out.push((Cow::Borrowed(row), cells, bytes))
                });
            }
        }
        out
    }

    /// [`Region::row_sizes`] in key order, each row once.
    #[cfg_attr(rowkey_cold, optimize(size))]
    fn sorted_row_sizes<'a>(
        &'a self,
        keys: &'a Decoded,
        counted: &mut RunRows,
    ) -> Vec<Stretch<'a>> {
        let mut stretches = self.row_sizes(keys, counted);
        // The memstore's and each run's stretches come in key order: a stable sort merges
        // those sorted stretches of the list (a sort that does not look for them compares
        // every row again).
        stretches.sort_by(|a, b| a.0.cmp(&b.0));
        let mut rows: Vec<Stretch<'a>> = Vec::with_capacity(stretches.len());
        for (row, cells, bytes) in stretches {
            match rows.last_mut() {
                Some(last) if last.0 == row => {
                    last.1 += cells;
                    last.2 += bytes;
                }
                _ => rows.push((row, cells, bytes)),
            }
        }
        rows
    }

    /// The row where HBase splits this region (`RegionSplitPolicy.getSplitPoint`): the
    /// middle key of the largest run of its largest store, read from the run's block index
    /// (`HFileReaderImpl.midKey`: the first key of the middle block), nothing decoded. `None`
    /// when the region has no runs, or that row is the run's first or last row (HBase's
    /// `StoreUtils.getFileSplitPoint` cannot split there) or the region's start.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn mid_key(&self) -> Option<Vec<u8>> {
        let store = self
            .stores
            .iter()
            .filter(|s| !s.runs.is_empty())
            .max_by_key(|s| s.runs.iter().map(|r| r.bytes).sum::<usize>())?;
        let run = store.runs.iter().max_by_key(|r| r.bytes)?;
        let mid = run.file().mid_row()?;
        let inside = mid != run.first_row() && mid != run.last_row();
        (inside && self.contains(mid) && mid != self.start.as_slice()).then(|| mid.to_vec())
    }

    /// Every row of the region with its stored cells counted, in key order.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn rows(&self) -> Vec<KeyEntry> {
        self.rows_counted(&mut RunRows::new())
    }

    /// [`Region::rows`], the runs whose rows `counted` holds taken from there (moved out, their
    /// keys not copied again).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn rows_counted(&self, counted: &mut RunRows) -> Vec<KeyEntry> {
        let keys = Decoded::default();
        self.sorted_row_sizes(&keys, counted)
            .into_iter()
            .map(|(row, cells, bytes)| KeyEntry {
                key: match row {
                    Cow::Borrowed(row) => row.into(),
                    Cow::Owned(row) => row.into_boxed_slice(),
                },
                cells,
                bytes,
            })
            .collect()
    }

    /// The stored cells of one row in this region and their bytes.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn row_cells(&self, row: &[u8]) -> (u32, u64) {
        let (mut cells, mut bytes) = (0u32, 0u64);
        for store in &self.stores {
            for (c, _) in store.row_cells(row) {
                cells += 1;
                bytes += c.size() as u64;
            }
        }
        (cells, bytes)
    }

    /// The region's name as HBase prints it: `table,startkey,id`.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn name(&self, table: &str) -> String {
        format!(
            "{},{},{}",
            table,
            crate::bytes::to_printable(&self.start),
            self.id
        )
    }
}

/// A table: its descriptor, state and regions sorted by start key.
#[derive(Debug)]
pub struct Table {
    pub descriptor: TableDescriptor,
    pub enabled: bool,
    pub regions: Vec<Region>,
    /// The rows with stored cells, kept current by the engine.
    pub keys: KeyIndex,
    /// The newest sequence id handed out to a cell of this table. HBase counts sequence ids
    /// per region (each `HRegion` has its own `MultiVersionConcurrencyControl`, and a
    /// daughter opens past its parent's highest id); Rowkey counts them per table. The ids are
    /// written into the table's files (a varint per cell), so a file's blocks, its block
    /// index midkey and with it the table's split points depend only on the table's own
    /// writes, never on what other tables were written before it.
    pub seq: u64,
}

impl Table {
    /// Recounts every row from the stores (after a restore, or a family removed).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn rebuild_keys(&mut self) {
        self.rebuild_keys_counted(&mut RunRows::new());
    }

    /// [`Table::rebuild_keys`], the runs whose rows `counted` holds taken from there (a
    /// reload's runs, counted when they were stored; moved out of `counted`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn rebuild_keys_counted(&mut self, counted: &mut RunRows) {
        self.keys =
            KeyIndex::from_sorted(self.regions.iter().flat_map(|r| r.rows_counted(counted)));
    }

    /// The index of the region holding `row`.
    pub fn region_index(&self, row: &[u8]) -> usize {
        self.regions
            .partition_point(|r| r.start.as_slice() <= row)
            .saturating_sub(1)
    }
}

/// Split keys for `NUMREGIONS` regions with one of HBase's split algorithms.
#[cfg_attr(rowkey_cold, optimize(size))]
pub fn split_keys(algorithm: &str, regions: u32) -> Option<Vec<Vec<u8>>> {
    // `i * 2^32` and `i * 10^8` stay under 2^64 for every `i < n <= u32::MAX`; only the
    // uniform split's `i * 2^64` needs 128 bits (and the page then formats no 128-bit number).
    let n = u64::from(regions);
    if n < 2 {
        return Some(Vec::new());
    }
    let keys = match algorithm {
        "HexStringSplit" => (1..n)
            .map(|i| format!("{:08x}", (i << 32) / n).into_bytes())
            .collect(),
        "DecimalStringSplit" => (1..n)
            .map(|i| format!("{:08}", (i * 100_000_000) / n).into_bytes())
            .collect(),
        "UniformSplit" => (1..n)
            .map(|i| {
                let v = (u128::from(i) << 64) / u128::from(n);
                (v as u64).to_be_bytes().to_vec()
            })
            .collect(),
        _ => return None,
    };
    Some(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_string_split_matches_hbase() {
        let keys = split_keys("HexStringSplit", 4).unwrap_or_default();
        assert_eq!(
            keys,
            vec![
                b"40000000".to_vec(),
                b"80000000".to_vec(),
                b"c0000000".to_vec()
            ]
        );
    }

    #[test]
    fn uniform_split_uses_byte_ranges() {
        let keys = split_keys("UniformSplit", 16).unwrap_or_default();
        assert_eq!(keys.first(), Some(&vec![0x10, 0, 0, 0, 0, 0, 0, 0]));
        assert_eq!(keys.len(), 15);
    }

    #[test]
    fn decimal_string_split_matches_hbase() {
        // `DecimalStringSplit`: 8 digits over 00000000..99999999.
        let keys = split_keys("DecimalStringSplit", 3).unwrap_or_default();
        assert_eq!(keys, vec![b"33333333".to_vec(), b"66666666".to_vec()]);
    }

    /// The 64-bit arithmetic gives the keys 128-bit arithmetic gives, also at the largest
    /// region counts, where `i * 2^32` comes nearest to 2^64.
    #[test]
    fn split_keys_at_any_count_are_the_128_bit_ones() {
        for n in [2u32, 3, 7, 16, 1000, 65_537] {
            let wide = u128::from(n);
            let hex: Vec<Vec<u8>> = (1..wide)
                .map(|i| format!("{:08x}", (i << 32) / wide).into_bytes())
                .collect();
            let decimal: Vec<Vec<u8>> = (1..wide)
                .map(|i| format!("{:08}", (i * 100_000_000) / wide).into_bytes())
                .collect();
            assert_eq!(split_keys("HexStringSplit", n), Some(hex), "{n}");
            assert_eq!(split_keys("DecimalStringSplit", n), Some(decimal), "{n}");
        }
        let (i, n) = (u64::from(u32::MAX - 1), u64::from(u32::MAX));
        assert_eq!(
            u128::from((i << 32) / n),
            (u128::from(i) << 32) / u128::from(n)
        );
        assert_eq!(
            u128::from(i * 100_000_000 / n),
            u128::from(i) * 100_000_000 / u128::from(n)
        );
    }
}

/// Where the benchmarks' table keeps its cells (`benches/engine.rs` natively, the page's
/// `rowkeyBench` in the browser).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BenchmarkLayout {
    /// 16 regions on the first four hex digits of `HexStringSplit`'s keys, each flushing its
    /// 1 MB memstore as it fills.
    #[default]
    Regions,
    /// One region flushing its 1 MB memstore while it loads; the benchmark then flushes it and
    /// runs a major compaction, so the data sits in sorted runs as most of a store's data does.
    Runs,
}

/// The benchmarks' table in `layout`: one family `f`, 1 MB memstores, compactions at four runs,
/// no splits.
pub fn create_benchmark_table(
    engine: &mut super::Engine,
    name: &str,
    layout: BenchmarkLayout,
) -> super::Result<()> {
    let mut desc = TableDescriptor::new(name, vec![FamilyDescriptor::new("f")]);
    desc.settings = TableSettings {
        flush_bytes: 1 << 20,
        compaction_threshold: 4,
        split_bytes: 0,
    };
    let splits = match layout {
        BenchmarkLayout::Regions => split_keys("HexStringSplit", 16)
            .unwrap_or_default()
            .into_iter()
            .map(|k| k.get(..4).unwrap_or(&k).to_vec())
            .collect(),
        BenchmarkLayout::Runs => Vec::new(),
    };
    engine.create_table(desc, splits)
}

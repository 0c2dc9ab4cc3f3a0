//! A table's and a family's descriptors as HBase 2.5 writes them out (their `toString`): what
//! the shell's `describe` prints, and what a `NoSuchColumnFamilyException` names the table by.

use super::family::FamilyDescriptor;
use super::table::{TableDescriptor, TableSettings};
use crate::bytes::to_printable;

/// A table descriptor as `TableDescriptorBuilder.ModifyableTableDescriptor.toString` writes
/// it: the quoted name, the table attributes, then each family.
pub fn table(d: &TableDescriptor) -> String {
    let mut out = format!("'{}'{}", d.name, attributes(d));
    for f in &d.families {
        out.push_str(", ");
        out.push_str(&family(f));
    }
    out
}

/// A TTL as HBase's `describe` shows it (`PrettyPrinter.humanReadableTTL`, hbase-common, 2.5):
/// under a minute in seconds alone; else the seconds, then days, hours, minutes and seconds in
/// brackets. HBase's quirk is kept: the seconds' plural follows the minutes (`minutes == 1`),
/// so 62 seconds read `1 MINUTE 2 SECOND` and 121 `2 MINUTES 1 SECONDS`.
pub fn ttl(seconds: Option<u64>) -> String {
    let Some(total) = seconds.filter(|s| *s != i32::MAX as u64) else {
        return "FOREVER".into();
    };
    let plural = |n: u64| if n == 1 { "" } else { "S" };
    if total < 60 {
        return format!("{total} SECOND{}", plural(total));
    }
    let (days, hours, minutes, rest) = (
        total / 86_400,
        total % 86_400 / 3_600,
        total % 3_600 / 60,
        total % 60,
    );
    let parts: Vec<String> = [
        (days, "DAY", plural(days)),
        (hours, "HOUR", plural(hours)),
        (minutes, "MINUTE", plural(minutes)),
        (rest, "SECOND", plural(minutes)),
    ]
    .iter()
    .filter(|(n, ..)| *n > 0)
    .map(|(n, unit, s)| format!("{n} {unit}{s}"))
    .collect();
    format!("{total} SECONDS ({})", parts.join(" "))
}

/// A size in bytes as `describe` shows BLOCKSIZE (`PrettyPrinter.humanReadableByte`): under a
/// kilobyte in bytes alone; else the bytes, then terabytes down to bytes in brackets.
pub fn byte_size(size: u64) -> String {
    if size < 1024 {
        return format!("{size} B");
    }
    let parts: Vec<String> = [
        (size >> 40, "TB"),
        (size >> 30 & 1023, "GB"),
        (size >> 20 & 1023, "MB"),
        (size >> 10 & 1023, "KB"),
        (size & 1023, "B"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, unit)| format!("{n}{unit}"))
    .collect();
    format!("{size} B ({})", parts.join(" "))
}

/// A family's VERSIONS as HBase holds it, an `int`: a family without a version limit (a
/// Bigtable family with no GC policy, `u32::MAX` in the engine) reads as `Integer.MAX_VALUE`,
/// as the Bigtable client for HBase reads a family without a GC rule
/// (`ColumnDescriptorAdapter.convertGarbageCollectionRule`: "The Bigtable default is to have
/// infinite versions").
fn hbase_versions(max_versions: u32) -> u32 {
    max_versions.min(i32::MAX as u32)
}

/// A family as `describe` prints it: `ColumnFamilyDescriptorBuilder.getValues(true)` in 2.5,
/// whose keys come in the order of its hash map (INDEX_BLOCK_ENCODING, 2.5.1 on, after NAME),
/// BLOCKSIZE in bytes and units since 2.5.0.
pub fn family(f: &FamilyDescriptor) -> String {
    format!(
        "{{NAME => '{}', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '{}', KEEP_DELETED_CELLS => '{}', DATA_BLOCK_ENCODING => '{}', TTL => '{}', MIN_VERSIONS => '{}', REPLICATION_SCOPE => '{}', BLOOMFILTER => '{}', IN_MEMORY => '{}', COMPRESSION => '{}', BLOCKCACHE => '{}', BLOCKSIZE => '{}'}}",
        f.name,
        hbase_versions(f.max_versions),
        f.keep_deleted_cells.name(),
        f.data_block_encoding,
        ttl(f.ttl_seconds),
        f.min_versions,
        f.replication_scope,
        f.bloomfilter,
        f.in_memory,
        f.compression,
        f.blockcache,
        byte_size(f.blocksize)
    )
}

/// The table attributes `describe` prints after the name, as
/// `TableDescriptorBuilder.ModifyableTableDescriptor.toStringTableAttributes` writes them:
/// nothing without attributes, else `, {TABLE_ATTRIBUTES => {KEY => 'v', ..., METADATA =>
/// {'k' => 'v', ...}}}` with HBase's reserved keys first and the others under METADATA, each
/// group in byte order.
pub fn attributes(d: &TableDescriptor) -> String {
    const RESERVED: &[&str] = &[
        "DURABILITY",
        "IS_META",
        "MAX_FILESIZE",
        "MEMSTORE_FLUSHSIZE",
        "PRIORITY",
        "READONLY",
        "REGION_REPLICATION",
    ];
    let mut values = d.attributes.clone();
    // Thresholds set before Rowkey kept attributes.
    let defaults = TableSettings::default();
    if d.settings.split_bytes != defaults.split_bytes {
        values
            .entry("MAX_FILESIZE".into())
            .or_insert_with(|| d.settings.split_bytes.to_string());
    }
    if d.settings.flush_bytes != defaults.flush_bytes {
        values
            .entry("MEMSTORE_FLUSHSIZE".into())
            .or_insert_with(|| d.settings.flush_bytes.to_string());
    }
    // The master names the store file tracker of every table it creates
    // (`CreateTableProcedure` through `StoreFileTrackerFactory.updateWithTrackerConfigs`,
    // HBase 2.5): DEFAULT, unless the table names one.
    if d.rules == super::Rules::HBASE {
        values
            .entry("hbase.store.file-tracker.impl".into())
            .or_insert_with(|| "DEFAULT".into());
    }
    if values.is_empty() {
        return String::new();
    }
    // `getValues`: IS_META only when true; the two sizes in bytes and units
    // (`getUnit`: `PrettyPrinter.Unit.BYTE`, HBASE-25439).
    let mut parts: Vec<String> = values
        .iter()
        .filter(|(k, _)| RESERVED.contains(&k.as_str()))
        .filter(|(k, v)| *k != "IS_META" || v.eq_ignore_ascii_case("true"))
        .map(|(k, v)| {
            let sized = matches!(k.as_str(), "MAX_FILESIZE" | "MEMSTORE_FLUSHSIZE");
            match v.parse::<u64>() {
                Ok(bytes) if sized => format!("{k} => '{}'", byte_size(bytes)),
                _ => format!("{k} => '{}'", to_printable(v.as_bytes())),
            }
        })
        .collect();
    let user: Vec<String> = values
        .iter()
        .filter(|(k, _)| !RESERVED.contains(&k.as_str()))
        .map(|(k, v)| format!("'{k}' => '{}'", to_printable(v.as_bytes())))
        .collect();
    if !user.is_empty() {
        parts.push(format!("METADATA => {{{}}}", user.join(", ")));
    }
    format!(", {{TABLE_ATTRIBUTES => {{{}}}}}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `PrettyPrinter.humanReadableTTL` (hbase-common 2.5), its plural quirk included.
    #[test]
    fn ttl_reads_as_hbase_prints_it() {
        for (seconds, text) in [
            (1, "1 SECOND"),
            (59, "59 SECONDS"),
            (60, "60 SECONDS (1 MINUTE)"),
            (61, "61 SECONDS (1 MINUTE 1 SECOND)"),
            (62, "62 SECONDS (1 MINUTE 2 SECOND)"),
            (121, "121 SECONDS (2 MINUTES 1 SECONDS)"),
            (3_600, "3600 SECONDS (1 HOUR)"),
            (3_601, "3601 SECONDS (1 HOUR 1 SECONDS)"),
            (86_400, "86400 SECONDS (1 DAY)"),
            (90_061, "90061 SECONDS (1 DAY 1 HOUR 1 MINUTE 1 SECOND)"),
            (172_800, "172800 SECONDS (2 DAYS)"),
            (2_147_483_647, "FOREVER"),
        ] {
            assert_eq!(ttl(Some(seconds)), text, "{seconds}");
        }
        assert_eq!(ttl(None), "FOREVER");
    }

    /// `PrettyPrinter.humanReadableByte`.
    #[test]
    fn sizes_read_as_hbase_prints_them() {
        for (bytes, text) in [
            (1_000, "1000 B"),
            (1_024, "1024 B (1KB)"),
            (1_025, "1025 B (1KB 1B)"),
            (65_536, "65536 B (64KB)"),
            (131_072, "131072 B (128KB)"),
            (16_777_216, "16777216 B (16MB)"),
            ((1 << 40) + (1 << 30) + 5, "1100585369605 B (1TB 1GB 5B)"),
        ] {
            assert_eq!(byte_size(bytes), text, "{bytes}");
        }
    }

    /// `TableDescriptorBuilder.getValues` (2.5): the sizes in bytes and units, IS_META only
    /// when true, the reserved keys before the table's own under METADATA.
    #[test]
    fn table_attributes_read_as_hbase_writes_them() {
        let mut d = TableDescriptor::new("t", vec![FamilyDescriptor::new("f")]);
        d.attributes
            .insert("MEMSTORE_FLUSHSIZE".into(), "1048576".into());
        d.attributes.insert("IS_META".into(), "false".into());
        d.attributes.insert("owner".into(), "ops".into());
        assert_eq!(
            attributes(&d),
            ", {TABLE_ATTRIBUTES => {MEMSTORE_FLUSHSIZE => '1048576 B (1MB)', METADATA => {'hbase.store.file-tracker.impl' => 'DEFAULT', 'owner' => 'ops'}}}"
        );
        d.attributes.insert("IS_META".into(), "TRUE".into());
        assert!(attributes(&d).starts_with(", {TABLE_ATTRIBUTES => {IS_META => 'TRUE', MEMSTORE"));
    }
}

//! Output exactly as the HBase 2.x shell prints it when not attached to a terminal.

use crate::bytes::to_printable;
use crate::engine::{Cell, FamilyDescriptor, Row, Table, TableSettings};

/// `timestamp=..., value=...` (or `type=...` for a marker), cut to `maxlength` characters as
/// HBase cuts it.
pub fn cell_text(cell: &Cell, maxlength: Option<usize>) -> String {
    let text = if cell.kind.is_delete() {
        format!("timestamp={}, type={}", cell.timestamp, cell.kind.name())
    } else {
        format!(
            "timestamp={}, value={}",
            cell.timestamp,
            to_printable(&cell.value)
        )
    };
    match maxlength {
        Some(n) => text.chars().take(n).collect(),
        None => text,
    }
}

pub fn column_name(cell: &Cell) -> String {
    format!(
        "{}:{}",
        to_printable(&cell.family),
        to_printable(&cell.qualifier)
    )
}

/// The `ROW  COLUMN+CELL` table of a scan.
pub fn scan_rows(rows: &[Row], maxlength: Option<usize>) -> String {
    let mut out = String::from("ROW  COLUMN+CELL\n");
    for row in rows {
        let key = to_printable(&row.row);
        for cell in &row.cells {
            out.push_str(&format!(
                " {} column={}, {}\n",
                key,
                column_name(cell),
                cell_text(cell, maxlength)
            ));
        }
    }
    out.push_str(&format!("{} row(s)\n", rows.len()));
    out
}

/// The `COLUMN  CELL` table of a get; HBase counts its cells as rows.
pub fn get_cells(cells: &[Cell], maxlength: Option<usize>) -> String {
    let mut out = String::from("COLUMN  CELL\n");
    for cell in cells {
        out.push_str(&format!(
            " {} {}\n",
            column_name(cell),
            cell_text(cell, maxlength)
        ));
    }
    out.push_str(&format!("{} row(s)\n", cells.len()));
    out
}

pub fn took(seconds: f64) -> String {
    format!("Took {seconds:.4} seconds\n")
}

/// A TTL as HBase's describe shows it.
pub fn ttl(seconds: Option<u64>) -> String {
    let Some(total) = seconds else {
        return "FOREVER".into();
    };
    let units = [
        (86_400, "DAY"),
        (3_600, "HOUR"),
        (60, "MINUTE"),
        (1, "SECOND"),
    ];
    let mut rest = total;
    let mut parts = Vec::new();
    for (size, name) in units {
        let n = rest / size;
        rest %= size;
        if n > 0 {
            parts.push(format!("{n} {name}{}", if n == 1 { "" } else { "S" }));
        }
    }
    if parts.is_empty() {
        return "0 SECONDS".into();
    }
    format!("{total} SECONDS ({})", parts.join(" "))
}

fn family_block(f: &FamilyDescriptor) -> String {
    format!(
        "{{NAME => '{}', VERSIONS => '{}', KEEP_DELETED_CELLS => '{}', DATA_BLOCK_ENCODING => '{}', TTL => '{}', MIN_VERSIONS => '{}', REPLICATION_SCOPE => '{}', BLOOMFILTER => '{}', IN_MEMORY => '{}', COMPRESSION => '{}', BLOCKCACHE => '{}', BLOCKSIZE => '{}'}}",
        f.name,
        f.max_versions,
        f.keep_deleted_cells.name(),
        f.data_block_encoding,
        ttl(f.ttl_seconds),
        f.min_versions,
        f.replication_scope,
        f.bloomfilter,
        f.in_memory,
        f.compression,
        f.blockcache,
        f.blocksize
    )
}

/// `describe`'s output.
pub fn describe(table: &Table) -> String {
    let d = &table.descriptor;
    let mut out = format!(
        "Table {} is {}\n",
        d.name,
        if table.enabled { "ENABLED" } else { "DISABLED" }
    );
    let defaults = TableSettings::default();
    let mut attrs = Vec::new();
    if d.settings.split_bytes != defaults.split_bytes {
        attrs.push(format!("MAX_FILESIZE => '{}'", d.settings.split_bytes));
    }
    if d.settings.flush_bytes != defaults.flush_bytes {
        attrs.push(format!(
            "MEMSTORE_FLUSHSIZE => '{}'",
            d.settings.flush_bytes
        ));
    }
    if attrs.is_empty() {
        out.push_str(&format!("{}\n", d.name));
    } else {
        out.push_str(&format!(
            "{}, {{TABLE_ATTRIBUTES => {{{}}}}}\n",
            d.name,
            attrs.join(", ")
        ));
    }
    out.push_str("COLUMN FAMILIES DESCRIPTION\n");
    for f in &d.families {
        out.push_str(&family_block(f));
        out.push_str("\n\n");
    }
    out.push_str(&format!("{} row(s)\n", d.families.len()));
    out
}

/// A Ruby array of strings, as the shell echoes return values.
pub fn ruby_array(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect();
    format!("[{}]", quoted.join(", "))
}

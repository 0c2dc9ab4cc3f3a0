//! `cbt import`: a CSV file written in batches, as cbt's importer reads and logs it.

use super::args::{take_timestamp, text, Call};
use super::print;
use super::session::Session;
use crate::engine::Mutation;
use std::fmt::Write as _;

impl Session {
    /// `import TABLE FILE`: a CSV whose first rows name families (unless `column-family=`
    /// names the one family) and columns; each later row is a key and its cells.
    pub(super) fn import(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let parsed = &call.keys;
        let value_encoded = match parsed.get("timestamp").as_deref() {
            None | Some("now") => false,
            Some("value-encoded") => true,
            Some(_) => return Err(
                "error parsing importer args: timestamp must be one of 'now' or 'value-encoded'"
                    .into(),
            ),
        };
        let mut batch_size = 500;
        for (key, slot) in [("batch-size", Some(&mut batch_size)), ("workers", None)] {
            if let Some(v) = parsed.get(key) {
                match v.parse::<i64>() {
                    Ok(n) if n > 0 => {
                        if let Some(slot) = slot {
                            *slot = usize::try_from(n).unwrap_or(usize::MAX);
                        }
                    }
                    Ok(_) => return Err(format!("error parsing importer args: {key} must be > 0, err:<nil>")),
                    Err(_) => {
                        return Err(format!(
                            "error parsing importer args: {key} must be > 0, err:strconv.Atoi: parsing {}: invalid syntax",
                            print::go_quote(v.as_bytes())
                        ))
                    }
                }
            }
        }
        let table = call.text(0);
        let file = call.text(1);
        let data =
            (self.read_file)(&file).map_err(|e| format!("couldn't open the csv file: {e}"))?;
        let records = super::csv::read_lines(&data)?;
        let mut records = records.into_iter();
        let width = records
            .as_slice()
            .first()
            .map(|(_, r)| r.len())
            .unwrap_or(0);
        let mut header = |name: &str| -> Result<Vec<String>, String> {
            let (line, record) = records
                .next()
                .ok_or_else(|| format!("error parsing headers: {name} header reader error:EOF"))?;
            if record.len() != width {
                return Err(format!(
                    "error parsing headers: {name} header reader error:record on line {line}: wrong number of fields"
                ));
            }
            if record.first().is_some_and(|f| !f.is_empty()) {
                return Err("error parsing headers: the first column must be empty for column-family and column name rows".into());
            }
            Ok(record)
        };
        let (families, columns): (Vec<String>, Vec<String>) = match parsed.get("column-family") {
            Some(f) => {
                let columns = header("columns")?;
                (vec![f; columns.len()], columns)
            }
            None => {
                let first = header("family")?;
                let mut current = String::new();
                let families = first
                    .iter()
                    .map(|name| {
                        if !name.is_empty() {
                            current = name.clone();
                        }
                        current.clone()
                    })
                    .collect();
                (families, header("columns")?)
            }
        };
        self.import_rows(
            &table,
            &families,
            &columns,
            records,
            width,
            value_encoded,
            batch_size,
        )
    }

    /// Writes the data rows of an import in batches, as cbt logs them.
    #[allow(clippy::too_many_arguments)]
    fn import_rows(
        &mut self,
        table: &str,
        families: &[String],
        columns: &[String],
        records: impl Iterator<Item = (usize, Vec<String>)>,
        width: usize,
        value_encoded: bool,
        batch_size: usize,
    ) -> Result<Vec<u8>, String> {
        let mut rows: Vec<(Vec<u8>, Vec<Mutation>)> = Vec::new();
        for (line, record) in records {
            if record.len() != width {
                return Err(format!("record on line {line}: wrong number of fields"));
            }
            let key = record.first().cloned().unwrap_or_default().into_bytes();
            let mut mutations = Vec::new();
            for (i, value) in record.iter().enumerate().skip(1) {
                if value.is_empty() {
                    continue;
                }
                let mut value = value.as_bytes().to_vec();
                let ts = if value_encoded {
                    take_timestamp(&mut value)
                        .filter(|n| *n >= 0)
                        .map(|n| n as u64)
                } else {
                    None
                };
                if let Some(line) = ts.and_then(super::lint::epoch_millis_warning) {
                    if !self.warnings.contains(&line) {
                        self.warnings.push(line);
                    }
                }
                mutations.push(Mutation::Put {
                    family: families.get(i).cloned().unwrap_or_default().into_bytes(),
                    qualifier: columns.get(i).cloned().unwrap_or_default().into_bytes(),
                    timestamp: ts,
                    value,
                    ttl_ms: None,
                });
            }
            rows.push((key, mutations));
        }
        let exists = self.engine.exists(table);
        let mut log = String::new();
        let mut errors = 0;
        let mut first_error = None;
        for batch in rows.chunks(batch_size.max(1)) {
            let (Some(first), Some(last)) = (batch.first(), batch.last()) else {
                continue;
            };
            let _ = write!(
                log,
                "[0] Writing batch:: size: {}, firstRowKey: {}, lastRowKey: {}\n",
                batch.len(),
                text(&first.0),
                text(&last.0)
            );
            for (key, mutations) in batch {
                let unknown = self.engine.table(table).ok().and_then(|t| {
                    mutations.iter().find_map(|m| match m {
                        Mutation::Put { family, .. } if t.descriptor.family(family).is_none() => {
                            Some(family.clone())
                        }
                        _ => None,
                    })
                });
                let failure = if !exists {
                    Some(format!(
                        "rpc error: code = NotFound desc = table {} not found",
                        print::go_quote(self.table_path(table).as_bytes())
                    ))
                } else if let Some(f) = unknown {
                    Some(format!(
                        "rpc error: code = Internal desc = unknown family {}",
                        print::go_quote(&f)
                    ))
                } else if key.is_empty() {
                    Some(
                        "rpc error: code = InvalidArgument desc = Row keys must be non-empty"
                            .into(),
                    )
                } else {
                    self.engine
                        .mutate(table, key, mutations)
                        .err()
                        .map(|e| e.to_string())
                };
                if let Some(f) = failure {
                    errors += 1;
                    first_error.get_or_insert(f);
                }
            }
        }
        if let Some(first) = first_error {
            self.warnings.push(log.trim_end().to_string());
            return Err(format!(
                "error: applying bulk mutations had {errors} errors, first:{first}"
            ));
        }
        let _ = write!(log, "Done importing {} rows.", rows.len());
        self.warnings.push(log);
        Ok(Vec::new())
    }
}

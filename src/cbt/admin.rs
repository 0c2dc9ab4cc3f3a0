//! cbt's table and family administration: `createtable`, `createfamily`, `deletefamily`,
//! `deletetable`, `deleteallrows`, `setgcpolicy`, `ls`, and Rowkey's `compact`. A Bigtable table
//! keeps what cbt shows of a family (its policy in cbt's syntax, its aggregate type) as table
//! attributes.

use super::args::{csv_record, text, Call};
use super::gcpolicy::GcPolicy;
use super::print;
use super::session::{Session, BIGTABLE_RULES};
use crate::engine::{FamilyDescriptor, TableDescriptor};

/// Attribute keys under which a Bigtable table keeps what cbt shows of a family.
pub(super) const GC_ATTRIBUTE: &str = "bigtable.gc.";
pub(super) const TYPE_ATTRIBUTE: &str = "bigtable.type.";

impl Session {
    pub(super) fn createtable(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        let parsed = &call.keys;
        let mut families: Vec<(String, GcPolicy, Option<String>)> = Vec::new();
        if let Some(spec) = parsed.get("families") {
            for entry in
                csv_record(&spec).map_err(|e| format!("Invalid families arg format: {e}"))?
            {
                let (name, policy, value_type) = parse_family_text(&entry)?;
                if !families.iter().any(|f| f.0 == name) {
                    families.push((name, policy, value_type));
                }
            }
        }
        let splits: Vec<Vec<u8>> = match parsed.get("splits") {
            Some(spec) => csv_record(&spec)
                .map_err(|e| format!("Invalid splits arg format: {e}"))?
                .into_iter()
                .map(String::into_bytes)
                .collect(),
            None => Vec::new(),
        };
        if self.engine.exists(&table) {
            return Err(format!(
                "Creating table: rpc error: code = AlreadyExists desc = table {} already exists",
                print::go_quote(self.table_path(&table).as_bytes())
            ));
        }
        let mut desc = TableDescriptor::new(&table, Vec::new());
        desc.rules = BIGTABLE_RULES;
        for (name, policy, value_type) in families {
            desc.families.push(family(&name, &policy));
            set_family_attributes(&mut desc.attributes, &name, &policy, value_type);
        }
        self.engine
            .create_table(desc, splits)
            .map_err(|e| format!("Creating table: rpc error: code = InvalidArgument desc = {e}"))?;
        Ok(Vec::new())
    }

    pub(super) fn createfamily(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        let (fam, policy, value_type) = parse_family_text(&call.text(1))?;
        let t = self.bigtable("Creating column family", &table)?;
        if t.descriptor.family(fam.as_bytes()).is_some() {
            return Err(format!(
                "Creating column family: rpc error: code = AlreadyExists desc = family {} already exists",
                print::go_quote(fam.as_bytes())
            ));
        }
        let settings = t.descriptor.settings;
        let mut attributes = t.descriptor.attributes.clone();
        set_family_attributes(&mut attributes, &fam, &policy, value_type);
        self.engine
            .alter_family(&table, family(&fam, &policy))
            .and_then(|()| {
                self.engine
                    .set_table_attributes(&table, settings, attributes)
            })
            .map_err(|e| {
                format!("Creating column family: rpc error: code = InvalidArgument desc = {e}")
            })?;
        Ok(Vec::new())
    }

    pub(super) fn deletefamily(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let (table, fam) = (call.text(0), call.text(1));
        let t = self.bigtable("Deleting column family", &table)?;
        if t.descriptor.family(fam.as_bytes()).is_none() {
            return Err(format!(
                "Deleting column family: rpc error: code = Unknown desc = can't delete unknown family {}",
                print::go_quote(fam.as_bytes())
            ));
        }
        let mut attributes = t.descriptor.attributes.clone();
        let settings = t.descriptor.settings;
        attributes.remove(&format!("{GC_ATTRIBUTE}{fam}"));
        attributes.remove(&format!("{TYPE_ATTRIBUTE}{fam}"));
        self.engine
            .delete_family(&table, &fam)
            .and_then(|()| {
                self.engine
                    .set_table_attributes(&table, settings, attributes)
            })
            .map_err(|e| format!("Deleting column family: rpc error: code = Unknown desc = {e}"))?;
        Ok(Vec::new())
    }

    pub(super) fn deletetable(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        self.bigtable("Deleting table", &table)?;
        // An HBase table the shell disabled already is dropped as it is.
        let enabled = self.engine.table(&table).is_ok_and(|t| t.enabled);
        (if enabled {
            self.engine.disable(&table)
        } else {
            Ok(())
        })
        .and_then(|()| self.engine.drop_table(&table))
        .map_err(|e| format!("Deleting table: {e}"))?;
        Ok(Vec::new())
    }

    pub(super) fn deleteallrows(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        self.bigtable("Deleting all rows", &table)?;
        // The rows go, the table stays as it was: an HBase table the shell disabled stays
        // disabled (a truncate leaves a table enabled).
        let enabled = self.engine.table(&table).is_ok_and(|t| t.enabled);
        self.engine
            .truncate(&table, true)
            .and_then(|()| match enabled {
                true => Ok(()),
                false => self.engine.disable(&table),
            })
            .map_err(|e| format!("Deleting all rows: {e}"))?;
        Ok(Vec::new())
    }

    pub(super) fn setgcpolicy(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let (table, fam) = (call.text(0), call.text(1));
        let mut rest: Vec<String> = call.words.iter().skip(2).map(|a| text(a)).collect();
        if rest.last().is_some_and(|l| l == "force") {
            rest.pop();
        }
        let policy =
            GcPolicy::parse(&rest.join(" ")).map_err(|e| format!("invalid GC policy: {}", e.0))?;
        let t = self.bigtable("Setting GC policy", &table)?;
        let Some(existing) = t.descriptor.family(fam.as_bytes()) else {
            return Err(format!(
                "Setting GC policy: rpc error: code = Unknown desc = no such family {}",
                print::go_quote(fam.as_bytes())
            ));
        };
        let mut descriptor = existing.clone();
        policy.apply_to(&mut descriptor);
        let mut attributes = t.descriptor.attributes.clone();
        let settings = t.descriptor.settings;
        let key = format!("{GC_ATTRIBUTE}{fam}");
        match policy {
            GcPolicy::Never => attributes.remove(&key),
            _ => attributes.insert(key, policy.to_cbt()),
        };
        self.engine
            .alter_family(&table, descriptor)
            .and_then(|()| {
                self.engine
                    .set_table_attributes(&table, settings, attributes)
            })
            .map_err(|e| format!("Setting GC policy: {e}"))?;
        Ok(Vec::new())
    }

    pub(super) fn ls(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        match call.words.first() {
            None => {
                // Every table: an HBase table is read, written and named by `createtable` as
                // a Bigtable one is, so it is listed too.
                let mut out = String::new();
                for t in self.engine.tables() {
                    out.push_str(&t.descriptor.name);
                    out.push('\n');
                }
                Ok(out.into_bytes())
            }
            Some(table) => {
                let table = text(table);
                let t = self.bigtable("Getting table info", &table)?;
                let mut lines = vec![
                    vec![
                        "Family Name".to_string(),
                        "GC Policy".into(),
                        "Value Type".into(),
                    ],
                    vec![
                        "-----------".to_string(),
                        "---------".into(),
                        "----------".into(),
                    ],
                ];
                let attrs = &t.descriptor.attributes;
                for f in &t.descriptor.families {
                    let gc = attrs
                        .get(&format!("{GC_ATTRIBUTE}{}", f.name))
                        .and_then(|p| GcPolicy::parse(p).ok())
                        .map(|p| p.display())
                        .unwrap_or_default();
                    let value_type = match attrs.get(&format!("{TYPE_ATTRIBUTE}{}", f.name)) {
                        Some(t) => value_type_json(t),
                        None => "{}".to_string(),
                    };
                    lines.push(vec![f.name.clone(), gc, value_type]);
                }
                Ok(print::tabwriter(&lines).into_bytes())
            }
        }
    }

    pub(super) fn compact(&mut self, call: &Call) -> Result<Vec<u8>, String> {
        let table = call.text(0);
        self.bigtable("Compacting", &table)?;
        self.engine
            .flush(&table)
            .and_then(|()| self.engine.compact(&table, true))
            .map_err(|e| format!("Compacting: {e}"))?;
        Ok(Vec::new())
    }
}

/// The value type a typed family shows in `cbt ls TABLE`.
fn value_type_json(t: &str) -> String {
    let inner = match t {
        "stringutf8bytes" => return "{\"stringType\":{\"encoding\":{\"utf8Raw\":{}}}}".into(),
        "intsum" => "\"sum\":{}",
        "intmin" => "\"min\":{}",
        "intmax" => "\"max\":{}",
        _ => "\"hllppUniqueCount\":{}",
    };
    format!(
        "{{\"aggregateType\":{{\"inputType\":{{\"int64Type\":{{\"encoding\":{{\"bigEndianBytes\":{{}}}}}}}}, {inner}}}}}"
    )
}

/// Whether a family's value type is an aggregate one (what `addtocell` writes to).
pub(super) fn is_aggregate(value_type: &str) -> bool {
    matches!(value_type, "intsum" | "intmin" | "intmax" | "inthll")
}

/// A family as `createtable`'s `families=` and `createfamily` give it, `name[:policy[:type]]`,
/// read as cbt's `parseFamilyText` reads it: split at every colon, the policy the second part,
/// the type (any case: Go's `strings.ToLower`, of which ASCII's is all the names need) read
/// only when there are exactly three parts.
fn parse_family_text(text: &str) -> Result<(String, GcPolicy, Option<String>), String> {
    let parts: Vec<&str> = text.split(':').collect();
    let policy = match parts.get(1) {
        Some(p) => GcPolicy::parse(p).map_err(|e| format!("invalid GC policy: {}", e.0))?,
        None => GcPolicy::Never,
    };
    let value_type = match parts.as_slice() {
        [_, _, t] => match t.to_ascii_lowercase().as_str() {
            known @ ("intsum" | "intmin" | "intmax" | "inthll" | "stringutf8bytes") => {
                Some(known.to_string())
            }
            _ => return Err(format!("unknown type {t}")),
        },
        _ => None,
    };
    Ok((
        parts.first().copied().unwrap_or_default().to_string(),
        policy,
        value_type,
    ))
}

/// Records what cbt shows of a family (its policy unless `never`, its type) in the table's
/// attributes.
fn set_family_attributes(
    attributes: &mut crate::kit::sorted::SortedMap<String, String>,
    name: &str,
    policy: &GcPolicy,
    value_type: Option<String>,
) {
    if !matches!(policy, GcPolicy::Never) {
        attributes.insert(format!("{GC_ATTRIBUTE}{name}"), policy.to_cbt());
    }
    if let Some(t) = value_type {
        attributes.insert(format!("{TYPE_ATTRIBUTE}{name}"), t);
    }
}

fn family(name: &str, policy: &GcPolicy) -> FamilyDescriptor {
    let mut f = FamilyDescriptor::new(name);
    policy.apply_to(&mut f);
    f
}

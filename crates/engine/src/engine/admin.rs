//! Tables and families: creating, enabling, altering and dropping them, and the names HBase
//! accepts.

use crate::kit::sorted::{SortedMap, SortedSet};

use super::error::{Error, Result};
use super::family::FamilyDescriptor;
use super::keys::KeyIndex;
use super::rules::Rules;
use super::store::Store;
use super::table::{Region, Table, TableDescriptor, TableSettings};
use super::Engine;
use crate::kit::order;

impl Engine {
    /// Creates a table, pre-split at `splits` (sorted and deduplicated here).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn create_table(&mut self, mut desc: TableDescriptor, splits: Vec<Vec<u8>>) -> Result<()> {
        validate_table_name(&desc.name)?;
        if self.tables.contains_key(&desc.name) {
            return Err(Error::TableExists(desc.name));
        }
        // HBase needs a family; a Bigtable table may start with none.
        if desc.families.is_empty() && desc.rules == Rules::HBASE {
            return Err(Error::NoFamilies);
        }
        for f in &desc.families {
            validate_family(f, desc.rules)?;
        }
        order::sort_by(&mut desc.families, |a, b| a.name.cmp(&b.name));
        if let Some(w) = desc
            .families
            .windows(2)
            .find(|w| w.first().map(|f| &f.name) == w.get(1).map(|f| &f.name))
        {
            let name = w.first().map(|f| f.name.clone()).unwrap_or_default();
            return Err(Error::DuplicateFamily(name));
        }
        let splits: SortedSet<Vec<u8>> = splits.into_iter().collect();
        if splits.contains(&Vec::new()) {
            return Err(Error::IllegalArgument("Split row cannot be empty".into()));
        }
        let mut bounds: Vec<Vec<u8>> = vec![Vec::new()];
        bounds.extend(splits);
        let mut regions = Vec::with_capacity(bounds.len());
        for (i, start) in bounds.iter().enumerate() {
            let end = bounds.get(i + 1).cloned().unwrap_or_default();
            let id = self.next_id();
            regions.push(Region::new(id, start.clone(), end, &desc.families));
        }
        self.events.remove(&desc.name);
        self.activity.remove(&desc.name);
        self.tables.insert(
            desc.name.clone(),
            Table {
                descriptor: desc,
                enabled: true,
                regions,
                keys: KeyIndex::new(),
                seq: 0,
            },
        );
        self.changes.catalog = true;
        Ok(())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn disable(&mut self, name: &str) -> Result<()> {
        let t = self.table_mut(name)?;
        if !t.enabled {
            return Err(Error::IllegalArgument(format!("Table {name} is disabled!")));
        }
        t.enabled = false;
        self.changes.catalog = true;
        Ok(())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn enable(&mut self, name: &str) -> Result<()> {
        let t = self.table_mut(name)?;
        if t.enabled {
            return Err(Error::IllegalArgument(format!("Table {name} is enabled!")));
        }
        t.enabled = true;
        self.changes.catalog = true;
        Ok(())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn drop_table(&mut self, name: &str) -> Result<()> {
        if self.table(name)?.enabled {
            return Err(Error::TableNotDisabled(name.to_string()));
        }
        self.tables.remove(name);
        self.events.remove(name);
        self.activity.remove(name);
        self.changes.catalog = true;
        Ok(())
    }

    /// Empties a table; with `preserve_splits` it keeps its region boundaries.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn truncate(&mut self, name: &str, preserve_splits: bool) -> Result<()> {
        let (desc, splits) = self.schema(name, preserve_splits)?;
        self.tables.remove(name);
        self.create_table(desc, splits)
    }

    /// Makes table `target` with the descriptor of `source` and, with `preserve_splits`, its
    /// region boundaries, and none of its cells (HBase's `Admin.cloneTableSchema`).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn clone_table_schema(
        &mut self,
        source: &str,
        target: &str,
        preserve_splits: bool,
    ) -> Result<()> {
        let (mut desc, splits) = self.schema(source, preserve_splits)?;
        if self.exists(target) {
            return Err(Error::TableExists(target.to_string()));
        }
        desc.name = target.to_string();
        self.create_table(desc, splits)
    }

    /// A table's descriptor, and its split keys when `with_splits` (else none).
    fn schema(&self, name: &str, with_splits: bool) -> Result<(TableDescriptor, Vec<Vec<u8>>)> {
        let t = self.table(name)?;
        let splits = match with_splits {
            true => t.regions.iter().skip(1).map(|r| r.start.clone()).collect(),
            false => Vec::new(),
        };
        Ok((t.descriptor.clone(), splits))
    }

    /// Adds a family, or replaces the settings of an existing one.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn alter_family(&mut self, table: &str, family: FamilyDescriptor) -> Result<()> {
        let rules = self.table(table)?.descriptor.rules;
        validate_family(&family, rules)?;
        let t = self.table_mut(table)?;
        match t.descriptor.family_index(family.name.as_bytes()) {
            Some(i) => {
                if let Some(slot) = t.descriptor.families.get_mut(i) {
                    *slot = family;
                }
            }
            None => {
                let at = t
                    .descriptor
                    .families
                    .partition_point(|f| f.name < family.name);
                for region in &mut t.regions {
                    region.stores.insert(at, Store::new(&family.name));
                }
                t.descriptor.families.insert(at, family);
            }
        }
        self.changes.catalog = true;
        Ok(())
    }

    /// Removes a family and all its data.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn delete_family(&mut self, table: &str, family: &str) -> Result<()> {
        let t = self.table_mut(table)?;
        let Some(i) = t.descriptor.family_index(family.as_bytes()) else {
            return Err(Error::IllegalArgument(format!(
                "Family '{family}' does not exist, so it cannot be deleted"
            )));
        };
        if t.descriptor.families.len() == 1 && t.descriptor.rules == Rules::HBASE {
            return Err(Error::sanity_check(
                "Table should have at least one column family.",
            ));
        }
        t.descriptor.families.remove(i);
        for region in &mut t.regions {
            if i < region.stores.len() {
                region.stores.remove(i);
            }
        }
        t.rebuild_keys();
        self.changes.catalog = true;
        Ok(())
    }

    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn set_settings(&mut self, table: &str, settings: TableSettings) -> Result<()> {
        self.table_mut(table)?.descriptor.settings = settings;
        self.changes.catalog = true;
        Ok(())
    }

    /// Replaces a table's thresholds and attributes (what `alter` of table options does).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn set_table_attributes(
        &mut self,
        table: &str,
        settings: TableSettings,
        attributes: SortedMap<String, String>,
    ) -> Result<()> {
        let d = &mut self.table_mut(table)?.descriptor;
        d.settings = settings;
        d.attributes = attributes;
        self.changes.catalog = true;
        Ok(())
    }

    /// The start keys of every region but the first.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn splits(&self, table: &str) -> Result<Vec<Vec<u8>>> {
        Ok(self
            .table(table)?
            .regions
            .iter()
            .skip(1)
            .map(|r| r.start.clone())
            .collect())
    }
}

#[cfg_attr(rowkey_cold, optimize(size))]
fn validate_table_name(name: &str) -> Result<()> {
    let (ns, qualifier) = match name.split_once(':') {
        Some((ns, q)) => (Some(ns), q),
        None => (None, name),
    };
    let legal = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
            && !s.starts_with('.')
            && !s.starts_with('-')
    };
    if ns.is_some_and(|n| !legal(n) || n.contains('.') || n.contains('-')) || !legal(qualifier) {
        return Err(Error::IllegalName(format!(
            "Illegal character code:{}, <{}> at {}. User-space table qualifiers may only contain 'alphanumeric characters' and digits: {}",
            name.bytes().find(|b| !(b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-' || *b == b'.' || *b == b':')).map(u32::from).unwrap_or(0),
            name.chars().find(|c| !(c.is_ascii_alphanumeric() || "_-.:".contains(*c))).unwrap_or(' '),
            name.find(|c: char| !(c.is_ascii_alphanumeric() || "_-.:".contains(c))).unwrap_or(0),
            name
        )));
    }
    Ok(())
}

#[cfg_attr(rowkey_cold, optimize(size))]
/// A family's settings checked as the table's kind checks them: HBase's master runs its
/// sanity checks (`TableDescriptorChecker`, `hbase.table.sanity.checks` on by default) on an
/// HBase table; a Bigtable table's family has only its name and versions checked.
fn validate_family(f: &FamilyDescriptor, rules: Rules) -> Result<()> {
    if f.name.is_empty() {
        return Err(Error::IllegalName(
            "Column Family name can not be empty".into(),
        ));
    }
    if f.name.starts_with('.')
        || f.name
            .bytes()
            .any(|b| b == b':' || b == b'/' || b.is_ascii_control())
    {
        return Err(Error::IllegalName(format!(
            "Column Family names cannot contain control characters, colons or slashes: {}",
            f.name
        )));
    }
    if f.max_versions < 1 {
        // `ColumnFamilyDescriptorBuilder.setMaxVersions`.
        return Err(Error::IllegalArgument(
            "Maximum versions must be positive".into(),
        ));
    }
    if rules != Rules::HBASE {
        return Ok(());
    }
    let sanity = |message: String| Err(Error::sanity_check(&message));
    let name = &f.name;
    if f.ttl_seconds == Some(0) {
        return sanity(format!("TTL for column family {name} must be positive."));
    }
    if f.blocksize < 1024 || f.blocksize > 16 * 1024 * 1024 {
        return sanity(format!(
            "Block size for column family {name}  must be between 1K and 16MB."
        ));
    }
    if f.min_versions > f.max_versions {
        return sanity(format!(
            "Min versions for column family {name} must be less than the Max versions."
        ));
    }
    Ok(())
}

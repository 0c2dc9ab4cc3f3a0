//! Which tables the gallery loaded, for which design and under which names, so that a design
//! never overwrites a table of the person's. A table is a design's own when the gallery created
//! it for that design ([`Loads::record`]) and nobody created a table of that name by hand since
//! ([`Loads::forget_table`]); any other table of a design's name is the person's, and loading
//! the design then asks: replace it, load the design under other names ([`Placement::rewrite`]),
//! or cancel.
//!
//! Renaming works because every command of a design names its table as its first argument, a
//! string literal (`put 'blog', ...`, `scan 'blog', {...}`): the rewrite replaces that literal
//! and nothing else, so row keys and values that happen to spell a table name stay as they are.

use crate::kit::sorted::SortedMap;
use std::fmt::Write as _;

use crate::json::{self, Node};

use super::lesson::{self, PatternRun};
use super::{Design, Size};
use crate::analysis::{analyze, created, existing_changed, Dialect};
use crate::shell::{parse_script, quote, Shell, Value};

/// A design's tables under the names they were (or are to be) loaded as.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// `(the design's name, the name loaded as)`, in the design's order.
    pub names: Vec<(String, String)>,
}

impl Placement {
    /// Every table under its own name.
    pub fn own(tables: &[&str]) -> Placement {
        Placement {
            names: tables
                .iter()
                .map(|t| (t.to_string(), t.to_string()))
                .collect(),
        }
    }

    /// Every table under its name with the suffix `_n`, for the smallest `n` from 2 at which
    /// none of the new names is taken.
    pub fn free(tables: &[&str], taken: impl Fn(&str) -> bool) -> Placement {
        let mut n = 2u32;
        loop {
            let names: Vec<(String, String)> = tables
                .iter()
                .map(|t| (t.to_string(), format!("{t}_{n}")))
                .collect();
            if names.iter().all(|(_, new)| !taken(new)) || n == u32::MAX {
                return Placement { names };
            }
            n += 1;
        }
    }

    /// The names loaded as, in the design's order.
    pub fn tables(&self) -> Vec<&str> {
        self.names.iter().map(|(_, n)| n.as_str()).collect()
    }

    /// Whether some table is loaded under another name than the design's.
    pub fn is_renamed(&self) -> bool {
        self.names.iter().any(|(a, b)| a != b)
    }

    /// The name a table of the design is loaded as (the name itself when it is not the
    /// design's).
    pub fn name_of<'a>(&'a self, table: &'a str) -> &'a str {
        self.names
            .iter()
            .find(|(own, _)| own == table)
            .map(|(_, new)| new.as_str())
            .unwrap_or(table)
    }

    /// The script with every command's table (its first argument, when that is a string naming
    /// one of the design's tables) renamed. Everything else is kept byte for byte. A command
    /// that does not parse is an error naming its line, since its table could not be renamed.
    pub fn rewrite(&self, script: &str) -> Result<String, String> {
        if !self.is_renamed() {
            return Ok(script.to_string());
        }
        let mut out = String::with_capacity(script.len() + script.len() / 16);
        let mut copied = 0;
        for result in parse_script(script) {
            let cmd = result.map_err(|e| {
                let line = 1 + script
                    .get(..e.span.start)
                    .map(|s| s.matches('\n').count())
                    .unwrap_or(0);
                format!("line {line}: {}", e.message)
            })?;
            let Some(first) = cmd.args.first() else {
                continue;
            };
            let Value::Str(bytes) = &first.value else {
                continue;
            };
            let Some((_, new)) = self
                .names
                .iter()
                .find(|(own, _)| own.as_bytes() == bytes.as_slice())
            else {
                continue;
            };
            if span_fits(script, &first.span, copied) {
                out.push_str(&script[copied..first.span.start]);
                out.push_str(&quote(new.as_bytes()));
                copied = first.span.end;
            }
        }
        out.push_str(&script[copied..]);
        Ok(out)
    }
}

/// Whether a span can be cut out of the script at char boundaries after what was copied.
fn span_fits(script: &str, span: &std::ops::Range<usize>, copied: usize) -> bool {
    span.start >= copied
        && span.end <= script.len()
        && script.is_char_boundary(span.start)
        && script.is_char_boundary(span.end)
}

/// The gallery's loads, by design id, and the sample size the person picked for each design.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loads {
    by_design: SortedMap<String, Placement>,
    /// Sizes other than the default, by design id. A size outlives its design's tables: it is
    /// what the person chose, and the next load of the design uses it.
    sizes: SortedMap<String, Size>,
}

impl Loads {
    /// The loads as the page saves them:
    /// `{"by_design":{"org":{"names":[["o","o"]]}},"sizes":{"org":"large"}}`, without `sizes`
    /// when no size was picked.
    pub fn to_json(&self) -> String {
        let by_design = self
            .by_design
            .iter()
            .map(|(id, p)| {
                let names = p
                    .names
                    .iter()
                    .map(|(a, b)| json::Value::Array(vec![a.as_str().into(), b.as_str().into()]))
                    .collect();
                (
                    id.clone(),
                    json::Value::object(vec![("names", json::Value::Array(names))]),
                )
            })
            .collect();
        let mut members = vec![("by_design".to_string(), json::Value::Object(by_design))];
        if !self.sizes.is_empty() {
            let sizes = self
                .sizes
                .iter()
                .map(|(id, s)| (id.clone(), json::Value::from(s.label())))
                .collect();
            members.push(("sizes".to_string(), json::Value::Object(sizes)));
        }
        json::Value::Object(members).to_compact()
    }

    /// Saved loads back (`sizes` may be missing; members not known are ignored).
    pub fn from_json(node: &Node) -> Result<Loads, json::Error> {
        let f = node.members()?;
        let mut loads = Loads::default();
        for (id, placement) in f.read("by_design", object_members)? {
            let names =
                placement
                    .members()?
                    .list("names", |pair| match pair.items()?.as_slice() {
                        [a, b] => Ok((a.string()?, b.string()?)),
                        _ => Err(pair.error("expected [design's name, loaded name]")),
                    })?;
            loads.by_design.insert(id, Placement { names });
        }
        if let Some(sizes) = f.get("sizes") {
            for (id, size) in object_members(&sizes)? {
                let label = size.variant(&["small", "medium", "large"])?;
                loads
                    .sizes
                    .insert(id, Size::named(label).unwrap_or_default());
            }
        }
        Ok(loads)
    }

    /// The sample size of design `id`: the one picked for it, or the default.
    pub fn size(&self, id: &str) -> Size {
        self.sizes.get(id).copied().unwrap_or_default()
    }

    /// Design `id` is to load at `size` from now on.
    pub fn set_size(&mut self, id: &str, size: Size) {
        if size == Size::default() {
            self.sizes.remove(id);
        } else {
            self.sizes.insert(id.to_string(), size);
        }
    }

    /// Where design `id` was loaded, if it was.
    pub fn get(&self, id: &str) -> Option<&Placement> {
        self.by_design.get(id)
    }

    /// Design `id` was loaded under these names; any other design's claim to one of them ends
    /// (its table was replaced).
    pub fn record(&mut self, id: &str, placement: Placement) {
        for name in placement.tables() {
            self.forget_table(name);
        }
        self.by_design.insert(id.to_string(), placement);
    }

    /// The design whose table `name` is, if any.
    pub fn owner(&self, name: &str) -> Option<&str> {
        self.by_design
            .iter()
            .find(|(_, p)| p.tables().contains(&name))
            .map(|(id, _)| id.as_str())
    }

    /// A table named `name` was created by hand (or replaced by something else): whatever
    /// design it belonged to no longer owns any of its tables' names, since one of them is now
    /// the person's. Returns whether a load was forgotten.
    pub fn forget_table(&mut self, name: &str) -> bool {
        let before = self.by_design.len();
        self.by_design.retain(|_, p| !p.tables().contains(&name));
        self.by_design.len() != before
    }

    /// Forgets every load whose tables are all gone.
    pub fn prune(&mut self, exists: impl Fn(&str) -> bool) -> bool {
        let before = self.by_design.len();
        self.by_design
            .retain(|_, p| p.tables().iter().any(|t| exists(t)));
        self.by_design.len() != before
    }

    /// Whether nothing is recorded: no load and no size picked.
    pub fn is_empty(&self) -> bool {
        self.by_design.is_empty() && self.sizes.is_empty()
    }

    /// Forgets the table names created by the `create` commands of a submission: a table the
    /// person created is theirs, whatever design once used its name. Cheap on large pastes:
    /// only lines that start with `create` are parsed.
    pub fn forget_created(&mut self, text: &str) -> bool {
        if self.by_design.is_empty() {
            return false;
        }
        let lines: Vec<String> = text
            .lines()
            .filter(|l| l.contains("create"))
            .map(str::to_string)
            .collect();
        let mut changed = false;
        for name in created(&analyze(&lines, Dialect::HBase)) {
            changed |= self.forget_table(&name);
        }
        changed
    }
}

/// What opening a design does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Its tables are there, as loaded: show them.
    Show(Placement),
    /// Load it under these names, first dropping these tables of its own (left from an earlier
    /// load of the same design).
    Load {
        placement: Placement,
        drop: Vec<String>,
    },
    /// Tables of its names exist that are not its own: ask the person.
    Ask(Clash),
}

/// Tables in the way of a design (or an imported table), and the names it could load as
/// instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The existing tables that carry one of its names.
    pub taken: Vec<String>,
    /// Free names for all its tables.
    pub renamed: Placement,
}

/// What opening design `id` with these tables and this setup script does, given the gallery's
/// loads and the tables that exist. A setup that would change an existing table other than its
/// own (through a table reference, say) always asks first, naming that table.
pub fn decide(
    id: &str,
    tables: &[&str],
    setup: &str,
    loads: &Loads,
    exists: impl Fn(&str) -> bool,
) -> Decision {
    let foreign: Vec<String> =
        existing_changed(&analyze(&[setup.to_string()], Dialect::HBase), &exists)
            .into_iter()
            .filter(|t| !tables.contains(&t.as_str()))
            .filter(|t| {
                loads
                    .get(id)
                    .is_none_or(|p| !p.tables().contains(&t.as_str()))
            })
            .collect();
    if !foreign.is_empty() {
        let mut taken = foreign;
        taken.extend(tables.iter().filter(|t| exists(t)).map(|t| t.to_string()));
        return Decision::Ask(Clash {
            taken,
            renamed: Placement::free(tables, exists),
        });
    }
    if let Some(p) = loads.get(id) {
        let present: Vec<String> = p
            .tables()
            .into_iter()
            .filter(|t| exists(t))
            .map(str::to_string)
            .collect();
        if present.len() == p.names.len() {
            return Decision::Show(p.clone());
        }
        // Some of its own tables were dropped: load it again where it was.
        return Decision::Load {
            placement: p.clone(),
            drop: present,
        };
    }
    let taken: Vec<String> = tables
        .iter()
        .filter(|t| exists(t))
        .map(|t| t.to_string())
        .collect();
    if taken.is_empty() {
        Decision::Load {
            placement: Placement::own(tables),
            drop: Vec::new(),
        }
    } else {
        Decision::Ask(Clash {
            taken,
            renamed: Placement::free(tables, exists),
        })
    }
}

/// What importing a table as `name` by running `script` does: `None` when it changes no
/// existing table (it runs), or the question to ask, naming every existing table the script
/// would create over or change, directly or through a table reference.
pub fn decide_import(name: &str, script: &str, exists: impl Fn(&str) -> bool) -> Option<Clash> {
    let accesses = analyze(&[script.to_string()], Dialect::HBase);
    let mut taken: Vec<String> = accesses
        .iter()
        .filter_map(|a| a.creates.clone())
        .filter(|t| exists(t))
        .collect();
    for t in existing_changed(&accesses, &exists) {
        if !taken.contains(&t) {
            taken.push(t);
        }
    }
    (!taken.is_empty()).then(|| Clash {
        taken,
        renamed: Placement::free(&[name], exists),
    })
}

/// `disable` (when enabled) and `drop` for each table, as shell commands.
pub fn drop_script(tables: &[String], enabled: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    for t in tables {
        if enabled(t) {
            let _ = writeln!(out, "disable {}", quote(t.as_bytes()));
        }
        let _ = writeln!(out, "drop {}", quote(t.as_bytes()));
    }
    out
}

/// The design's setup script under a placement.
pub fn setup_as(design: &Design, placement: &Placement) -> Result<String, String> {
    placement.rewrite(&design.setup_script())
}

/// A design's script under a placement, as the cbt lines that make its tables Bigtable tables
/// holding the same cells ([`super::in_cbt`]): what loading it in the console's cbt mode runs.
pub fn cbt_setup_as(design: &Design, placement: &Placement) -> Result<String, String> {
    super::in_cbt::script_of(&setup_as(design, placement)?, &placement.tables())
}

/// The command of access pattern `index` under a placement.
pub fn pattern_as(design: &Design, index: usize, placement: &Placement) -> Result<String, String> {
    let p = design
        .patterns
        .get(index)
        .ok_or_else(|| format!("{} has no access pattern {index}", design.id))?;
    placement.rewrite(&p.command)
}

/// Runs access pattern `index` of a design loaded under a placement, and measures it as
/// [`Design::run_pattern`] does.
pub fn run_pattern_as(
    design: &Design,
    shell: &mut Shell,
    index: usize,
    placement: &Placement,
) -> Result<PatternRun, String> {
    if !placement.is_renamed() {
        return design.run_pattern(shell, index);
    }
    let p = design
        .patterns
        .get(index)
        .ok_or_else(|| format!("{} has no access pattern {index}", design.id))?;
    let command = placement.rewrite(&p.command)?;
    let tables = placement.tables();
    let (measures, outcomes) = lesson::run_measured(shell, &tables, &command, p.actions)?;
    let checks = p.claims.iter().map(|c| (*c, c.holds(&measures))).collect();
    Ok(PatternRun {
        measures,
        checks,
        outcomes,
    })
}

/// An object's members by name, each with its path.
fn object_members<'a>(node: &Node<'a>) -> Result<Vec<(String, Node<'a>)>, json::Error> {
    let fields = node.members()?;
    let json::Value::Object(members) = node.value() else {
        return Ok(Vec::new());
    };
    Ok(members
        .iter()
        .filter_map(|(name, _)| fields.get(name).map(|n| (name.clone(), n)))
        .collect())
}

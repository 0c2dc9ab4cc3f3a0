//! The command listing `cbt help` prints: cbt 1.23.2's usage text, with a line for every command
//! the dialect runs that 1.23.2 does not list (`checkandmutate`, `readmodifywrite` and
//! `samplerowkeys` from later cbt releases, Rowkey's own `compact` and `export`), put in
//! alphabetical order among cbt's own and laid out as cbt lays out its lines.

use crate::commands::{self, Dialect};
use crate::kit::order;

/// cbt 1.23.2's usage text, as it prints it.
const CBT_USAGE: &str = include_str!("help/usage.txt");

/// The column the descriptions start at: cbt pads `cbt NAME` with tabs to the 32nd column
/// (a tab stop every 8 columns), as its listing shows (`cbt ls` four tabs, `cbt help` three,
/// `cbt createfamily` two).
const DESCRIPTION_COLUMN: usize = 32;

/// `cbt NAME`, the tabs to the description column, and the description.
fn line(name: &str, desc: &str) -> String {
    let head = format!("cbt {name}");
    let tabs = (DESCRIPTION_COLUMN.saturating_sub(head.len()) + 7) / 8;
    format!("{head}{}{desc}", "\t".repeat(tabs.max(1)))
}

/// The listing's lines of the commands cbt 1.23.2 does not list, in the table's order.
pub fn added_lines() -> Vec<String> {
    commands::of(Dialect::Cbt)
        .filter(|c| !listed(c.name))
        .map(|c| line(c.name, c.desc))
        .collect()
}

/// Whether cbt 1.23.2's usage text lists the command.
fn listed(name: &str) -> bool {
    CBT_USAGE
        .lines()
        .any(|l| l.strip_prefix("cbt ").and_then(|r| r.split('\t').next()) == Some(name))
}

/// The usage text with [`added_lines`] in alphabetical order among cbt's lines.
pub fn usage() -> String {
    let mut added = added_lines();
    order::sort(&mut added);
    let mut added = added.into_iter().peekable();
    let mut out = String::with_capacity(CBT_USAGE.len() + 512);
    let mut in_listing = false;
    for l in CBT_USAGE.split_inclusive('\n') {
        let command = l.starts_with("cbt ") && l.contains('\t');
        if command {
            in_listing = true;
            while let Some(a) = added.next_if(|a| a.as_str() < l) {
                out.push_str(&a);
                out.push('\n');
            }
        } else if in_listing {
            // The listing ended: what sorts after its last line comes here.
            for a in added.by_ref() {
                out.push_str(&a);
                out.push('\n');
            }
            in_listing = false;
        }
        out.push_str(l);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbt_s_own_layout() {
        assert_eq!(line("ls", "x"), "cbt ls\t\t\t\tx");
        assert_eq!(line("help", "x"), "cbt help\t\t\tx");
        assert_eq!(line("createfamily", "x"), "cbt createfamily\t\tx");
        assert_eq!(
            line("waitforreplication", "x"),
            "cbt waitforreplication\t\tx"
        );
        for l in CBT_USAGE
            .lines()
            .filter(|l| l.starts_with("cbt ") && l.contains('\t'))
        {
            let (head, desc) = l.split_once('\t').unwrap_or_default();
            let name = head.trim_start_matches("cbt ");
            assert_eq!(line(name, desc.trim_start_matches('\t')), l);
        }
    }
}

//! The rules the gallery's designs teach, found on a person's own tables: each table here is
//! made with shell commands as a person would type them (no design is loaded), and each rule
//! speaks with its numbers on the layout it names and stays silent on the layout that avoids it.
mod common;
use common::*;
use rowkey::diagnose::{diagnose, Finding};
use rowkey::shell::Shell;

fn shell() -> Shell {
    shell_at(1_700_000_000_000).0
}

/// Runs the commands; the first error fails the test.
fn run(sh: &mut Shell, commands: &[String]) -> Result<(), String> {
    for o in sh.run(&commands.join("\n")) {
        if let Some(e) = o.error {
            return Err(format!("{}: {}", o.input, e.message));
        }
    }
    Ok(())
}

fn finding(sh: &Shell, table: &str, rule: &str) -> Option<Finding> {
    diagnose(&sh.engine, table)
        .into_iter()
        .find(|f| f.rule == rule)
}

fn rules(sh: &Shell, table: &str) -> Vec<&'static str> {
    diagnose(&sh.engine, table).iter().map(|f| f.rule).collect()
}

/// A small deterministic sequence for the tests' choices.
struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Pages of two big shops and twenty small sites under reversed domains: nine in ten pages are
/// the big shops', each site numbering its pages upwards (or at random when `ordered` is off).
fn pages(ordered: bool) -> Vec<String> {
    let mut g = Lcg(7);
    let mut next = [0u64; 2];
    let mut out = vec!["create 'pages', 'p', {MAX_FILESIZE => 16384}".to_string()];
    for i in 0..1_500u64 {
        let key = if g.below(10) < 9 {
            let b = g.below(2) as usize;
            next[b] += 1;
            let n = if ordered { next[b] } else { g.below(100_000) };
            format!("{}/item/{n:05}", ["com.bigshop", "com.megastore"][b])
        } else {
            format!("org.site{:02}/page/{i:05}", g.below(20))
        };
        out.push(format!("put 'pages', '{key}', 'p:title', 'page {i}'"));
    }
    out
}

#[test]
fn pages_numbered_upwards_under_a_few_domains_crowd_into_as_many_regions() -> Result<(), String> {
    let mut sh = shell();
    run(&mut sh, &pages(true))?;
    let f = finding(&sh, "pages", "growing-within-prefix")
        .ok_or(format!("{:?}", rules(&sh, "pages")))?;
    println!("{}", f.text);
    assert!(
        f.text
            .contains("went to the end of only 4 key prefixes ('com."),
        "{}",
        f.text
    );
    assert!(
        f.text.contains("at most 4 regions take the writes"),
        "{}",
        f.text
    );
    // The table's end is not where the writes go: this is not the growing-key hotspot.
    assert!(!rules(&sh, "pages").contains(&"growing-key"));
    Ok(())
}

#[test]
fn pages_numbered_at_random_under_the_same_domains_are_not_that_hotspot() -> Result<(), String> {
    let mut sh = shell();
    run(&mut sh, &pages(false))?;
    assert!(
        !rules(&sh, "pages").contains(&"growing-within-prefix"),
        "{:?}",
        rules(&sh, "pages")
    );
    Ok(())
}

/// Readings keyed `memusage#<Long.MAX_VALUE - ts>`, and rows before them (`config`), so the
/// prefix does not start the table.
fn memusage(reversed: bool) -> Vec<String> {
    let mut out = vec!["create 'metrics', 'm', {MAX_FILESIZE => 16384}".to_string()];
    for i in 0..50 {
        out.push(format!("put 'metrics', 'config#{i:03}', 'm:v', 'x'"));
    }
    for i in 0..600u64 {
        let ts = 1_700_000_000_000 + i * 1000;
        let t = if reversed { i64::MAX as u64 - ts } else { ts };
        out.push(format!(
            "put 'metrics', 'memusage#{t}', 'm:v', '{}'",
            i % 97
        ));
    }
    out
}

#[test]
fn reverse_timestamps_under_one_prefix_all_land_at_its_front() -> Result<(), String> {
    let mut sh = shell();
    run(&mut sh, &memusage(true))?;
    let f = finding(&sh, "metrics", "growing-within-prefix")
        .ok_or(format!("{:?}", rules(&sh, "metrics")))?;
    println!("{}", f.text);
    assert!(
        f.text.contains(
            "went to the front of only 1 key prefix ('memusage#'), the busiest taking 92 %"
        ),
        "{}",
        f.text
    );
    assert!(
        f.text
            .contains("the number after it shrinks (a reversed time or id)"),
        "{}",
        f.text
    );
    assert!(f.text.contains("'memusage#'"), "{}", f.text);
    Ok(())
}

#[test]
fn reverse_timestamps_alone_in_a_table_are_the_decreasing_key_hotspot() -> Result<(), String> {
    let mut sh = shell();
    let mut commands = memusage(true);
    commands.retain(|c| !c.contains("config#"));
    run(&mut sh, &commands)?;
    let f =
        finding(&sh, "metrics", "decreasing-key").ok_or(format!("{:?}", rules(&sh, "metrics")))?;
    assert!(
        f.text.contains("under the one prefix 'memusage#922337"),
        "{}",
        f.text
    );
    assert!(!rules(&sh, "metrics").contains(&"growing-within-prefix"));
    Ok(())
}

/// Events salted into eight buckets by their time, `<ts % 8>-<ts>`, or keyed by time alone;
/// then one minute read back, per bucket when salted.
fn events(salted: bool) -> Vec<String> {
    let mut out = vec![if salted {
        "create 'events', 'e', SPLITS => ['1', '2', '3', '4', '5', '6', '7']".to_string()
    } else {
        "create 'events', 'e'".to_string()
    }];
    let t0 = 1_700_000_000_000u64;
    for i in 0..800u64 {
        let ts = t0 + i * 137;
        let key = if salted {
            format!("{}-{ts}", ts % 8)
        } else {
            ts.to_string()
        };
        out.push(format!("put 'events', '{key}', 'e:url', '/p/{}'", i % 40));
    }
    let (from, to) = (t0 + 10_000, t0 + 70_000);
    if salted {
        for b in 0..8 {
            out.push(format!(
                "count 'events', {{STARTROW => '{b}-{from}', STOPROW => '{b}-{to}'}}"
            ));
        }
    } else {
        out.push(format!(
            "count 'events', {{STARTROW => '{from}', STOPROW => '{to}'}}"
        ));
    }
    out
}

#[test]
fn salted_keys_turn_a_range_read_into_a_scan_per_bucket() -> Result<(), String> {
    let mut sh = shell();
    run(&mut sh, &events(true))?;
    let f =
        finding(&sh, "events", "salted-fan-out").ok_or(format!("{:?}", rules(&sh, "events")))?;
    println!("{}", f.text);
    assert!(
        f.text.starts_with(
            "Every row starts with one of 8 salt buckets ('0' to '7') before a number or time"
        ),
        "{}",
        f.text
    );
    assert!(
        f.text.contains("takes 8 scans, one per bucket"),
        "{}",
        f.text
    );
    assert!(f.text.contains("8 were range reads"), "{}", f.text);
    Ok(())
}

#[test]
fn unsalted_time_keys_are_not_salted() -> Result<(), String> {
    let mut sh = shell();
    run(&mut sh, &events(false))?;
    assert!(
        !rules(&sh, "events").contains(&"salted-fan-out"),
        "{:?}",
        rules(&sh, "events")
    );
    Ok(())
}

/// Customers with long or short names for the key, the family and the qualifiers, and the
/// same short values.
fn customers(long: bool) -> Vec<String> {
    let (family, cols): (&str, [&str; 3]) = if long {
        (
            "customer_information",
            [
                "first_name_of_customer",
                "last_name_of_customer",
                "customer_birth_year",
            ],
        )
    } else {
        ("c", ["f", "l", "y"])
    };
    let mut out = vec![format!("create 'customers', '{family}'")];
    for i in 0..40 {
        let row = if long {
            format!("customer_account_{i:06}")
        } else {
            format!("c{i:04}")
        };
        for (col, value) in cols.iter().zip(["Al", "Li", "1970"]) {
            out.push(format!(
                "put 'customers', '{row}', '{family}:{col}', '{value}'"
            ));
        }
    }
    out
}

#[test]
fn long_names_around_short_values_are_mostly_key() -> Result<(), String> {
    let mut sh = shell();
    run(&mut sh, &customers(true))?;
    let f = finding(&sh, "customers", "cell-overhead")
        .ok_or(format!("{:?}", rules(&sh, "customers")))?;
    println!("{}", f.text);
    // 23 + 20 + 21 (the mean qualifier) + 20 of framing = 84 bytes around 2.7 bytes of value.
    assert!(f.text.starts_with("A cell here stores 84 bytes of row key, family, qualifier and KeyValue framing for 3 bytes of value"), "{}", f.text);
    Ok(())
}

#[test]
fn short_names_keep_the_key_small() -> Result<(), String> {
    let mut sh = shell();
    run(&mut sh, &customers(false))?;
    assert!(
        !rules(&sh, "customers").contains(&"cell-overhead"),
        "{:?}",
        rules(&sh, "customers")
    );
    Ok(())
}

#[test]
fn a_wide_row_that_keeps_growing_is_named() -> Result<(), String> {
    let mut sh = shell();
    let mut commands = vec!["create 'followers', 'f'".to_string()];
    for u in 0..100 {
        commands.push(format!(
            "put 'followers', 'user{u:03}', 'f:user{:03}', '1'",
            (u + 1) % 100
        ));
    }
    for f in 0..1_500 {
        commands.push(format!("put 'followers', 'star', 'f:fan{f:05}', '1'"));
    }
    run(&mut sh, &commands)?;
    let f =
        finding(&sh, "followers", "wide-row").ok_or(format!("{:?}", rules(&sh, "followers")))?;
    assert!(
        f.text.starts_with("Row 'star' holds 1,500 cells"),
        "{}",
        f.text
    );
    assert!(f.text.contains("it grows without bound"), "{}", f.text);
    Ok(())
}

/// Ids written in id order with their digits reversed (the gallery's "reversed ids spread":
/// 002101, 102101, …, 902101, 012101, …): the number rises from nine writes in ten to the
/// next but falls back as far once a cycle, so the writes spread over the keys and no rule
/// calls them a hotspot. The same ids unreversed are the growing key. The Hotspots view
/// said "100 % of the last 1,240 writes went to the end of only 1 key prefix ('')" beside the
/// design's lesson that the writes spread.
#[test]
fn reversed_ids_written_in_id_order_are_no_hotspot() -> Result<(), String> {
    for reversed in [false, true] {
        let mut sh = shell();
        let mut commands = vec!["create 'ids', 'u', {MAX_FILESIZE => 16384}".to_string()];
        for id in 100_000..101_240u64 {
            let key: String = if reversed {
                id.to_string().chars().rev().collect()
            } else {
                id.to_string()
            };
            commands.push(format!("put 'ids', '{key}', 'u:name', 'user {id}'"));
        }
        run(&mut sh, &commands)?;
        let found = rules(&sh, "ids");
        if reversed {
            assert!(
                !found.contains(&"growing-within-prefix") && !found.contains(&"growing-key"),
                "reversed: {found:?}"
            );
        } else {
            assert!(found.contains(&"growing-key"), "in order: {found:?}");
        }
    }
    Ok(())
}

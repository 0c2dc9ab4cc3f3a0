//! Cell timestamps print as epoch milliseconds or as HBase 2.x's default local date-time:
//! hbase-shell's `hbase/table.rb` (`toLocalDateTime`) prints
//! `java.time.LocalDateTime.ofInstant(instant, ZoneId.systemDefault()).toString`, which drops
//! zero seconds and a zero fraction and prints milliseconds as three digits.
mod common;
use common::*;
use rowkey::shell::{Shell, TimeFormat};

fn shell_with(cells: &[(&str, u64)]) -> Shell {
    let (mut shell, _) = shell_at(1_000);
    run(&mut shell, "create 't', {NAME => 'f', VERSIONS => 10}");
    for (row, ts) in cells {
        run(&mut shell, &format!("put 't', '{row}', 'f:q', 'v', {ts}"));
    }
    shell
}

fn fixed(minutes: i32) -> TimeFormat {
    TimeFormat::Local(Box::new(move |_| minutes))
}

#[test]
fn epoch_is_the_default_and_prints_milliseconds() {
    let mut shell = shell_with(&[("r", 1_700_000_000_000)]);
    assert_eq!(
        run(&mut shell, "scan 't'"),
        "ROW  COLUMN+CELL\n r column=f:q, timestamp=1700000000000, value=v\n1 row(s)\n"
    );
}

#[test]
fn local_time_in_utc_and_a_positive_offset() {
    let mut shell = shell_with(&[("a", 1_700_000_000_000), ("b", 1_700_000_000_123)]);
    shell.time_format = fixed(0);
    assert_eq!(
        run(&mut shell, "scan 't'"),
        "ROW  COLUMN+CELL\n a column=f:q, timestamp=2023-11-14T22:13:20, value=v\n b column=f:q, timestamp=2023-11-14T22:13:20.123, value=v\n2 row(s)\n"
    );
    // UTC+05:30 crosses midnight.
    shell.time_format = fixed(330);
    assert_eq!(
        run(&mut shell, "get 't', 'b'"),
        "COLUMN  CELL\n f:q timestamp=2023-11-15T03:43:20.123, value=v\n1 row(s)\n"
    );
}

#[test]
fn local_time_with_a_negative_offset_and_whole_minutes() {
    // 1699999980000 is 22:13:00 UTC: Java prints no seconds when they and the fraction are 0.
    let mut shell = shell_with(&[("r", 1_699_999_980_000), ("s", 5)]);
    shell.time_format = fixed(-300);
    assert_eq!(
        run(&mut shell, "scan 't'"),
        "ROW  COLUMN+CELL\n r column=f:q, timestamp=2023-11-14T17:13, value=v\n s column=f:q, timestamp=1969-12-31T19:00:00.005, value=v\n2 row(s)\n"
    );
}

#[test]
fn the_offset_is_asked_for_each_instant_and_markers_print_it_too() {
    // A zone with summer time: +1 hour before 1_000_000_000_000, +2 hours from then on.
    let mut shell = shell_with(&[("r", 999_999_999_000), ("r", 1_000_000_000_000)]);
    run(&mut shell, "delete 't', 'r', 'f:q', 1000000000000");
    shell.time_format =
        TimeFormat::Local(Box::new(|ms| if ms < 1_000_000_000_000 { 60 } else { 120 }));
    assert_eq!(
        run(&mut shell, "scan 't', {RAW => true, VERSIONS => 5}"),
        "ROW  COLUMN+CELL\n r column=f:q, timestamp=2001-09-09T03:46:40, type=Delete\n r column=f:q, timestamp=2001-09-09T03:46:40, value=v\n r column=f:q, timestamp=2001-09-09T02:46:39, value=v\n1 row(s)\n"
    );
    // MAXLENGTH cuts the formatted text.
    assert_eq!(
        run(&mut shell, "get 't', 'r', {MAXLENGTH => 20}"),
        "COLUMN  CELL\n f:q timestamp=2001-09-09\n1 row(s)\n"
    );
}

//! `deleteall 't', {ROWPREFIXFILTER => 'p'} [, column [, timestamp]]`, as HBase 2.5's shell
//! runs it (table.rb `_deleterows_internal`): it scans the rows with the prefix and builds each
//! one's delete with `_createdelete_internal`, the column and timestamp included, as a
//! `deleteall` of that row alone would; and it names each row by `Bytes.toStringBinary`, so a
//! key with bytes outside printable ASCII keeps its cells while the delete lands on the row
//! its escaped text spells.

mod common;
use common::*;

fn table() -> rowkey::shell::Shell {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(
        &mut sh,
        "create 't', {NAME => 'f', VERSIONS => 3}, 'g'\n \
         put 't', 'p1', 'f:a', '1', 10\nput 't', 'p1', 'f:b', '2', 20\nput 't', 'p1', 'g:a', '3', 10\n \
         put 't', 'p2', 'f:a', '4', 30\nput 't', 'q1', 'f:a', '5', 10",
    );
    sh
}

#[test]
fn a_prefix_delete_of_a_column_deletes_that_column_of_each_row() {
    let mut sh = table();
    assert_eq!(
        run(&mut sh, "deleteall 't', {ROWPREFIXFILTER => 'p'}, 'f:a'"),
        ""
    );
    assert_eq!(
        run(&mut sh, "scan 't'"),
        "ROW  COLUMN+CELL\n p1 column=f:b, timestamp=20, value=2\n p1 column=g:a, timestamp=10, value=3\n \
         q1 column=f:a, timestamp=10, value=5\n2 row(s)\n"
    );
}

#[test]
fn a_prefix_delete_of_a_family_up_to_a_timestamp_keeps_what_is_newer() {
    let mut sh = table();
    run(&mut sh, "deleteall 't', {ROWPREFIXFILTER => 'p'}, 'f', 15");
    assert_eq!(
        run(&mut sh, "scan 't'"),
        "ROW  COLUMN+CELL\n p1 column=f:b, timestamp=20, value=2\n p1 column=g:a, timestamp=10, value=3\n \
         p2 column=f:a, timestamp=30, value=4\n q1 column=f:a, timestamp=10, value=5\n3 row(s)\n"
    );
    // Without a column, the whole row.
    run(&mut sh, "deleteall 't', {ROWPREFIXFILTER => 'p'}");
    assert_eq!(
        run(&mut sh, "scan 't'"),
        "ROW  COLUMN+CELL\n q1 column=f:a, timestamp=10, value=5\n1 row(s)\n"
    );
}

#[test]
fn a_row_key_outside_printable_ascii_keeps_its_cells_and_the_note_says_where_the_delete_went() {
    let (mut sh, _) = shell_at(1_700_000_000_000);
    run(
        &mut sh,
        "create 't', 'f'\nput 't', \"p\\x00\", 'f:a', 'v', 10\nput 't', 'p1', 'f:a', 'w', 10",
    );
    assert_eq!(
        run(
            &mut sh,
            "deleteall 't', {ROWPREFIXFILTER => 'p'}, 'f:a', 10"
        ),
        "Rowkey: HBase's shell names each row by Bytes.toStringBinary before deleting it, so 1 \
         row(s) whose keys hold other bytes kept their cells; the deletes went to the rows their \
         escaped text names, which scan prints as p\\x5Cx00\n"
    );
    assert_eq!(
        run(&mut sh, "scan 't', {RAW => true}"),
        "ROW  COLUMN+CELL\n p\\x00 column=f:a, timestamp=10, value=v\n \
         p1 column=f:a, timestamp=10, type=DeleteColumn\n p1 column=f:a, timestamp=10, value=w\n \
         p\\x5Cx00 column=f:a, timestamp=10, type=DeleteColumn\n3 row(s)\n"
    );
}

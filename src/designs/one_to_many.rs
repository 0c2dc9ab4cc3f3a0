//! One-to-many (design document 002: keep an entity in one row, related entities in adjacent
//! rows): an order's items as columns of the order's row, against a row per item keyed
//! `<order>#<item>` next to the order's own row.

use super::gen::Gen;
use super::lesson::{on, scanned_is_returned, Measure};
use super::{pattern, Design, Script, Size, Verdict};

/// Orders at the medium size; each has one to twelve items.
const ORDERS: u64 = 400;
const MAX_ITEMS: u64 = 12;
/// The order the reads ask for and the order the patterns cancel.
const READ: u64 = 42;
const CANCELLED: u64 = 7;

fn order_id(i: u64) -> String {
    format!("{i:05}")
}

/// Items per order, and each item's `(sku, quantity)`.
fn orders(size: Size) -> Vec<Vec<(String, u64)>> {
    let mut g = Gen::new(2002);
    (0..size.of(ORDERS).max(CANCELLED.max(READ) + 1))
        .map(|_| {
            (0..1 + g.below(MAX_ITEMS))
                .map(|_| (format!("sku{:04}", g.below(500)), 1 + g.below(5)))
                .collect()
        })
        .collect()
}

fn setup(size: Size) -> String {
    let mut s = Script::default();
    s.line("create 'om_orders', 'o', 'i', {MAX_FILESIZE => 16384}")
        .line("create 'om_items', 'o', 'i', {MAX_FILESIZE => 16384}");
    for (n, items) in orders(size).iter().enumerate() {
        let id = order_id(n as u64);
        let customer = format!("customer{:03}", n % 97);
        s.put("om_orders", &id, "o:customer", &customer).put(
            "om_items",
            &id,
            "o:customer",
            &customer,
        );
        for (k, (sku, qty)) in items.iter().enumerate() {
            let value = format!("{sku} x {qty}");
            s.put("om_orders", &id, &format!("i:{k:02}"), &value).put(
                "om_items",
                &format!("{id}#{k:02}"),
                "i:line",
                &value,
            );
        }
    }
    s.done()
}

fn items_of(size: Size, order: u64) -> u64 {
    orders(size)
        .get(order as usize)
        .map_or(0, |o| o.len() as u64)
}

/// Cancelling an order in the tall layout: find its rows, then delete each.
fn cancel_tall(size: Size) -> String {
    let id = order_id(CANCELLED);
    let mut s = Script::default();
    s.line(format!("scan 'om_items', {{ROWPREFIXFILTER => '{id}'}}"));
    s.line(format!("deleteall 'om_items', '{id}'"));
    for k in 0..items_of(size, CANCELLED) {
        s.line(format!("deleteall 'om_items', '{id}#{k:02}'"));
    }
    s.done().trim_end().to_string()
}

pub fn designs(size: Size) -> Vec<Design> {
    let read = items_of(size, READ);
    let cancelled = items_of(size, CANCELLED);
    let id = order_id(READ);
    vec![Design {
        id: "schema.one-to-many",
        title: "An order's items: columns of one row, or a row each",
        source: "002",
        verdict: Verdict::Tradeoff,
        why: "An order and its items are read together and change together. As columns of the order's row (om_orders: i:00, i:01, … beside o:customer) the order is one get, and any change to it, cancelling included, is one row mutation, atomic. As a row per item keyed <order>#<item> beside the order's own row (om_items), the order is still one contiguous range, read by one prefix scan, because the order id has a fixed width (00042 cannot be the start of another order's id); but a change to several items is several row mutations, none atomic with the others. Rows per item suit orders that grow without bound; columns suit orders of a few items read whole.",
        tables: &["om_orders", "om_items"],
        setup,
        size,
        scales: true,
        patterns: vec![
            pattern("Order 00042 with its items, as columns: one get", format!("get 'om_orders', '{id}'"), "One row: the customer and a column per item.").shows([on(Measure::RowsScanned).eq(1.0), on(Measure::CellsReturned).eq((read + 1) as f64)]),
            pattern("Order 00042 with its items, a row each: one prefix scan", format!("scan 'om_items', {{ROWPREFIXFILTER => '{id}'}}"), "The order's row, then a row per item, side by side.").shows([scanned_is_returned(), on(Measure::RowsReturned).eq((read + 1) as f64)]),
            pattern("Cancel order 00007, as columns: one row mutation", format!("deleteall 'om_orders', '{}'", order_id(CANCELLED)), "The whole order goes at once, atomically.").shows([on(Measure::RowsWritten).eq(1.0)]),
            pattern("Cancel order 00007, a row each: a delete per row", cancel_tall(size), "Find the rows, then delete each: a crash midway leaves part of the order.").shows([on(Measure::Reads).eq(1.0), on(Measure::RowsWritten).eq((cancelled + 1) as f64)]),
        ],
    }]
}

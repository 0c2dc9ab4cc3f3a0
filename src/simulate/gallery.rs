//! Workloads for the gallery: every design and every compare pair under traffic true to it,
//! at a cluster's scale. Each is a workload document (the format of [`Workload`], which a
//! person can write too) under `gallery/`, named after its design (`gallery/<id>.json`) or
//! its pair (`gallery/compare/<id>.json`), with the tables its design creates. Rates, sizes
//! and clusters are the design's world made large (a service's sign-ups, a monitoring
//! system's metrics, a social network's posts); the keys are the design's keys.
//!
//! Beside each document stands what its run shows: for the few designs whose lesson is not
//! about traffic (a filter's semantics, a write cut short), which of its figures the traffic
//! makes visible.

use super::workload::Workload;

/// A design or pair id and its workload document.
type Entry = (&'static str, &'static str);

/// Workload documents by id.
pub struct Shelf(&'static [Entry]);

impl Shelf {
    /// The ids, in order.
    pub fn ids(&self) -> Vec<&'static str> {
        self.0.iter().map(|(id, _)| *id).collect()
    }

    /// The workload document of `id`, as it is stored.
    pub fn document(&self, id: &str) -> Option<&'static str> {
        self.0.iter().find(|(i, _)| *i == id).map(|(_, text)| *text)
    }

    /// The workload of `id`.
    pub fn workload(&self, id: &str) -> Option<Workload> {
        self.document(id)
            .and_then(|text| Workload::from_json(text).ok())
    }
}

/// The entry of a design id: its document is `gallery/<id>.json`.
macro_rules! design {
    ($id:literal) => {
        ($id, include_str!(concat!("gallery/", $id, ".json")))
    };
}

/// The entry of a compare pair id: its document is `gallery/compare/<id>.json`.
macro_rules! pair {
    ($id:literal) => {
        ($id, include_str!(concat!("gallery/compare/", $id, ".json")))
    };
}

/// Every design's workload, in the catalogue's order, with what its run shows.
pub const DESIGNS: Shelf = Shelf(&[
    // Both directions of every link in one table: a prefix scan under `p_<pid>_` or
    // `r_<rid>_` answers either question, and every link is written twice. One template
    // writes both kinds of row, so the first id is drawn alike under `p_` and `r_`.
    design!("person-role.one-table"),
    // Each grant writes a column into two rows; a popular role's row widens with every
    // holder (Zipf over 300 roles), while persons' rows stay a few columns wide.
    design!("person-role.two-tables"),
    // Link rows keyed by a hash name nobody: "roles of a person" reads every link to return
    // a few, then gets each person and role. The run shows rows read against rows returned.
    design!("person-role.three-tables"),
    // The `0_`/`1_` type prefix parts the key space in two, each growing at its end as
    // departments are numbered; the top-level list is one short prefix scan.
    design!("org.departments"),
    // Follows widen two rows each; celebrities' rows (Zipf) take the writes and grow.
    design!("weibo.users"),
    // A few prolific users (Zipf) hold most posts; a user's newest posts are one prefix scan.
    design!("weibo.posts"),
    // Fan-out writes a new version into a fan's one inbox row; the home timeline is a get.
    design!("weibo.inbox"),
    // A celebrity's post is copied into every fan's inbox: a burst of five times the
    // fan-out for ten minutes at hour two, spread over a million inbox rows.
    design!("weibo.fanout"),
    // Both lists in one row per blogger, widening with every follow of a popular one.
    design!("csdn.follows"),
    // A blogger's posts newest first; "the last month" is one window under the blogger.
    design!("csdn.blog"),
    // Which millisecond each bound includes is the design's own check (its patterns); the
    // run shows the bounded window scan reading only the window's rows under the blogger.
    design!("csdn.range-boundaries"),
    // Eight salt buckets pre-split: writes spread over eight regions; the unsalted time key
    // is the growing key.
    design!("schema.salting"),
    // Hashing and reversing both spread sign-ups over the regions.
    design!("schema.hash-vs-reverse"),
    // One family against four: a split looks at the largest store, so four even families
    // grow a quarter as fast each, and one family holding nearly every byte splits as one.
    design!("schema.family-count"),
    // A random salt and a hashed salt spread writes alike; the random one reads a known
    // event with one get per bucket (eight gets a lookup), the hashed with one.
    design!("schema.random-salt"),
    // Time alone as the key keeps one post per user and millisecond: mark `ck_posts`
    // unique and the workload is refused with the colliding keys; the counter keeps them
    // apart (`ck_posts_counted` is unique and checked).
    design!("schema.colliding-keys"),
    // Reversed domains keep a company's sites in one range: one prefix scan; the plain
    // names scatter them, so the same question reads the table.
    design!("schema.reversed-domain"),
    // The MD5 of the id spreads sign-ups over every region.
    design!("schema.hashed-id"),
    // Metric first spreads the writes over the metrics' ranges; timestamp first is the
    // growing key, every write in the last region.
    design!("schema.metric-timestamp"),
    // "Who mentioned X" is a prefix scan of the first hash; writes spread.
    design!("schema.mentions"),
    // 2,000 sign-ups a second of 1 KB rows into each table, 20,000 gets a second of users
    // signed up in the last hour, 8 region servers, the default policy and sizes, seed 1.
    // Ids start at 1,000,000,000, so a day's 172.8 million sign-ups keep ten digits.
    design!("schema.sequential-ids"),
    // One row rewritten every second is a hot row; a row per sample is not.
    design!("schema.frequent-updates"),
    // The articles a reader has read as qualifiers: heavy readers' rows widen.
    design!("schema.columns-as-data"),
    // A celebrity's wide row takes its follows and grows without bound; a row per pair
    // spreads them.
    design!("schema.tall-vs-wide"),
    // Every cell repeats its family and qualifier: the long names' table holds more bytes.
    design!("schema.short-names"),
    // One account's history in one row grows without bound and past 100 MB; parted over a
    // hundred rows (the part drawn at random, for the design's rows of consecutive events)
    // each row grows a hundredth as fast and the busiest account's writes spread.
    design!("schema.entity-rows"),
    // Two sites hold nine pages in ten: numbered upwards, each writes at the end of its
    // range; numbered at random, their writes spread over their ranges.
    design!("schema.few-domains"),
    // An order's items as columns of its row or as rows `<order>#<nn>`: both keyed by the
    // order number, so new orders land at the end of either table. The template numbers
    // each item row as an order of its own, so the item table's prefix scan returns one row.
    design!("schema.one-to-many"),
    // A small hierarchy (3,000 locations, numbered without padding as the document's
    // `loc_id`s are) read far more than written: 20,000 reads a second of a table too small
    // to split, so one region on one server serves every walk.
    design!("cases.locations"),
    // Enrolment peaks once a day; a popular course's row widens with its students.
    design!("cases.student-course"),
    // A user's recent actions, skipping 20, read as one prefix scan with a limit.
    design!("cases.user-action"),
    // A friendship graph as a sparse matrix, read a row per step of a path search.
    design!("cases.user-friends"),
    // `<time><inc_counter>`: the growing key.
    design!("cases.access-log"),
    // A second mutation per line into the index keyed by login: the log's time key grows,
    // the index spreads by user. A write cut short between the two is the design's own
    // check; the run shows where each of the two writes lands.
    design!("cases.secondary-index"),
    // Follows as `<id>-<ts>` qualifiers in both users' rows: celebrities' rows widen.
    // Unfollow first finds its qualifier (a filtered get).
    design!("follow.single-row"),
    // Follows, fans and pairs as rows: lists are prefix scans, "does A follow B" a get,
    // unfollow three deletes.
    design!("follow.tall"),
    // Every follow is two row mutations in two tables, so in two regions: nothing joins
    // them into one. The run shows where each lands; the failure between them is the
    // design's own check.
    design!("follow.atomicity"),
    // Unfollow in both layouts: find the row or the qualifier, then delete. Ids of
    // different lengths (no padding) are the design's; the run's prefix scans are by field.
    design!("follow.unfollow"),
    // A follower costs a whole cell (row, family, qualifier, timestamp) for a 1-byte value:
    // the table's bytes are many times its values'.
    design!("schema.wide-row-overhead"),
]);

/// Every compare pair's workload: the pair's A and B tables, in that order, on one cluster
/// under the same traffic, in the pairs' order.
pub const PAIRS: Shelf = Shelf(&[
    pair!("sequential-vs-hashed"),
    // Four metrics of 1,000 hosts; each table starts in four regions (the timestamp-first
    // one split at 1.5, 3 and 4.5 hours into the run, the metric-first one at the metrics'
    // names), as the pair's sample tables do.
    pair!("timestamp-vs-metric-first"),
    pair!("wide-vs-tall"),
    pair!("plain-vs-salted"),
    // Both keyed by sequential customer ids: the names do not move the hotspot, they grow
    // the bytes per record.
    pair!("long-vs-short-names"),
    pair!("plain-vs-reversed-domains"),
]);

/// The design ids that have a workload: every design's.
pub fn ids() -> Vec<&'static str> {
    DESIGNS.ids()
}

/// The workload of design `id` (what `rowkey simulate --design` plays).
pub fn workload(id: &str) -> Option<Workload> {
    DESIGNS.workload(id)
}

/// The workload of compare pair `id`: its tables are the pair's A and B tables, in that order.
pub fn pair_workload(id: &str) -> Option<Workload> {
    PAIRS.workload(id)
}

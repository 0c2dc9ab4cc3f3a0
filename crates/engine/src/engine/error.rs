//! The engine's errors, named after the exceptions HBase raises for the same mistakes.

/// What can go wrong in an engine operation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The table does not exist.
    #[error("Unknown table {0}!")]
    TableNotFound(String),
    /// A table of that name exists already.
    #[error("Table already exists: {0}!")]
    TableExists(String),
    /// The table is disabled and cannot serve reads or writes.
    #[error("Table {0} is disabled!")]
    TableNotEnabled(String),
    /// The table must be disabled for this operation (drop).
    #[error("Table {0} is enabled. Disable it first.")]
    TableNotDisabled(String),
    /// A family named in an operation is not part of the table.
    #[error("org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException: Column family {} does not exist in region {} in table {}", .0.family, .0.region, .0.table)]
    NoSuchColumnFamily(Box<MissingFamily>),
    /// A table needs at least one family.
    #[error("Table should have at least one column family.")]
    NoFamilies,
    /// A family was named twice in one create or alter.
    #[error("Family '{0}' already exists")]
    DuplicateFamily(String),
    /// A name that HBase would refuse for a table or family.
    #[error("Illegal name: {0}")]
    IllegalName(String),
    /// Row keys must not be empty.
    #[error("Row length is 0")]
    EmptyRow,
    /// An argument HBase refuses, with its own wording.
    #[error("{0}")]
    IllegalArgument(String),
    /// Increment on a value that is not an 8-byte long.
    #[error(
        "org.apache.hadoop.hbase.DoNotRetryIOException: Field is not a long, it's {0} bytes wide"
    )]
    NotALong(usize),
    /// A write to a table whose descriptor says READONLY (`HRegion.checkReadOnly`).
    #[error("org.apache.hadoop.hbase.DoNotRetryIOException: region is read only")]
    ReadOnly,
    /// A split key outside the region or equal to its start.
    #[error("Split row {0} is not inside region bounds or equals the region start")]
    BadSplitKey(String),
}

/// A family an operation named that its table does not have, and where it was looked for:
/// behind a box, so that every `Result` of the engine carries one word for it, not nine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingFamily {
    /// The family's name as HBase prints bytes.
    pub family: String,
    /// The table's descriptor as HBase writes it out (`HRegion.checkFamily` names the table
    /// by its descriptor, whose families show what the write or read could have named).
    pub table: String,
    /// The region's name, as HBase names it in the message.
    pub region: String,
}

impl Error {
    /// The table `table` has no family `family`: HBase's `NoSuchColumnFamilyException`, which
    /// names the region the operation reached and the table's descriptor
    /// (`HRegion.checkFamily`, 2.5).
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn no_such_family(family: &[u8], table: &super::TableDescriptor, region: String) -> Error {
        Error::NoSuchColumnFamily(Box::new(MissingFamily {
            family: crate::bytes::to_printable(family),
            table: super::descriptor_text::table(table),
            region,
        }))
    }

    /// A refusal of HBase's master sanity checks (`TableDescriptorChecker`, on by default),
    /// in its words: `message`, then the hint to turn the checks off.
    #[cfg_attr(rowkey_cold, optimize(size))]
    pub fn sanity_check(message: &str) -> Error {
        Error::IllegalArgument(format!(
            "org.apache.hadoop.hbase.DoNotRetryIOException: {message} Set hbase.table.sanity.checks to false at conf or table descriptor if you want to bypass sanity checks"
        ))
    }
}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, Error>;

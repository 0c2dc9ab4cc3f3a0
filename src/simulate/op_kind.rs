//! The kinds of operation a workload plays: one list that the workload's operations, the
//! simulation's samples and the workload form all name.

use super::workload::Operation;

/// A kind of operation of a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// A put of a new row.
    PutNew,
    /// A put over an existing row.
    Update,
    /// A get of one row.
    Get,
    /// A scan of the rows under a key prefix, with a limit.
    PrefixScan,
    /// A scan of the rows under a key prefix made in a time window, with a limit.
    WindowScan,
    /// A delete of a row.
    Delete,
}

impl OpKind {
    /// Every kind, in the order a form lists them.
    pub const ALL: [OpKind; 6] = [
        OpKind::PutNew,
        OpKind::Update,
        OpKind::Get,
        OpKind::PrefixScan,
        OpKind::WindowScan,
        OpKind::Delete,
    ];

    /// What it does, as a person says it.
    pub fn label(self) -> &'static str {
        match self {
            OpKind::PutNew => "put a new row",
            OpKind::Update => "update a row",
            OpKind::Get => "get a row",
            OpKind::PrefixScan => "scan a prefix",
            OpKind::WindowScan => "scan a time window",
            OpKind::Delete => "delete a row",
        }
    }

    /// A get or a scan.
    pub fn is_read(self) -> bool {
        matches!(self, OpKind::Get | OpKind::PrefixScan | OpKind::WindowScan)
    }

    /// A scan.
    pub fn is_scan(self) -> bool {
        matches!(self, OpKind::PrefixScan | OpKind::WindowScan)
    }
}

impl Operation {
    /// Its kind.
    pub fn kind(&self) -> OpKind {
        match self {
            Operation::PutNew { .. } => OpKind::PutNew,
            Operation::Update { .. } => OpKind::Update,
            Operation::Get { .. } => OpKind::Get,
            Operation::PrefixScan { .. } => OpKind::PrefixScan,
            Operation::WindowScan { .. } => OpKind::WindowScan,
            Operation::Delete { .. } => OpKind::Delete,
        }
    }
}

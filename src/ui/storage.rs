//! Where this tab stands with storage: loading, writing, read-only or without storage, the
//! queue of save plans, what went wrong and how much is used. The work that changes it
//! (loading, the write lock, the save loop) is [`super::storage_work`]'s.

use std::rc::Rc;

use crate::persist::idb::Idb;
use crate::persist::{KeptRun, SaveQueue};

/// Where this tab stands with the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Reading the stored tables; commands wait.
    Loading,
    /// This tab saves every change.
    Writer,
    /// Another tab holds the write lock; this one only reads.
    ReadOnly,
    /// No IndexedDB (private mode, disabled storage): tables live in memory only.
    Unavailable(String),
}

/// Storage state, shared by the reducer and the save loop.
pub struct Storage {
    pub idb: Option<Rc<Idb>>,
    /// The save plans and the truth about each command's save.
    pub queue: SaveQueue,
    /// The save loop runs.
    pub busy: bool,
    pub mode: Mode,
    /// Problems found while loading.
    pub problems: Vec<String>,
    /// Sorted runs no readable catalog names, kept in storage until the person discards them.
    pub kept_aside: Vec<KeptRun>,
    /// What went wrong with the write lock or the takeover, and what to do.
    pub notice: Option<String>,
    pub usage: Option<(f64, f64)>,
    pub persistent: bool,
    /// Another tab upgraded the database: this one should reload.
    pub outdated: bool,
    /// Commands changed only the activity history (reads): it is saved a moment later
    /// ([`HISTORY_SAVE_DELAY_MS`]), not before the command's output is drawn.
    pub history_pending: bool,
    /// The delayed save of the history is set.
    pub history_timer: bool,
}

/// How long after a read the activity history it recorded is saved: the output is drawn first,
/// and reads typed in quick succession share one save. Encoding a history's head (its grid of
/// counts and its splits) and writing it took 30 ms from Enter to the output's frame at a
/// million cells, 60 ms at ten million. A reload within this time shows the history without
/// those reads; tables are never waiting on it.
pub const HISTORY_SAVE_DELAY_MS: u32 = 250;

impl Default for Storage {
    fn default() -> Self {
        Storage {
            idb: None,
            queue: SaveQueue::default(),
            busy: false,
            mode: Mode::Loading,
            problems: Vec::new(),
            kept_aside: Vec::new(),
            notice: None,
            usage: None,
            persistent: false,
            outdated: false,
            history_pending: false,
            history_timer: false,
        }
    }
}

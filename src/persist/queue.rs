//! The save queue: plans carried to storage one transaction at a time, in order, and the truth
//! about each command's save.
//!
//! The policy, in four rules:
//! 1. A command is `saved` once the plan holding its changes committed, never before.
//! 2. When a plan fails, every plan queued behind it is dropped (a log record appended after a
//!    hole would load a state that never existed), and every command not yet saved is
//!    `not saved`. Nothing is marked saved again until a checkpoint commits.
//! 3. Retry is explicit: it queues a checkpoint of everything in memory. Commands run while
//!    the failure stands stay `not saved` (the retry's checkpoint covers them).
//! 4. Reset is explicit too: it drops what waits, ignores the outcome of the plan in flight,
//!    and queues a checkpoint that clears the store first.

use std::collections::VecDeque;
use std::rc::Rc;

use super::plan::{Layout, SavePlan, Saver};
use crate::engine::Engine;

/// What went wrong with storage, by the name of the `DOMException` the browser gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageErrorKind {
    /// `QuotaExceededError`: the site's storage is full.
    Quota,
    /// Another tab upgraded the database (`VersionError`, or the connection closed after a
    /// `versionchange`).
    VersionChange,
    /// The connection is closed (`InvalidStateError`): the browser closed it.
    Closed,
    /// The tables could not be encoded (a bug in Rowkey, not in the browser).
    Encode,
    /// Any other name, `UnknownError` among them: Chromium reports a full disk that way.
    Unknown,
}

impl StorageErrorKind {
    /// The kind for a `DOMException` name.
    pub fn from_name(name: &str) -> StorageErrorKind {
        match name {
            "QuotaExceededError" => StorageErrorKind::Quota,
            "VersionError" => StorageErrorKind::VersionChange,
            "InvalidStateError" => StorageErrorKind::Closed,
            _ => StorageErrorKind::Unknown,
        }
    }
}

/// A failed storage operation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {message}")]
pub struct StorageError {
    pub kind: StorageErrorKind,
    /// The `DOMException` name as the browser gave it (or Rowkey's own name for the failure).
    pub name: String,
    pub message: String,
}

impl StorageError {
    pub fn new(kind: StorageErrorKind, name: &str, message: &str) -> StorageError {
        StorageError {
            kind,
            name: name.to_string(),
            message: message.to_string(),
        }
    }

    /// Why the save failed and what the person can do, in one or two sentences.
    pub fn advice(&self) -> String {
        match self.kind {
            StorageErrorKind::Quota => "the browser's storage for this site is full (QuotaExceededError). Export your tables to keep them, free disk space or clear other sites' data, then press Retry.".to_string(),
            StorageErrorKind::VersionChange => "another tab opened a newer version of Rowkey's storage, so this tab can no longer save. Export your tables to keep the changes made here, then reload.".to_string(),
            StorageErrorKind::Closed => "the browser closed the database (site data cleared, or the browser shutting down). Export your tables to keep the changes made here, then reload.".to_string(),
            StorageErrorKind::Encode => format!("Rowkey could not encode the tables for saving ({}). Export your tables to keep them, and report this.", self.message),
            StorageErrorKind::Unknown => format!("the browser refused the write without saying why ({}: {}); on Chromium this is how a full disk shows. Export your tables to keep them, free disk space, then press Retry.", self.name, self.message),
        }
    }
}

fn encode_error(message: &str) -> StorageError {
    StorageError::new(StorageErrorKind::Encode, "EncodeError", message)
}

/// What a command changed, waiting for its save ticket (see [`SaveQueue::record`]).
pub struct Staged(StagedKind);

enum StagedKind {
    /// A plan, and the layout once it committed.
    Plan(SavePlan, Layout),
    /// Changes made while a failure stands: nothing to queue, the command is `not saved`.
    Unsaved,
    /// The plan could not be made.
    Failed(StorageError),
}

/// Where one command's save stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntrySave {
    Saving,
    Saved,
    NotSaved,
}

struct Item {
    /// The save ticket of the last command whose changes the plan holds.
    ticket: u64,
    plan: Rc<SavePlan>,
    /// What the store holds once the plan committed.
    after: Layout,
    clears: bool,
    epoch: u64,
}

/// The queue of save plans (see the module docs for its policy).
pub struct SaveQueue {
    saver: Saver,
    waiting: VecDeque<Item>,
    in_flight: Option<Item>,
    /// Commands up to this ticket are saved.
    saved_upto: u64,
    /// The failure that stands until a checkpoint commits.
    failure: Option<StorageError>,
    /// A retry's checkpoint is queued or in flight.
    retrying: bool,
    /// Bumped by Reset: outcomes of plans from before it are ignored.
    epoch: u64,
}

impl Default for SaveQueue {
    fn default() -> Self {
        SaveQueue::new(Saver::new())
    }
}

impl SaveQueue {
    /// A queue planning with `saver` (a fresh one, or the one loading returned).
    pub fn new(saver: Saver) -> SaveQueue {
        SaveQueue {
            saver,
            waiting: VecDeque::new(),
            in_flight: None,
            saved_upto: 0,
            failure: None,
            retrying: false,
            epoch: 0,
        }
    }

    /// Takes a new saver (after loading), keeping the tickets already saved.
    pub fn replace_saver(&mut self, saver: Saver) {
        self.saver = saver;
        self.waiting.clear();
        self.failure = None;
        self.retrying = false;
        self.epoch += 1;
    }

    pub fn saver(&self) -> &Saver {
        &self.saver
    }

    fn push(&mut self, ticket: u64, plan: SavePlan, clears: bool) {
        self.waiting.push_back(Item {
            ticket,
            plan: Rc::new(plan),
            after: self.saver.planned().clone(),
            clears,
            epoch: self.epoch,
        });
    }

    /// After commands ran: what they changed, to be queued under a save ticket with
    /// [`SaveQueue::stage`]; `None` when there is nothing to save. (Two steps, so the caller
    /// hands out a ticket only when one is needed.)
    pub fn record(&mut self, engine: &mut Engine) -> Option<Staged> {
        if self.failure.is_some() && !self.retrying {
            // Nothing is queued behind a failure: the retry's checkpoint will hold these.
            let changes = engine.take_changes();
            let changed = changes.any();
            return changed.then_some(Staged(StagedKind::Unsaved));
        }
        match self.saver.plan(engine) {
            Ok(plan) if plan.is_empty() => None,
            Ok(plan) => Some(Staged(StagedKind::Plan(plan, self.saver.planned().clone()))),
            Err(e) => Some(Staged(StagedKind::Failed(encode_error(&e.to_string())))),
        }
    }

    /// Queues what [`SaveQueue::record`] staged, under the command's save ticket.
    pub fn stage(&mut self, staged: Staged, ticket: u64) {
        match staged.0 {
            StagedKind::Plan(plan, after) => self.waiting.push_back(Item {
                ticket,
                plan: Rc::new(plan),
                after,
                clears: false,
                epoch: self.epoch,
            }),
            StagedKind::Unsaved => {}
            StagedKind::Failed(e) => self.fail(e, false),
        }
    }

    /// [`SaveQueue::record`] then [`SaveQueue::stage`], taking a ticket only when needed.
    pub fn record_with(
        &mut self,
        engine: &mut Engine,
        ticket: impl FnOnce() -> u64,
    ) -> Option<u64> {
        let staged = self.record(engine)?;
        let t = ticket();
        self.stage(staged, t);
        Some(t)
    }

    fn fail(&mut self, error: StorageError, in_flight_cleared: bool) {
        let lost_clear = in_flight_cleared || self.waiting.iter().any(|i| i.clears);
        self.waiting.clear();
        self.saver.failed(lost_clear);
        self.failure = Some(error);
        self.retrying = false;
    }

    /// Whether Retry has something to do: a failure stands and no retry is under way.
    pub fn can_retry(&self) -> bool {
        self.failure.is_some() && !self.retrying
    }

    /// The person pressed Retry: queues, under `ticket`, a checkpoint of everything in memory.
    /// Returns whether there was a failure to retry (see [`SaveQueue::can_retry`]).
    pub fn retry(&mut self, engine: &mut Engine, ticket: u64) -> bool {
        if !self.can_retry() {
            return false;
        }
        let t = ticket;
        match self.saver.checkpoint(engine) {
            Ok(plan) => {
                self.push(t, plan, false);
                self.retrying = true;
            }
            Err(e) => self.fail(encode_error(&e.to_string()), false),
        }
        true
    }

    /// Whether no plan waits to be handed out.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// The app's Reset (the engine is already empty): drops what waits and queues a checkpoint
    /// that clears the store first.
    pub fn reset(&mut self, engine: &mut Engine, ticket: u64) {
        self.epoch += 1;
        self.waiting.clear();
        self.failure = None;
        self.retrying = false;
        let t = ticket;
        match self.saver.reset(engine) {
            Ok(plan) => self.push(t, plan, true),
            Err(e) => self.fail(encode_error(&e.to_string()), false),
        }
    }

    /// Whether there is something kept aside that can be discarded now.
    pub fn can_discard(&self) -> bool {
        self.failure.is_none() && self.kept_aside() > 0
    }

    /// The person chose to delete the runs kept aside; queued under `ticket`.
    pub fn discard_kept_aside(&mut self, ticket: u64) -> bool {
        if !self.can_discard() {
            return false;
        }
        let plan = self.saver.discard_kept_aside();
        self.push(ticket, plan, false);
        true
    }

    /// The next plan to write, if none is being written.
    pub fn next(&mut self) -> Option<Rc<SavePlan>> {
        if self.in_flight.is_some() {
            return None;
        }
        let item = self.waiting.pop_front()?;
        let plan = item.plan.clone();
        self.in_flight = Some(item);
        Some(plan)
    }

    /// The plan handed out by [`SaveQueue::next`] committed or failed.
    pub fn finish(&mut self, result: Result<(), StorageError>) {
        let Some(item) = self.in_flight.take() else {
            return;
        };
        if item.epoch != self.epoch {
            // From before a Reset: the Reset's clearing checkpoint follows whatever happened.
            return;
        }
        match result {
            Ok(()) => {
                self.saver.committed_to(item.after);
                self.saved_upto = self.saved_upto.max(item.ticket);
                if self.failure.is_some() && item.plan.is_checkpoint() {
                    self.failure = None;
                    self.retrying = false;
                }
            }
            Err(e) => self.fail(e, item.clears),
        }
    }

    /// Where the save of the command holding `ticket` stands (0: the command changed nothing).
    pub fn status(&self, ticket: u64) -> EntrySave {
        if ticket <= self.saved_upto {
            EntrySave::Saved
        } else if self.failure.is_some() && !self.retrying {
            EntrySave::NotSaved
        } else {
            EntrySave::Saving
        }
    }

    /// The failure that stands, until a checkpoint commits.
    pub fn failure(&self) -> Option<&StorageError> {
        self.failure.as_ref()
    }

    pub fn retrying(&self) -> bool {
        self.retrying
    }

    /// Plans wait or one is being written.
    pub fn pending(&self) -> bool {
        self.in_flight.is_some() || !self.waiting.is_empty()
    }

    /// Whether a plan waits for [`SaveQueue::next`].
    pub fn has_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    pub fn saved_upto(&self) -> u64 {
        self.saved_upto
    }

    /// Runs kept aside in storage, as the saver knows them.
    pub fn kept_aside(&self) -> usize {
        self.saver.planned().kept_aside.len()
    }
}

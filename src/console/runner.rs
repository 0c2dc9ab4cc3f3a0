//! Running an entry: its statements in steps of a few milliseconds, continuations carried
//! to their end, cancel between steps, and more rows of a paged scan on demand.

use super::*;

/// What runs between steps.
pub(super) enum Job {
    /// The statements of an entry not yet run.
    Script { entry: usize, script: Script },
    /// A continuation being carried to its end (a generator, or "show all" of a scan).
    Resume { entry: usize, item: usize },
    /// The lines of a cbt entry not yet run: the byte of the entry's text where the next
    /// line starts.
    Cbt { entry: usize, at: usize },
}

impl Console {
    /// Starts an entry; nothing runs until [`Console::step`]. Returns false for blank text.
    /// Refused (false) while another entry runs.
    pub fn start(&mut self, text: &str) -> bool {
        self.start_in(text, Dialect::HBase)
    }

    /// Starts an entry read in `dialect` (what the person typed runs in the console's mode).
    pub fn start_in(&mut self, text: &str, dialect: Dialect) -> bool {
        let trimmed = text.trim();
        self.cursor = None;
        self.draft.clear();
        if trimmed.is_empty() || self.is_running() {
            return false;
        }
        if dialect == Dialect::Cbt {
            // A question of the HBase shell (`disable_all`'s "(y/n)?") is answered by the
            // shell's next line; a line of cbt leaves the shell, and the question with it.
            if let Some(command) = self.shell.drop_question() {
                self.note(
                    &format!("{command}'s question was left unanswered: nothing was done."),
                    false,
                );
            }
        }
        let index = self.open_entry(trimmed, dialect);
        self.job = Some(match dialect {
            Dialect::HBase => Job::Script {
                entry: index,
                script: Script::new(trimmed.to_string()),
            },
            Dialect::Cbt => Job::Cbt {
                entry: index,
                at: 0,
            },
        });
        false
    }

    /// Runs the text in `dialect` as one entry to its end.
    pub fn submit_in(&mut self, text: &str, dialect: Dialect) -> bool {
        self.start_in(text, dialect);
        let mut cleared = false;
        while self.is_running() {
            cleared |= self.step(&mut || 0.0, f64::INFINITY);
        }
        cleared
    }

    /// Runs one line of cbt over the shell's engine.
    pub fn run_cbt_line(&mut self, line: &str) -> cbt::Output {
        std::mem::swap(&mut self.shell.engine, &mut self.cbt.engine);
        let out = match &self.shell.read_only {
            Some(why) if cbt_command(line).is_some_and(cbt_writes) => cbt::Output {
                stdout: Vec::new(),
                stderr: format!("{why}\n"),
                failed: true,
            },
            _ => self.cbt.run_line(line),
        };
        std::mem::swap(&mut self.shell.engine, &mut self.cbt.engine);
        out
    }

    /// Notes what a cbt line of a measured entry read (the engine's last read of its table,
    /// when the line made one after `tick`), or that it failed.
    fn measure_cbt_line(&mut self, line: &str, tick: u64, out: &cbt::Output) {
        let table = cbt::split(line)
            .ok()
            .and_then(|w| w.get(1).map(|t| String::from_utf8_lossy(t).into_owned()));
        let read = table.as_ref().and_then(|t| {
            let last = self.shell.engine.activity(t)?.last_read()?;
            (last.tick > tick).then(|| (t.clone(), last.stats.clone()))
        });
        let Some(m) = &mut self.measured else {
            return;
        };
        if let Some(read) = read {
            m.reads.push(read);
        }
        if out.failed && m.failed.is_none() {
            m.failed = Some(format!("{line}: {}", out.stderr.trim_end()));
        }
    }

    /// Runs the next line of a cbt entry.
    fn step_cbt(&mut self, entry: usize, at: usize) -> Option<Job> {
        let (input, number) = {
            let e = self.entries.get(entry)?;
            let before = e.input.get(..at)?;
            (
                e.input.get(at..)?.to_string(),
                before.matches('\n').count() + 1,
            )
        };
        let (line, rest) = match input.split_once('\n') {
            Some((line, _)) => (line, at + line.len() + 1),
            None => (input.as_str(), at + input.len()),
        };
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() {
            let tick = self.shell.engine.tick();
            let out = self.run_cbt_line(line);
            let name = cbt_command(line);
            if self.measured.is_some() {
                self.measure_cbt_line(line, tick, &out);
            }
            let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
            output.push_str(&out.stderr);
            let item = Item {
                line: number,
                name,
                input: line.to_string(),
                output,
                error_span: out.failed.then_some(0..line.len()),
                more: None,
            };
            let e = self.entries.get_mut(entry)?;
            e.writes |= !out.failed && name.is_some_and(cbt_writes);
            e.add(item);
        }
        let done = rest >= at + input.len();
        if let Some(e) = self.entries.get_mut(entry) {
            e.progress = rest;
            if done {
                e.state = RunState::Done;
            }
        }
        self.touch(entry);
        (!done).then_some(Job::Cbt { entry, at: rest })
    }

    /// Shows commands the app ran itself to their end (a gallery pattern it measured) as one
    /// entry, as if typed and run: their outputs, and the last read's trace for the views.
    /// Refused (false) while another entry runs.
    pub fn record(&mut self, text: &str, outcomes: Vec<Outcome>) -> bool {
        let trimmed = text.trim();
        if trimmed.is_empty() || self.is_running() {
            return false;
        }
        let index = self.open_entry(trimmed, Dialect::HBase);
        for outcome in outcomes {
            if outcome.trace.is_some() {
                self.last_trace = outcome.trace.clone();
            }
            let item = Item::from_outcome(outcome);
            let writes = !item.failed()
                && item
                    .name
                    .is_some_and(|n| commands::writes(Dialect::HBase, n));
            if let Some(e) = self.entries.get_mut(index) {
                e.writes |= writes;
                e.add(item);
            }
        }
        if let Some(e) = self.entries.get_mut(index) {
            e.progress = trimmed.len();
            e.state = RunState::Done;
        }
        self.touch(index);
        self.data_version += 1;
        true
    }

    /// Remembers the text in the history and adds a running entry for it.
    pub(super) fn open_entry(&mut self, trimmed: &str, dialect: Dialect) -> usize {
        let same = self.history.last().map(String::as_str) == Some(trimmed)
            && self.history_dialects.last() == Some(&dialect);
        if !same {
            self.history.push(trimmed.to_string());
            self.history_dialects.push(dialect);
            if self.history.len() > HISTORY_LIMIT {
                let extra = self.history.len() - HISTORY_LIMIT;
                self.history.drain(..extra);
                self.history_dialects.drain(..extra);
            }
        }
        let number = self.counter + 1;
        let lines = trimmed.lines().count().max(1);
        self.counter += lines;
        self.push(Entry::new(
            number,
            EntryKind::Commands,
            dialect,
            trimmed.to_string(),
            lines,
            Vec::new(),
            RunState::Running,
        ))
    }

    /// Whether an entry or a continuation is still running.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The index of the entry the running job belongs to.
    pub(super) fn job_entry(&self) -> Option<usize> {
        match &self.job {
            Some(
                Job::Script { entry, .. } | Job::Resume { entry, .. } | Job::Cbt { entry, .. },
            ) => Some(*entry),
            None => None,
        }
    }

    /// The entry being run, if any.
    pub fn running(&self) -> Option<&Entry> {
        self.job_entry().and_then(|i| self.entries.get(i))
    }

    /// Runs statements until `budget_ms` has passed on `clock` (at least one statement); returns
    /// true if a statement asked for the screen to be cleared.
    pub fn step(&mut self, clock: &mut dyn FnMut() -> f64, budget_ms: f64) -> bool {
        let started = clock();
        let mut cleared = false;
        loop {
            let Some(job) = self.job.take() else {
                break;
            };
            let (next, clear) = match job {
                Job::Script { entry, script } => self.step_script(entry, script),
                Job::Resume { entry, item } => (self.step_resume(entry, item), false),
                Job::Cbt { entry, at } => (self.step_cbt(entry, at), false),
            };
            cleared |= clear;
            self.job = next;
            if clock() - started >= budget_ms {
                break;
            }
        }
        let elapsed = clock() - started;
        if let Some(e) = self.current_entry_mut() {
            e.elapsed_ms += elapsed;
        } else if let Some(e) = self.entries.last_mut() {
            e.elapsed_ms += elapsed;
        }
        self.data_version += 1;
        cleared
    }

    pub(super) fn current_entry_mut(&mut self) -> Option<&mut Entry> {
        let i = self.job_entry()?;
        self.entries.get_mut(i)
    }

    pub(super) fn step_script(
        &mut self,
        mut entry: usize,
        mut script: Script,
    ) -> (Option<Job>, bool) {
        let outcomes = self.shell.run_some(&mut script, STATEMENTS_PER_LOOK);
        let mut cleared = false;
        for outcome in outcomes {
            if outcome.clear {
                // `clear` empties the screen above this entry; the entry itself stays.
                let keep = self.entries.split_off(entry);
                self.dropped += self.entries.len();
                self.entries = keep;
                entry = 0;
                cleared = true;
                continue;
            }
            if outcome.trace.is_some() {
                self.last_trace = outcome.trace.clone();
            }
            if let Some(m) = &mut self.measured {
                if let Some(t) = &outcome.trace {
                    m.reads.push((t.table.clone(), t.stats.clone()));
                }
                if let (None, Some(e)) = (&m.failed, &outcome.error) {
                    m.failed = Some(format!("{}: {}", outcome.input, e.message));
                }
            }
            let item = Item::from_outcome(outcome);
            let writes = !item.failed()
                && item
                    .name
                    .is_some_and(|n| commands::writes(Dialect::HBase, n));
            let follow = item.more.is_some() && item.name == Some("generate");
            let Some(e) = self.entries.get_mut(entry) else {
                return (None, cleared);
            };
            e.writes |= writes;
            e.add(item);
            if follow {
                // The generator goes on by itself; the rest of the script waits for it.
                let index = e.items.len() - 1;
                e.progress = script.progress().0;
                self.touch(entry);
                self.pending_script = Some(script);
                return (Some(Job::Resume { entry, item: index }), cleared);
            }
        }
        let done = script.is_done();
        if let Some(e) = self.entries.get_mut(entry) {
            e.progress = script.progress().0;
            if done {
                e.state = RunState::Done;
            }
        }
        self.touch(entry);
        if done {
            (None, cleared)
        } else {
            (Some(Job::Script { entry, script }), cleared)
        }
    }

    pub(super) fn step_resume(&mut self, entry: usize, index: usize) -> Option<Job> {
        let cont = self
            .entries
            .get_mut(entry)?
            .items
            .get_mut(index)?
            .more
            .take()?;
        let outcome = self.shell.resume(cont, PAGE_ROWS);
        let e = self.entries.get_mut(entry)?;
        let item = e.items.get_mut(index)?;
        let was_failed = item.failed();
        item.output.push_str(&outcome.output);
        item.more = outcome.more;
        if outcome.error.is_some() && item.error_span.is_none() {
            item.error_span = Some(0..0);
        }
        if let (Some(m), Some(err)) = (&mut self.measured, &outcome.error) {
            if m.failed.is_none() {
                m.failed = Some(format!("{}: {}", item.input, err.message));
            }
        }
        let failed_now = (!was_failed && item.failed()).then_some(item.line);
        if item
            .name
            .is_some_and(|n| commands::writes(Dialect::HBase, n))
        {
            e.writes = true;
        }
        let more = item.more.is_some();
        if let Some(line) = failed_now {
            e.tally.failure(line);
        }
        self.touch(entry);
        if more {
            return Some(Job::Resume { entry, item: index });
        }
        // A generator finished: the statements after it run now.
        match self.pending_script.take() {
            Some(script) => Some(Job::Script { entry, script }),
            None => {
                if let Some(e) = self.entries.get_mut(entry) {
                    e.state = RunState::Done;
                }
                None
            }
        }
    }

    /// Stops the running entry between two statements; what ran stays.
    pub fn cancel(&mut self) -> bool {
        let Some(job) = self.job.take() else {
            return false;
        };
        self.pending_script = None;
        let (Job::Script { entry, .. } | Job::Resume { entry, .. } | Job::Cbt { entry, .. }) = job;
        let last = self.entries.len().saturating_sub(1);
        if let Some(e) = self.entries.get_mut(entry) {
            e.state = RunState::Cancelled;
            if entry == last {
                // The prompt goes on from the last line that ran, not from the end of the paste.
                let ran = e.items.last().map_or(1, |i| i.line.max(1));
                self.counter = e.number + ran - 1;
            }
            for item in &mut e.items {
                if item.name != Some("generate") {
                    continue;
                }
                if let Some(text) = item.more.take().and_then(|m| m.stopped_text()) {
                    item.output.push_str(&text);
                }
            }
        }
        self.touch(entry);
        true
    }

    /// The next page of a paged scan in statement `index` of the entry at `place` (see
    /// [`Console::place`]); with `all`, every page, in steps. Returns false when there is
    /// nothing more or another entry runs.
    pub fn more(&mut self, place: usize, index: usize, all: bool) -> bool {
        if self.is_running() {
            return false;
        }
        let Some(entry) = place
            .checked_sub(self.dropped())
            .filter(|i| *i < self.entries.len())
        else {
            return false;
        };
        let has_more = self
            .entries
            .get(entry)
            .and_then(|e| e.items.get(index))
            .is_some_and(|i| i.more.is_some());
        if !has_more {
            return false;
        }
        if let Some(e) = self.entries.get_mut(entry) {
            e.state = RunState::Running;
        }
        let next = self.step_resume(entry, index);
        match next {
            Some(job) if all => self.job = Some(job),
            _ => {
                if let Some(e) = self.entries.get_mut(entry) {
                    e.state = RunState::Done;
                }
            }
        }
        self.data_version += 1;
        true
    }
}

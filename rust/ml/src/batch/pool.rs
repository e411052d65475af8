//! A pool of worker threads that a batch keeps for its whole life: started on the first step
//! that needs them, parked on a condition variable between steps, ended when the pool is
//! dropped. A step on `t` threads wakes `t - 1` sleeping threads instead of starting them;
//! they and the calling thread take the step's pieces (contiguous ranges of games) one after
//! another until none is left.
//!
//! Which game lands where does not depend on the pool: every piece is written at its games'
//! indices, whichever thread steps it.
//!
//! ```text
//!   caller                 worker 1..t-1 (parked)
//!   publish job, gen += 1 ───────► wake, run part k
//!   run part 0                      pending -= 1
//!   wait until pending == 0 ◄────── notify when the last one finishes
//! ```

use super::parallel::Split;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// The job of one run, its lifetime erased (see [`Pool::run`] for why that is sound).
type Job = &'static (dyn Fn(usize) + Sync);

#[derive(Default)]
struct State {
    /// Bumped for every run: a worker runs each generation at most once.
    generation: u64,
    job: Option<Job>,
    /// Parts of the current run (part 0 is the caller's).
    parts: usize,
    /// Workers still running a part of the current run.
    pending: usize,
    /// A part panicked; the caller panics once every part is done.
    panicked: bool,
    shutdown: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    done: Condvar,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // The state is only changed under the lock by code that does not panic; a poisoned lock
    // still holds a consistent state.
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Persistent worker threads (see the module documentation).
#[derive(Default)]
pub struct Pool {
    shared: Arc<Shared>,
    /// Started workers; worker `k` (1-based) runs part `k`.
    workers: Mutex<Vec<JoinHandle<()>>>,
    /// One run at a time (a run's job lives on its caller's stack).
    running: Mutex<()>,
}

impl Pool {
    /// A pool with no thread started yet.
    pub fn new() -> Pool {
        Pool::default()
    }

    /// How many worker threads are started (the calling thread not counted).
    pub fn started(&self) -> usize {
        self.workers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    fn ensure_workers(&self, count: usize) {
        let mut workers = self.workers.lock().unwrap_or_else(PoisonError::into_inner);
        while workers.len() < count {
            let index = workers.len() + 1;
            let shared = Arc::clone(&self.shared);
            workers.push(std::thread::spawn(move || worker(&shared, index)));
        }
    }

    /// Runs `job(part)` for every part in `0..parts`, part 0 on the calling thread and the
    /// others on the pool's workers (started if need be), and returns when all are done. A
    /// panic in any part is raised here after every part has finished.
    pub fn run(&self, parts: usize, job: &(dyn Fn(usize) + Sync)) {
        if parts <= 1 {
            if parts == 1 {
                job(0);
            }
            return;
        }
        let _running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        self.ensure_workers(parts - 1);
        // SAFETY: the job is only called by workers between its publication below and the
        // moment `pending` drops to zero, and this function does not return (nor unwind:
        // part 0 runs under `catch_unwind`) before it has waited for that and withdrawn the
        // job. So every call happens while the borrow `job` is alive; the 'static lifetime
        // only lets it cross into the workers' closures.
        let job: Job = unsafe { std::mem::transmute::<&(dyn Fn(usize) + Sync), Job>(job) };
        {
            let mut state = lock(&self.shared.state);
            state.generation += 1;
            state.job = Some(job);
            state.parts = parts;
            state.pending = parts - 1;
            state.panicked = false;
        }
        self.shared.wake.notify_all();
        let mine = catch_unwind(AssertUnwindSafe(|| job(0)));
        let panicked = {
            let mut state = lock(&self.shared.state);
            while state.pending > 0 {
                state = self
                    .shared
                    .done
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            state.job = None;
            state.panicked
        };
        if let Err(payload) = mine {
            resume_unwind(payload);
        }
        assert!(!panicked, "a batch worker thread panicked");
    }

    /// Splits `all` into contiguous pieces (about [`PIECES_PER_THREAD`] per thread) and runs
    /// `work(first_game_index, piece)` on each, on up to `threads` threads (the caller's
    /// included) that take the next piece as they become free: a thread the system holds up
    /// leaves its share to the others instead of making them wait. Which thread runs a piece
    /// changes nothing but the speed.
    pub fn for_chunks<S: Split>(&self, threads: usize, all: S, work: impl Fn(usize, S) + Sync) {
        let games = all.games();
        let threads = threads.clamp(1, games.max(1));
        if threads == 1 {
            work(0, all);
            return;
        }
        let size = games.div_ceil(threads * PIECES_PER_THREAD).max(1);
        let mut pieces = Vec::with_capacity(games.div_ceil(size));
        let mut rest = all;
        let mut first = 0;
        while rest.games() > size {
            let (piece, tail) = rest.split(size);
            pieces.push(Mutex::new(Some((first, piece))));
            rest = tail;
            first += size;
        }
        pieces.push(Mutex::new(Some((first, rest))));
        let next = AtomicUsize::new(0);
        let job = |_part: usize| loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(piece) = pieces.get(k) else { break };
            let taken = piece.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some((first, piece)) = taken {
                work(first, piece);
            }
        };
        self.run(threads, &job);
    }
}

/// Pieces per thread a step is cut into: enough that a held-up thread's share is taken by
/// the others, few enough that claiming them costs nothing next to stepping their games.
pub const PIECES_PER_THREAD: usize = 8;

fn worker(shared: &Shared, index: usize) {
    let mut seen = 0;
    loop {
        let job = {
            let mut state = lock(&shared.state);
            loop {
                if state.shutdown {
                    return;
                }
                if state.generation != seen {
                    seen = state.generation;
                    if index < state.parts {
                        break state.job;
                    }
                }
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        let Some(job) = job else { continue };
        let ok = catch_unwind(AssertUnwindSafe(|| job(index))).is_ok();
        let mut state = lock(&shared.state);
        state.panicked |= !ok;
        state.pending -= 1;
        if state.pending == 0 {
            shared.done.notify_all();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        lock(&self.shared.state).shutdown = true;
        self.shared.wake.notify_all();
        let workers = std::mem::take(
            self.workers
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner),
        );
        for handle in workers {
            // A worker never panics outside `catch_unwind`; nothing to report if one did.
            let _ = handle.join();
        }
    }
}

impl Clone for Pool {
    /// A new pool (threads are per batch, never shared).
    fn clone(&self) -> Pool {
        Pool::new()
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("started", &self.started())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_is_visited_once_and_threads_persist() {
        let pool = Pool::new();
        for threads in [0, 1, 2, 3, 8] {
            for games in [0, 1, 5, 16, 17] {
                let mut seen = vec![0usize; games];
                pool.for_chunks(threads, &mut seen[..], |first, chunk| {
                    for (i, v) in chunk.iter_mut().enumerate() {
                        *v += first + i + 1;
                    }
                });
                let expected: Vec<usize> = (1..=games).collect();
                assert_eq!(seen, expected, "threads {threads}, games {games}");
            }
        }
        // Started once, for the most parts any run had, and kept.
        assert_eq!(pool.started(), 7);
        let ids = Mutex::new(std::collections::HashSet::new());
        for _ in 0..20 {
            pool.run(3, &|_| {
                ids.lock().unwrap().insert(std::thread::current().id());
            });
        }
        assert_eq!(ids.lock().unwrap().len(), 3);
        assert_eq!(pool.started(), 7);
    }

    #[test]
    fn a_held_up_thread_leaves_its_share_to_the_others() {
        let pool = Pool::new();
        let caller = std::thread::current().id();
        let mut games = [0u8; 64];
        let by_caller = AtomicUsize::new(0);
        let pieces = AtomicUsize::new(0);
        pool.for_chunks(2, &mut games[..], |_, piece| {
            pieces.fetch_add(1, Ordering::SeqCst);
            if std::thread::current().id() == caller {
                by_caller.fetch_add(1, Ordering::SeqCst);
            } else {
                // The worker is held up in its first piece; the caller steps the rest.
                std::thread::sleep(std::time::Duration::from_millis(200));
            }
            piece.fill(1);
        });
        assert!(games.iter().all(|&g| g == 1));
        let pieces = pieces.load(Ordering::SeqCst);
        assert_eq!(pieces, 2 * PIECES_PER_THREAD);
        assert!(by_caller.load(Ordering::SeqCst) >= pieces - 1);
    }

    #[test]
    fn a_panicking_part_panics_the_caller_after_all_parts_ran() {
        let pool = Pool::new();
        let ran = AtomicUsize::new(0);
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.run(3, &|k| {
                ran.fetch_add(1, Ordering::SeqCst);
                assert!(k != 2, "part two fails");
            });
        }));
        assert!(result.is_err());
        assert_eq!(ran.load(Ordering::SeqCst), 3);
        // The pool still works.
        let count = AtomicUsize::new(0);
        pool.run(3, &|_| {
            count.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(count.load(Ordering::SeqCst), 3);
    }
}

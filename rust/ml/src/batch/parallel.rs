//! Splitting per-game work over scoped threads: contiguous chunks, one per thread, the last
//! one run on the calling thread. Every game's result lands at its own index, so the split
//! changes nothing but the speed.

/// Work that splits at a game index into two independent halves.
pub trait Split: Sized + Send {
    /// How many games.
    fn games(&self) -> usize;
    /// The first `at` games and the rest.
    fn split(self, at: usize) -> (Self, Self);
}

impl<T: Send> Split for &mut [T] {
    fn games(&self) -> usize {
        self.len()
    }
    fn split(self, at: usize) -> (Self, Self) {
        self.split_at_mut(at)
    }
}

/// Runs `work(first_game_index, chunk)` over `threads` contiguous chunks of `all` (at least
/// one thread, at most one per game).
pub fn for_chunks<S: Split>(threads: usize, all: S, work: impl Fn(usize, S) + Sync) {
    let games = all.games();
    let threads = threads.clamp(1, games.max(1));
    if threads == 1 {
        work(0, all);
        return;
    }
    let size = games.div_ceil(threads);
    let work = &work;
    std::thread::scope(|scope| {
        let mut rest = all;
        let mut first = 0;
        while rest.games() > size {
            let (chunk, tail) = rest.split(size);
            scope.spawn(move || work(first, chunk));
            rest = tail;
            first += size;
        }
        work(first, rest);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_is_visited_once_whatever_the_thread_count() {
        for threads in [0, 1, 2, 3, 8, 100] {
            for games in [0, 1, 5, 16, 17] {
                let mut seen = vec![0usize; games];
                for_chunks(threads, &mut seen[..], |first, chunk| {
                    for (i, v) in chunk.iter_mut().enumerate() {
                        *v += first + i + 1;
                    }
                });
                let expected: Vec<usize> = (1..=games).collect();
                assert_eq!(seen, expected, "threads {threads}, games {games}");
            }
        }
    }
}

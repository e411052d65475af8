//! Streaming input: transparent decompression, cutting the stream into whole games, and the
//! parallel bulk reader (order kept, memory bounded by a few batches whatever the input size).

use crate::parser::read_game;
use crate::record::{Filter, GameRecord, RecordBuilder};
use crate::split::{first_content_line, game_end, is_game_start, next_game_start, LOOKBACK};
use crate::Lines;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A boxed byte source that can move to another thread.
pub type Source = Box<dyn Read + Send>;

/// Wraps `inner` in the decompressor its first bytes call for (gzip, bzip2, zstd), or none.
pub fn decompress(inner: Source) -> io::Result<Source> {
    let mut buffered = BufReader::with_capacity(1 << 16, inner);
    let head = buffered.fill_buf()?.to_vec();
    Ok(if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(flate2::read::MultiGzDecoder::new(buffered))
    } else if head.starts_with(b"BZh") {
        Box::new(bzip2::read::MultiBzDecoder::new(buffered))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(zstd::stream::read::Decoder::with_buffer(buffered)?)
    } else {
        Box::new(buffered)
    })
}

/// Whether a file starts with a compression format's magic bytes.
pub fn is_compressed(path: &Path) -> io::Result<bool> {
    let mut head = [0u8; 4];
    let mut file = File::open(path)?;
    let n = file.read(&mut head)?;
    let head = &head[..n];
    Ok(head.starts_with(&[0x1f, 0x8b])
        || head.starts_with(b"BZh")
        || head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]))
}

/// Opens a file, decompressing it if needed.
pub fn open_path(path: &Path) -> io::Result<Source> {
    decompress(Box::new(File::open(path)?))
}

/// A run of whole games copied out of the stream.
#[derive(Debug, Default)]
pub struct Batch {
    /// Sequence number (batches are numbered from 0 in stream order).
    pub seq: u64,
    /// Offset of `data` in the decompressed stream.
    pub offset: u64,
    /// The bytes.
    pub data: Vec<u8>,
    /// Each game's `(start, end)` in `data` and the stream offset of its first line.
    pub games: Vec<(usize, usize, u64)>,
}

/// Cuts a byte stream into games, reading it in blocks.
pub struct Chunker {
    source: Source,
    buf: Vec<u8>,
    /// Start of unconsumed data in `buf`.
    start: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
    block: usize,
    /// Games must start before this stream offset (a byte range's end), if set.
    limit: Option<u64>,
    seq: u64,
}

impl Chunker {
    /// A chunker over the whole stream.
    pub fn new(source: Source) -> Chunker {
        Chunker {
            source,
            buf: Vec::new(),
            start: 0,
            base: 0,
            eof: false,
            block: 1 << 20,
            limit: None,
            seq: 0,
        }
    }

    /// A chunker for the games of the byte range `[start, end)` of an uncompressed file:
    /// those whose first line is a game start (see [`is_game_start`]) at or after `start`,
    /// up to the first such start at or after `end`.
    pub fn for_range(mut file: File, start: u64, end: u64) -> io::Result<Chunker> {
        let from = start.saturating_sub(LOOKBACK as u64 + 2);
        file.seek(SeekFrom::Start(from))?;
        let mut chunker = Chunker::new(Box::new(file));
        chunker.base = from;
        chunker.limit = Some(end);
        // Find the first game start at or after `start` (the input's start is one).
        let skip = (start - from) as usize;
        if start == 0 {
            return Ok(chunker);
        }
        loop {
            chunker.fill()?;
            let found = if chunker.buf.len() > skip {
                next_game_start(&chunker.buf, skip.max(chunker.start), chunker.base)
            } else {
                None
            };
            match found {
                Some(pos) if pos + 1 < chunker.buf.len() || chunker.eof => {
                    chunker.start = pos;
                    break;
                }
                _ if chunker.eof => {
                    chunker.start = chunker.buf.len();
                    break;
                }
                _ => {
                    // Keep the lookback window and read on.
                    chunker.start = chunker.buf.len().saturating_sub(LOOKBACK + 2).max(skip);
                    chunker.compact_keep(LOOKBACK + 2);
                    chunker.grow();
                }
            }
        }
        Ok(chunker)
    }

    fn compact_keep(&mut self, keep: usize) {
        let drop = self.start.saturating_sub(keep);
        if drop > 0 {
            self.buf.drain(..drop);
            self.start -= drop;
            self.base += drop as u64;
        }
    }

    fn grow(&mut self) {
        self.block = self.block.saturating_mul(2).min(1 << 28);
    }

    /// Reads one more block (unless at the end of the stream).
    fn fill(&mut self) -> io::Result<()> {
        if self.eof {
            return Ok(());
        }
        let old = self.buf.len();
        self.buf.resize(old + self.block, 0);
        let mut filled = old;
        while filled < self.buf.len() {
            match self.source.read(&mut self.buf[filled..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(filled);
                    return Err(e);
                }
            }
        }
        self.buf.truncate(filled);
        Ok(())
    }

    /// The next game as `(stream offset of its first line, start, end)` in `buf`, reading
    /// more as needed.
    fn next_game(&mut self) -> io::Result<Option<(u64, usize, usize)>> {
        loop {
            let rest = &self.buf[self.start..];
            // A game is complete only if the scan stopped before the end of the data read
            // so far, or the stream is over (a line may continue in the next block).
            let end = game_end(rest);
            let complete = match end {
                Some(n) => self.start + n < self.buf.len() || self.eof,
                None => self.eof,
            };
            if complete {
                let Some(n) = end else {
                    self.start = self.buf.len();
                    return Ok(None);
                };
                let first = first_content_line(&self.buf, self.start);
                let offset = self.base + first as u64;
                if let Some(limit) = self.limit {
                    let window = first.saturating_sub(LOOKBACK + 2);
                    if offset >= limit
                        && is_game_start(
                            &self.buf[window..],
                            first - window,
                            self.base + window as u64,
                        )
                    {
                        self.start = self.buf.len();
                        self.eof = true;
                        return Ok(None);
                    }
                }
                let start = self.start;
                self.start += n;
                return Ok(Some((offset, start, self.start)));
            }
            // Incomplete: drop consumed bytes (keeping the range test's lookback) and read.
            self.compact_keep(LOOKBACK + 2);
            if self.buf.len() - self.start >= self.block / 2 {
                self.grow();
            }
            self.fill()?;
        }
    }

    /// Reads the next games (about `target` bytes, at least one) straight from the buffer,
    /// without the separate cut that batches for other threads need. Only for a whole
    /// stream (no byte range).
    fn next_parsed(
        &mut self,
        options: &ReadOptions,
        target: usize,
    ) -> io::Result<Option<Vec<GameRecord>>> {
        let mut out = Vec::new();
        let mut done = 0;
        while done < target {
            let rest = &self.buf[self.start..];
            let mut lines = Lines::new(rest);
            let mut builder = RecordBuilder::new(&options.filter);
            let found = read_game(&mut lines, &mut builder);
            let n = lines.position();
            // As in `next_game`: complete only if it stopped before the end of the data.
            if self.start + n >= self.buf.len() && !self.eof {
                self.compact_keep(0);
                if self.buf.len() - self.start >= self.block / 2 {
                    self.grow();
                }
                self.fill()?;
                continue;
            }
            if !found {
                self.start = self.buf.len();
                break;
            }
            let first = first_content_line(&self.buf, self.start);
            self.start += n;
            done += n;
            if builder.rejected {
                continue;
            }
            let mut record = builder.record;
            record.offset = self.base + first as u64;
            if options.fens {
                record.compute_fens();
            }
            out.push(record);
        }
        Ok((done > 0).then_some(out))
    }

    /// The next batch of whole games of about `target` bytes (at least one game).
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<Batch>> {
        let mut batch = Batch {
            seq: self.seq,
            ..Batch::default()
        };
        while batch.data.len() < target {
            let Some((offset, start, end)) = self.next_game()? else {
                break;
            };
            if batch.data.is_empty() {
                batch.offset = self.base + start as u64;
            }
            // From where read_game would start (a BOM is stripped only there), not from the
            // first line, which is only the reported offset.
            let at = batch.data.len();
            batch.data.extend_from_slice(&self.buf[start..end]);
            batch.games.push((at, at + end - start, offset));
        }
        if batch.games.is_empty() {
            return Ok(None);
        }
        self.seq += 1;
        Ok(Some(batch))
    }
}

/// What to do with each game.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Tag filter applied before the movetext is read.
    pub filter: Filter,
    /// Compute the FEN after every ply.
    pub fens: bool,
}

/// Reads the games of one batch.
pub fn parse_batch(batch: &Batch, options: &ReadOptions) -> Vec<GameRecord> {
    let mut out = Vec::with_capacity(batch.games.len());
    for &(start, end, offset) in &batch.games {
        let mut lines = Lines::new(&batch.data[start..end]);
        let mut builder = RecordBuilder::new(&options.filter);
        if !read_game(&mut lines, &mut builder) || builder.rejected {
            continue;
        }
        let mut record = builder.record;
        record.offset = offset;
        if options.fens {
            record.compute_fens();
        }
        out.push(record);
    }
    out
}

/// A parsed batch: its number and its games, or the read error that ended the stream.
type Parsed = (u64, io::Result<Vec<GameRecord>>);

/// Reads games from a [`Chunker`] on `threads` worker threads, handing them out in input
/// order. With one thread everything happens in the caller's thread.
pub struct GameReader {
    options: Arc<ReadOptions>,
    inline: Option<Chunker>,
    results: Option<Receiver<Parsed>>,
    pending: BTreeMap<u64, io::Result<Vec<GameRecord>>>,
    next_seq: u64,
    current: std::vec::IntoIter<GameRecord>,
    handles: Vec<JoinHandle<()>>,
    done: bool,
}

/// About how many bytes of PGN each batch holds.
const BATCH_BYTES: usize = 256 << 10;

impl GameReader {
    /// A reader over `chunker`'s games.
    pub fn new(chunker: Chunker, options: ReadOptions, threads: usize) -> GameReader {
        let options = Arc::new(options);
        let mut reader = GameReader {
            options: Arc::clone(&options),
            inline: None,
            results: None,
            pending: BTreeMap::new(),
            next_seq: 0,
            current: Vec::new().into_iter(),
            handles: Vec::new(),
            done: false,
        };
        if threads <= 1 {
            reader.inline = Some(chunker);
            return reader;
        }
        let (work_tx, work_rx) = sync_channel::<Batch>(threads * 2);
        let work_rx = Arc::new(Mutex::new(work_rx));
        let (result_tx, result_rx) = sync_channel::<Parsed>(threads * 4);
        reader
            .handles
            .push(spawn_splitter(chunker, work_tx, result_tx.clone()));
        for _ in 0..threads {
            let work_rx = Arc::clone(&work_rx);
            let result_tx = result_tx.clone();
            let options = Arc::clone(&options);
            reader.handles.push(std::thread::spawn(move || loop {
                let batch = match work_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok(batch) = batch else { return };
                let records = parse_batch(&batch, &options);
                if result_tx.send((batch.seq, Ok(records))).is_err() {
                    return;
                }
            }));
        }
        reader.results = Some(result_rx);
        reader
    }

    /// The next batch of records in order, `None` at the end.
    fn next_records(&mut self) -> Option<io::Result<Vec<GameRecord>>> {
        if self.done {
            return None;
        }
        if let Some(chunker) = self.inline.as_mut() {
            let next = if chunker.limit.is_none() {
                chunker.next_parsed(&self.options, BATCH_BYTES)
            } else {
                chunker
                    .next_batch(BATCH_BYTES)
                    .map(|b| b.map(|batch| parse_batch(&batch, &self.options)))
            };
            return match next {
                Ok(Some(records)) => Some(Ok(records)),
                Ok(None) => {
                    self.done = true;
                    None
                }
                Err(e) => {
                    self.done = true;
                    Some(Err(e))
                }
            };
        }
        loop {
            if let Some(records) = self.pending.remove(&self.next_seq) {
                self.next_seq += 1;
                if records.is_err() {
                    self.done = true;
                }
                return Some(records);
            }
            let results = self.results.as_ref()?;
            match results.recv() {
                Ok((seq, records)) => {
                    self.pending.insert(seq, records);
                }
                Err(_) => {
                    // Every sender is gone: the splitter sent its end marker (`u64::MAX`)
                    // or all batches are in.
                    self.done = true;
                    return None;
                }
            }
        }
    }

    /// The next game, or the error that stopped reading.
    pub fn next_game(&mut self) -> Option<io::Result<GameRecord>> {
        loop {
            if let Some(record) = self.current.next() {
                return Some(Ok(record));
            }
            match self.next_records()? {
                Ok(records) => self.current = records.into_iter(),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

fn spawn_splitter(
    mut chunker: Chunker,
    work_tx: SyncSender<Batch>,
    result_tx: SyncSender<Parsed>,
) -> JoinHandle<()> {
    std::thread::spawn(move || loop {
        match chunker.next_batch(BATCH_BYTES) {
            Ok(Some(batch)) => {
                if work_tx.send(batch).is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                // Delivered in order: after every batch already numbered.
                let _ = result_tx.send((chunker.seq, Err(e)));
                return;
            }
        }
    })
}

impl Iterator for GameReader {
    type Item = io::Result<GameRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

impl Drop for GameReader {
    fn drop(&mut self) {
        // Closing the result channel makes every worker's next send fail, so they stop; the
        // splitter stops when its work channel closes. The threads are not joined: a source
        // that needs a lock the dropping thread holds (a Python file object and the GIL)
        // would deadlock the join, and the threads end on their own.
        self.results = None;
        self.handles.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn sample(games: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for i in 0..games {
            write!(
                out,
                "[Event \"g{i}\"]\n[Result \"*\"]\n\n1. e4 {{ a\n\nb }} e5 2. Nf3 Nc6 *\n\n"
            )
            .unwrap();
        }
        out
    }

    fn events_of(reader: GameReader) -> Vec<String> {
        reader
            .map(|r| {
                let r = r.unwrap();
                format!(
                    "{}@{} {}",
                    r.header("Event").unwrap(),
                    r.offset,
                    r.moves.len()
                )
            })
            .collect()
    }

    #[test]
    fn threads_keep_order_and_small_blocks_split_nothing() {
        let data = sample(3000);
        let one = GameReader::new(
            Chunker::new(Box::new(io::Cursor::new(data.clone()))),
            ReadOptions::default(),
            1,
        );
        let expected = events_of(one);
        assert_eq!(expected.len(), 3000);
        assert!(expected[0] == "g0@0 4");
        for threads in [1, 3] {
            let mut chunker = Chunker::new(Box::new(io::Cursor::new(data.clone())));
            chunker.block = 7;
            assert_eq!(
                events_of(GameReader::new(chunker, ReadOptions::default(), threads)),
                expected
            );
        }
    }

    /// An endless-looking input made on the fly: `games` copies of one game, never held whole.
    struct Repeat {
        game: Vec<u8>,
        games: usize,
        pos: usize,
    }

    impl Read for Repeat {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let total = self.game.len() * self.games;
            let n = buf.len().min(total - self.pos);
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = self.game[(self.pos + i) % self.game.len()];
            }
            self.pos += n;
            Ok(n)
        }
    }

    #[test]
    fn memory_stays_flat_whatever_the_input_size() {
        let game =
            b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 { a comment } 1/2-1/2\n\n".to_vec();
        let games = (40 << 20) / game.len();
        let source = Repeat {
            game,
            games,
            pos: 0,
        };
        let mut chunker = Chunker::new(Box::new(source));
        let options = ReadOptions::default();
        let (mut read, mut peak) = (0, 0);
        while let Some(records) = chunker.next_parsed(&options, BATCH_BYTES).unwrap() {
            read += records.len();
            peak = peak.max(chunker.buf.capacity());
        }
        assert_eq!(read, games);
        // 40 MB read through a buffer of a few blocks.
        assert!(peak <= 4 << 20, "buffer grew to {peak} bytes");
    }

    #[test]
    fn compressed_inputs_read_the_same() {
        let data = sample(50);
        let expected = events_of(GameReader::new(
            Chunker::new(Box::new(io::Cursor::new(data.clone()))),
            ReadOptions::default(),
            1,
        ));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&data).unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(&data).unwrap();
        let zst = zstd::stream::encode_all(&data[..], 1).unwrap();
        for packed in [gz.finish().unwrap(), bz.finish().unwrap(), zst] {
            let source = decompress(Box::new(io::Cursor::new(packed))).unwrap();
            let got = events_of(GameReader::new(
                Chunker::new(source),
                ReadOptions::default(),
                2,
            ));
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn byte_ranges_partition_the_games() {
        let data = sample(200);
        let path =
            std::env::temp_dir().join(format!("pychess-pgn-ranges-{}.pgn", std::process::id()));
        std::fs::write(&path, &data).unwrap();
        let expected = events_of(GameReader::new(
            Chunker::new(Box::new(io::Cursor::new(data.clone()))),
            ReadOptions::default(),
            1,
        ));
        for parts in [1u64, 2, 3, 7, 50, 997] {
            let size = data.len() as u64;
            let mut got = Vec::new();
            for k in 0..parts {
                let (a, b) = (size * k / parts, size * (k + 1) / parts);
                let chunker = Chunker::for_range(File::open(&path).unwrap(), a, b).unwrap();
                got.extend(events_of(GameReader::new(
                    chunker,
                    ReadOptions::default(),
                    1,
                )));
            }
            assert_eq!(got, expected, "{parts} parts");
        }
        std::fs::remove_file(&path).unwrap();
    }
}

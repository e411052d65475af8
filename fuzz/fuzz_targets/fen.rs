//! FEN reader: any text, in standard and Chess960 mode. No panic; an accepted position keeps
//! every promise of `pychess_core_fuzz::check_board` (FENs read back, fixed point, SAN/LAN/UCI
//! of every legal move read back); a refusal quotes the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    pychess_core_fuzz::check_fen(&text, false);
    pychess_core_fuzz::check_fen(&text, true);
});

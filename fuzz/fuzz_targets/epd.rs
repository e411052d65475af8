//! EPD reader: any text, in standard and Chess960 mode. No panic; an accepted position keeps
//! every promise of `pychess_core_fuzz::check_board` and names only legal moves in its
//! operations; a refusal quotes the input (or, for the FEN part, the FEN it built).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    pychess_core_fuzz::check_epd(&text, false);
    pychess_core_fuzz::check_epd(&text, true);
});

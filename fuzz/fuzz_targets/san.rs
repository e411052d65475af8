//! Move readers: the first byte picks a position, the rest is read as SAN and as UCI. No
//! panic; an accepted move is exactly the legal move a brute-force search finds; a refusal is
//! invalid/illegal/ambiguous for the right reason and quotes the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let positions = pychess_core_fuzz::positions();
    let board = &positions[usize::from(pick) % positions.len()];
    let text = String::from_utf8_lossy(rest);
    pychess_core_fuzz::check_san(board, &text);
    pychess_core_fuzz::check_uci(board, &text);
});

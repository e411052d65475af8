//! The `pychess_rs._core` extension module: registration only. Each class lives in its own
//! module and wraps `pychess-core`; no chess logic here.

mod batch;
mod bitboards;
mod board;
mod convert;
mod encode;
mod errors;
mod fast_methods;
mod gaviota;
mod moves;
mod perft;
mod pgn;
mod piece;
mod polyglot;
mod position;
mod py_modules;
mod search;
mod squareset;
mod syzygy;
mod training_data;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<board::Board>()?;
    m.add_function(wrap_pyfunction!(board::outcome_result, m)?)?;
    board::install_fast_methods(py)?;
    board::install_members(py)?;
    m.add_class::<board::VariantBoard>()?;
    board::install_variant_fast_methods(py)?;
    m.add_class::<board::LegalMoveGenerator>()?;
    m.add_class::<board::PseudoLegalMoveGenerator>()?;
    m.add_class::<moves::Move>()?;
    moves::register_type(py);
    m.add_class::<piece::Piece>()?;
    m.add_class::<position::Position>()?;
    m.add_class::<squareset::SquareSet>()?;
    bitboards::register(m)?;
    m.add_function(wrap_pyfunction!(perft::parse_perft_line, m)?)?;
    m.add_class::<batch::BatchBoards>()?;
    m.add_function(wrap_pyfunction!(batch::rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(batch::board_from_actions, m)?)?;
    m.add_class::<search::Searcher>()?;
    m.add_class::<search::SearchControl>()?;
    m.add_class::<search::SearchInfo>()?;
    m.add_class::<search::SearchResult>()?;
    m.add_function(wrap_pyfunction!(search::engine_option_ranges, m)?)?;
    m.add_function(wrap_pyfunction!(search::uci_options, m)?)?;
    m.add("BUILTIN_NETWORK", pychess_engine::nnue::BUILTIN_NAME)?;
    m.add_function(wrap_pyfunction!(search::check_uci_option, m)?)?;
    m.add_function(wrap_pyfunction!(search::bench, m)?)?;
    m.add_function(wrap_pyfunction!(search::variant_position, m)?)?;
    m.add("InvalidFenError", py.get_type::<errors::InvalidFenError>())?;
    m.add(
        "InvalidMoveError",
        py.get_type::<errors::InvalidMoveError>(),
    )?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add(
        "AmbiguousMoveError",
        py.get_type::<errors::AmbiguousMoveError>(),
    )?;
    m.add(
        "EngineOptionError",
        py.get_type::<errors::EngineOptionError>(),
    )?;
    pgn::register(m)?;
    m.add_class::<polyglot::PolyglotBook>()?;
    m.add_class::<polyglot::ZobristTable>()?;
    m.add(
        "POLYGLOT_RANDOM_ARRAY",
        pychess_core::POLYGLOT_KEYS.to_vec(),
    )?;
    m.add_class::<gaviota::GaviotaTablebase>()?;
    m.add(
        "GaviotaMissingTableError",
        py.get_type::<errors::gaviota::MissingTableError>(),
    )?;
    encode::register(m)?;
    syzygy::register(m)?;
    training_data::register(m)?;
    Ok(())
}
